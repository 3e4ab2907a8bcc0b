package ina

import (
	"testing"

	"syncsim/experiments/exptest"
)

// TestCostModels: ina-basic's cost model estimates the events of tiny real
// runs within a factor of 2 (exptest.CheckCost), across gradient sizes,
// iterations, the UDP burst and the protocols (at points other than those
// the per-protocol constants were measured at). Events only: CPU per event
// depends on the machine and its load.
func TestCostModels(t *testing.T) {
	small := []string{"gradient_a_mb=0.5", "gradient_b_mb=0.2"}
	for _, sets := range [][]string{
		append(small, "udp_gbps=0"),
		append(small, "udp_ms=0.2"),
		append(small, "udp_gbps=0", "iterations=3"),
		{"gradient_a_mb=1", "gradient_b_mb=0.1", "udp_gbps=0"},
		{"gradient_a_mb=1", "gradient_b_mb=0.4", "iterations=2", "udp_ms=0.2", "protocol=atp"},
		{"gradient_a_mb=1", "gradient_b_mb=0.4", "iterations=2", "udp_ms=0.2", "protocol=switchml"},
		{"gradient_a_mb=1", "gradient_b_mb=0.4", "iterations=2", "udp_ms=0.2", "protocol=byteps"},
		{"gradient_a_mb=1", "gradient_b_mb=0.4", "iterations=2", "udp_ms=0.2", "protocol=strawasyn"},
	} {
		exptest.CheckCost(t, lookup(t, "ina-basic"), 1, sets...)
	}
}

// TestCostModelsJobs: the models of the other INA experiments estimate
// tiny real runs within a factor of 2, at points other than those their
// constants were calibrated on (the default ina-model and ina-motivation
// points; ina-testbed and ina-leafspine at run_length=quick on their
// default and a 2 x 2 x 8 fabric): worker and job counts, gradient sizes,
// the examples, background load and workload, warm-up, protocols. The
// background and the jobs' completion time, which sets how long it runs,
// are both estimated (costs.Background, INASlowdown).
func TestCostModelsJobs(t *testing.T) {
	for _, c := range []struct {
		exp  string
		sets []string
	}{
		{"ina-model", []string{"jobs=2", "workers=3", "gradient_mb=1"}},
		{"ina-model", []string{"link_gbps=10", "straggler_gbps=2", "gradient_mb=0.5", "jobs=3"}},
		{"ina-motivation", []string{"protocol=switchml", "unit_ms=0.5"}},
		{"ina-motivation", []string{"example=progress", "duration_ms=1", "protocol=pa-atp"}},
		{"ina-motivation", []string{"example=async-limit", "duration_ms=1", "bg_frac=0.5"}},
		{"ina-testbed", []string{"model=resnet50", "jobs=1", "workers=4", "load=0.3", "bg_warmup_ms=5", "iterations=3", "gradient_scale=0.005"}},
		{"ina-testbed", []string{"model=custom", "gradient_mb=1", "jobs=2", "workers=2", "load=0.6", "bg_warmup_ms=3", "iterations=2", "protocol=strawasyn"}},
		{"ina-testbed", []string{"model=custom", "gradient_mb=1", "jobs=2", "workers=2", "load=0", "iterations=2", "protocol=switchml"}},
		{"ina-leafspine", []string{"spines=2", "leaves=2", "hosts_per_leaf=4", "jobs=1", "workers=4", "run_length=quick", "bg_warmup_ms=2"}},
		{"ina-leafspine", []string{"spines=2", "leaves=2", "hosts_per_leaf=8", "jobs=2", "workers=3", "run_length=quick", "bg_warmup_ms=3",
			"protocol=strawasyn", "load=0.3", "workload=cachefollower"}},
		{"ina-leafspine", []string{"spines=1", "leaves=3", "hosts_per_leaf=4", "jobs=2", "workers=4", "model=custom", "gradient_mb=0.5",
			"iterations=2", "load=0", "protocol=byteps"}},
	} {
		exptest.CheckCost(t, lookup(t, c.exp), 1, c.sets...)
	}
}
