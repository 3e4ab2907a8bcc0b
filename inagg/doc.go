// Package inagg models in-network aggregation (INA) for distributed
// training: aggregator memory as a switch Program (ATP-style hashed
// aggregators with parameter-server fallback, SwitchML-style per-job slot
// pools), the parameter-server host, the worker senders of BytePS, SwitchML,
// ATP, StrawAsyn (+PC, +AL) and PA-ATP, and the PA-ATP math (Eq. 1-12 of
// Li et al., "PA-ATP: Progress-Aware Transmission Protocol for In-Network
// Aggregation") as plain functions.
//
// A Job is W worker hosts and one parameter-server (PS) host. Every
// iteration each worker computes for a while, then pushes its gradient of
// G bytes as fixed-size gradient packets with job-global sequence numbers
// (iteration k covers sequences [kP, (k+1)P), P = ceil(G/payload)). The
// aggregated result of every sequence comes back to every worker; a worker's
// iteration ends when it holds every result, and it then starts computing
// the next one. Gradient packets carry small integer values so that tests
// check that every worker receives the exact sum for every sequence. With
// JobConfig.Buckets a worker computes layer by layer instead and sends
// each gradient bucket as soon as backprop has produced it, its next
// forward pass of a layer waiting for that layer's results (buckets.go).
//
// The aggregating switch must lie on the path between the workers and the
// PS in both directions (the usual choice is the PS's top-of-rack switch):
// gradients are addressed to the PS and intercepted there, and results from
// the PS pass it on their way back (PA-ATP's AECN bit is set on them there).
package inagg
