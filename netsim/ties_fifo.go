//go:build !syncsim_lifo

package netsim

// lifoTies is false in every ordinary build: among events of the same
// time, the one scheduled first fires first (ties_lifo.go has the other
// order, for the equivalence check's reordering test).
const lifoTies = false
