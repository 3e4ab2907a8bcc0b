package mixed

import (
	"testing"

	"syncsim/experiments/exptest"
)

// TestCostModels: mixed-fabric's cost model estimates the events of tiny
// real runs within a factor of 2 (exptest.CheckCost), at points other
// than its calibration points (the default, without background, and each
// tenant alone): iterations, gradient and ring sizes, workloads, loads and
// warm-ups, partial-reduce schemes and group sizes, protocols, idle-host
// background. Events only: CPU per event depends on the machine and its
// load.
func TestCostModels(t *testing.T) {
	e := lookup(t, "mixed-fabric")
	for _, sets := range [][]string{
		{"iterations=2", "gradient_mb=1", "ring_mb=1", "bg_warmup_ms=2", "workload=cachefollower"},
		{"ina_jobs=1", "ring_jobs=0", "pr_jobs=1", "pr_workers=6", "pr_p=2", "bg_warmup_ms=3", "load=0.5", "protocol=strawasyn"},
		{"ina_jobs=0", "ring_jobs=2", "ring_workers=3", "ring_mb=4", "compute_ms=0.2", "load=0", "overlap=none", "iterations=2"},
		{"leaves=4", "hosts_per_leaf=6", "bg_hosts=idle", "bg_warmup_ms=2", "protocol=switchml", "load=0.4", "iterations=2"},
		{"ina_jobs=0", "ring_jobs=0", "pr_jobs=2", "pr_workers=4", "pr_p=2", "pr_scheme=selective-reduce", "load=0", "iterations=4"},
	} {
		exptest.CheckCost(t, e, 1, sets...)
	}
}
