// Package mixed is the scenario family that puts different tenants on one
// fabric, which none of the papers does: mixed-fabric runs in-network
// aggregation jobs, ring all-reduce jobs over DCTCP and background traffic
// on the same leaf-spine. It shares its INA set-up with the ina family
// through scenarios/internal/inarig. Register adds it to a registry.
package mixed
