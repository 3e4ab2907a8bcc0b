//go:build syncsim_lifo

package netsim

// lifoTies is true in a build with the tag syncsim_lifo: among events of
// the same time, the one scheduled last fires first. Same-instant events
// have no order in the model, so a correct model gives results of the
// same distribution either way; scripts/perf/equiv's test builds syncsim
// with this tag to show that the statistical equivalence check passes a
// pure reordering of ties (docs/performance.md, "The equivalence check").
// The constant is false in every other build (ties_fifo.go), so the
// ordinary scheduler pays nothing for it.
const lifoTies = true
