// Package network is the scenario family of network benchmarks: incast
// (N long-lived or one-shot DCTCP/NewReno senders into one switch port,
// with the DCTCP steady-state analysis beside the measurement) and
// background (Hadoop, Cache Follower or web-search flows at a target load
// on a leaf-spine, with FCT and slowdown percentiles) and permutation (every
// host sends one flow to another host of a random derangement, htsim's
// standard benchmark, on a leaf-spine, dumbbell or star). They validate the
// packet engine against theory and against htsim. Register adds them to a
// registry.
package network
