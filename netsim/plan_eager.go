//go:build syncsim_noplan

package netsim

// planByDefault is false in a build with the tag syncsim_noplan: ports
// plan departures only where Port.SetPlanning asks, the engine before
// planning became the default (plan.go).
const planByDefault = false
