//go:build syncsim_reversedrain

package netsim

// reverseDrain is true in a build with the tag syncsim_reversedrain: a
// partition drains its inboxes from the last source partition to the
// first, so that packets and messages from different partitions that
// arrive at the same instant are scheduled, and fire, in the reverse
// order. That is a pure reordering of same-instant events, symmetric
// between partitions: scripts/perf/equiv's test builds syncsim with
// this tag to show that the statistical equivalence check passes it
// (docs/performance.md, "The equivalence check"), and netsim's
// TestPartitionedMatchesSequential fails with it, as it must, since the
// order is no longer the sequential engine's. The constant is false in
// every other build (drain_forward.go), so the ordinary engine pays
// nothing for it.
const reverseDrain = true
