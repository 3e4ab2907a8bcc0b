// Package training models the computation side of data-parallel training
// jobs: per-iteration compute-time distributions (analytic, the parametric
// approximations of the CNN and Transformer traces used by the
// selective-reduce paper, and an empirical CDF learnt online), the
// per-worker available bandwidths of the selective-reduce methodology
// (Sec. IV-A), and the model sizes used by the in-network aggregation
// experiments.
//
// Times are in seconds (float64) at this level; callers convert to
// netsim.Time with netsim.FromSeconds when they schedule events.
package training
