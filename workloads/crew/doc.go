// Package crew models CREW, cross-cloud partial reduce by weighted
// sCatter, controlled REduce and Way-back multicast (Luo, Wang, Li and
// Xing, "Efficient Cross-Cloud Partial Reduce With CREW"), with the
// baselines of its evaluation, on syncsim's engines.
//
// n workers form a full mesh of WAN connections with directed bandwidths
// b_ij != b_ji (networks N1 and N2 of Sec. V-A, or a user's matrix). A
// logical controller keeps a queue of ready workers and pops p of them
// into a set P (Sec. III). Each partial reduce splits the model into n
// blocks by scatter weights x from LP (2) (Sec. IV-A), realised over k
// chunks by Alg. 1 or adjusted by Alg. 2; every initiator in P scatters
// block j to worker j, every aggregator reduces the p copies of its block
// and multicasts the result back to P.
//
// The package is built against netsim.Bulk, so it runs at flow fidelity
// (netsim/fluid, with strict-priority flow scheduling FS/FL/TL/C1/C2 of
// Sec. IV-C) or at packet fidelity (transport.Stack).
package crew
