//go:build !syncsim_noplan

package netsim

// planByDefault is true in an ordinary build: every port whose queue
// allows it plans departures (plan.go). The tag syncsim_noplan keeps the
// eager engine (plan_eager.go), for comparisons.
const planByDefault = true
