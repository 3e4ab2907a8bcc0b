// Package syncctl simulates the synchronisation controllers of
// straggler-tolerant data-parallel training: a logical controller keeps a
// ready queue of workers that finished their local computation and decides
// which of them synchronise together, and when.
//
// Controllers: AllReduce (BSP: wait for every worker), PartialReduce (pop
// the first p ready workers), SelectiveReduce (Alg. 3 of the
// selective-reduce paper, built on BAG, Alg. 1, and BPAWR, Alg. 2), and the
// two illustrative schemes of that paper's Fig. 3, ProgressAware and
// BandwidthAware.
//
// A Cluster runs n workers on a netsim.Sim: each computes for a time drawn
// from its compute-time distribution, joins the ready queue, synchronises in
// a group chosen by the controller, and computes again. A group's
// (weighted) ring all-reduce either takes the analytic time of Eq. 2 with
// the group's minimum bandwidth, or is simulated on a network through a
// netsim.Bulk engine (see FlowExecutor).
//
// Units: bandwidths are bits/s and model sizes bytes (float64), algorithm
// times are seconds (float64); event times are netsim.Time.
package syncctl
