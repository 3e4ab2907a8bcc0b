//go:build !syncsim_reversedrain

package netsim

// reverseDrain is false in every ordinary build: a partition drains its
// inboxes in source-partition order (drain_reverse.go has the other
// order, for the equivalence check's reordering test).
const reverseDrain = false
