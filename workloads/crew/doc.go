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
// initiator in P sends block j to its aggregator (worker j: weighted
// scatter); each aggregator, once it knows P and holds the p copies of its
// block, sums them (controlled reduce) and sends the result back to every
// member of P (way-back multicast). A member starts its next iteration
// when it holds every block. OPR is the same with p blocks over P only;
// A2A, PS, Ring and the tree baselines are in task_a2a.go and single.go.
//
// # Readings of the paper
//
// Where the paper leaves a choice open, the choice and its alternative
// are written beside the code; the ones that change results are
// parameters:
//
//   - Eq. 1a/1b and LP (2) (Objective): an initiator's connections run in
//     parallel (T_scatter = max_j x_j / min_{i in P} b_ij) and b_ii is
//     infinite; LP (2) minimises T_scatter + T_multicast. The simulator
//     moves each block as one transfer and multicasts it once all p
//     copies arrived, whose uncontended time is max_j x_j (1/s_j + 1/m_j)
//     <= T; that objective is the alternative, "store-forward".
//   - Alg. 1's real bounds l < j <= u are read as integer bounds
//     floor(k y_i); the last block of positive weight ends at k.
//   - Alg. 2's d_i mixes a count and real bounds; we take Alg. 1's integer
//     block sizes as targets, so Alg. 2 on Alg. 1's output for the same
//     weights moves nothing (Rearrange).
//   - Eq. 3 indexes the load l by i in P; we read it as the candidate's
//     load l_k (Eq3Candidate) and keep the literal reading (Eq3Literal).
//   - Failover replaces an aggregator whose connection to a member is
//     noticed broken while that member's copy or result still has to
//     cross it: the block moves to the replacement, every member resends
//     it, the copies at the old aggregator are discarded, and members that
//     already hold the result keep it. A lost initiator, no candidate, or
//     an unreachable controller abandon the partial reduce; members that
//     already hold the result keep their round.
//   - Flow scheduling (Policy) ranks the transfers of one directed
//     connection: FS is max-min, FL first-come-first-served at activation,
//     TL by partial-reduce id, C1 multicast first, C2 scatter first (the
//     last three FCFS within a rank), as strict priorities in the fluid
//     engine.
//   - Non-blocking scatter sends chunks in increasing index order; when the
//     plan arrives, chunks already sent that the new plan puts in another
//     block are discarded at the receiver, and a transfer under way
//     continues only if what it still carries is exactly what is missing.
//
// # Fidelity
//
// The package is built against netsim.Bulk. At flow fidelity
// (netsim/fluid) every policy, non-blocking scatter and outages are
// available (they cancel transfers mid-way). At packet fidelity the
// transfers are DCTCP flows (FS) or messages on persistent connections
// (FL), for small n and models; a test holds the two within a stated band.
package crew
