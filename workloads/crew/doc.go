// Package crew models CREW, cross-cloud partial reduce by weighted
// sCatter, controlled REduce and Way-back multicast (Luo, Wang, Li and
// Xing, "Efficient Cross-Cloud Partial Reduce With CREW"), with the
// baselines of its evaluation, on syncsim's engines.
//
// # The system (Sec. III)
//
// n workers form a full mesh of WAN connections with directed bandwidths
// b_ij != b_ji (Net; networks N1 and N2 of Sec. V-A in wan.go, or a
// user's matrix). A logical controller keeps a queue of ready workers and
// pops p of them into a set P (Cluster). A partial reduce (crewTask)
// splits the model into blocks by scatter weights x from LP (2) (lp.go),
// realised over k chunks by Alg. 1 or adjusted by Alg. 2 (split.go); every
// initiator in P streams block j, chunk by chunk, to its aggregator
// (worker j: weighted scatter); each aggregator, once it knows P, sums
// every chunk as soon as it holds the chunk's p copies (controlled reduce)
// and streams the result back to every member of P (way-back multicast),
// so the multicast overlaps the scatter (stream.go). A member starts its
// next iteration when it holds every chunk's result; with Config.Buckets
// (overlap.go, an option the paper leaves to future work, Sec. VI) it is
// ready at its first gradient bucket, scatters each bucket's chunks as
// backprop produces them, and starts a layer's next forward pass when it
// holds that layer's chunks' results. OPR is the same with
// p blocks over P only; A2A, PS, Ring and the tree baselines are in
// task_a2a.go and single.go.
//
// # Readings of the paper
//
// Where the paper leaves a choice open, the choice and its alternative
// are written beside the code; the ones that change results are
// parameters:
//
//   - Eq. 1a/1b and LP (2) (Objective): an initiator's connections run in
//     parallel (T_scatter = max_j x_j / min_{i in P} b_ij) and b_ii is
//     infinite; LP (2) minimises T_scatter + T_multicast. Sec. IV-A1
//     bounds the pipelined completion T/2 <= T_CREW <= T; blocks move
//     chunk by chunk (PipelineChunk, the default), which keeps T_CREW
//     within T of the split in whole chunks (a test). "store-forward"
//     minimises max_j x_j (1/s_j + 1/m_j), the uncontended time of moving
//     each block as one transfer and multicasting it once all p copies
//     arrived (PipelineBlock), kept as the alternative.
//   - Chunks travel in increasing index order as streams: one transfer
//     at a time, the next starting when the previous one's last byte has
//     left; an aggregator's reduced chunks that are ready together go out
//     in one transfer (nothing downstream waits for them one by one).
//   - Alg. 1's real bounds l < j <= u are read as integer bounds
//     floor(k y_i); the last block of positive weight ends at k.
//   - Alg. 2's d_i mixes a count and real bounds; we take Alg. 1's integer
//     block sizes as targets, so Alg. 2 on Alg. 1's output for the same
//     weights moves nothing (Rearrange).
//   - Eq. 3 indexes the load l by i in P; we read it as the candidate's
//     load l_k (Eq3Candidate) and keep the literal reading (Eq3Literal).
//     "The total block volume that worker i is scheduled to reduce" counts
//     this task's blocks (Eq3Task) or those of every task under way
//     (Eq3Running).
//   - Failover replaces an aggregator whose connection to a member is
//     noticed broken while that member's copy or results still have to
//     cross it. The paper's replacement takes over "the aggregator role"
//     for a block of size x_j (FailoverMove): every chunk of the block some
//     member still lacks moves to the replacement (as a new block), every
//     member streams its copy of them there, the copies at the old
//     aggregator are discarded, and members keep the results they hold.
//     FailoverSplit keeps the chunks the old aggregator has reduced and
//     whose result already crossed the broken connection with it; only the
//     rest moves. A lost initiator, no candidate, or an unreachable
//     controller abandon the partial reduce; members that already hold
//     the result keep their round.
//   - Flow scheduling (Policy) ranks the streams of one directed
//     connection: FS is max-min, FL first-come-first-served by the time a
//     stream started, TL by partial-reduce id, C1 multicast first, C2
//     scatter first (the last three FCFS within a rank), as strict
//     priorities in the fluid engine.
//   - Non-blocking scatter sends chunks in increasing index order; when
//     the plan arrives, chunks already sent that the new plan puts in
//     another block are discarded at the receiver, and a stream already
//     heading to the right aggregator carries on (keeping its rank).
//
// # Fidelity
//
// The package is built against netsim.Bulk. At flow fidelity
// (netsim/fluid, on cables without delay, the pair's latency added per
// transfer: Net) every policy, non-blocking scatter, outages and
// time-varying bandwidth are available (they cancel transfers mid-way or
// re-rate connections). At packet fidelity a stream is a DCTCP connection
// of its own (FS) or shares its pair's persistent connection (FL), for
// small n and models; a test holds the two within a stated band.
package crew
