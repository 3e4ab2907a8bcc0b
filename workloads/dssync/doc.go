// Package dssync models DS-Sync, divide-and-shuffle synchronisation (Wang,
// Zhang, Yang, Chen and Tan, "DS-Sync: Addressing Network Bottlenecks with
// Divide-and-Shuffle Synchronization for Distributed DNN Training"), and
// the baselines of its evaluation on racks behind a spine.
//
//   - groups.go: the periodic divide-and-shuffle pattern (Sec. III-B):
//     InitGroups for static topology heterogeneity (Fig. 4), AdjustGroups
//     for inter-rack (Fig. 5) and end-host (Fig. 6) contention, the period
//     B. pattern.go holds the types and the rack layouts.
//   - consensus.go: the analysis of Sec. IV-B: W_k, rho (the second largest
//     eigenvalue modulus of the period product, with gonum's eigensolver),
//     distances to the average after k periods, and the iterations until
//     the worst case is within a tolerance.
//   - cost.go: Table II's communication cost model.
//   - job.go: the training loop of Pseudo Code 1 with the per-layer hooks
//     of Sec. V-A1, synchronisation overlapping the backward pass.
//   - schemes.go: how a job synchronises: groups in parallel (DS-Sync, and
//     BSP with one group), gossip on a shift graph, ASP through a server.
//   - detect.go: detection of contention from measured transfers and the
//     Adaptive grouper that re-detects every adjust_every iterations.
//   - scenario.go, background.go, run.go: the racks, the scenarios of Sec.
//     V-A5 with a real competing task, and one run at flow or packet
//     fidelity.
//
// # Readings of the paper
//
// Where Pseudo Code 1 and the prose differ, or the paper is silent, this
// package reads it as follows (each at the code that implements it):
//
//   - Representatives take turns round-robin in rack order (Sec. III-B1
//     says only "take turns"). Racks of two whose rotations move in step
//     never meet their rack-mate; the rotations are then staggered, which
//     the paper's larger racks never need (AdjustGroups).
//   - End-host contention: the delayed worker is never a representative;
//     its regular partner is the worker after the representative in
//     rotation order, so it changes every iteration; the split needs a
//     representative plus one partner per delayed worker (AdjustGroups).
//   - Inter-rack contention: the regular partner of a contended
//     representative rotates over the regular racks; with two racks the
//     inter-rack group already is the pair (AdjustGroups).
//   - Pseudo Code 1 adjusts "if t % period == 0 and bandwidth changes";
//     the pattern is rebuilt from initGroups for the contention detected
//     and indexed by t mod B (Adaptive). Detection compares per-pair
//     throughput over the window with the best pair's (Detector); the
//     threshold is a parameter.
//   - Lemma IV.1's bound rho^k on the squared distance after k periods
//     holds from the second period on; after one period it can fail (the
//     period product is not symmetric): consensus_test.go shows a case.
//   - Table II's DS-Sync entry 2 S beta2 for the inter-rack pair is twice
//     what a ring of two moves each way (cost.go).
//   - The paper's communication time (Sec. V-A2) is per worker, from its
//     first non-blocking synchronisation of an iteration to its last
//     completion; Run averages it over workers (ASP: the fastest worker).
package dssync
