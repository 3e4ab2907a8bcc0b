//go:build syncsim_plan

package netsim

// planByDefault is true in a build with the tag syncsim_plan: every port
// whose queue allows it plans departures (plan.go).
const planByDefault = true
