//go:build !syncsim_plan

package netsim

// planByDefault is false in an ordinary build: ports plan departures
// only where Port.SetPlanning asks (plan.go; plan_on.go has the other
// default, for the tag syncsim_plan).
const planByDefault = false
