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
