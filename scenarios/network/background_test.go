package network

import (
	"math"
	"testing"

	"syncsim/workloads/background"
)

// TestBackgroundOfferedLoad runs the packet engine under Cache Follower
// traffic and checks the measured offered load and mean flow size against
// the request and the CDF. The sampling error of both is set by the size
// distribution's coefficient of variation (1.47 for Cache Follower) over
// the number of flows, so the tolerance is three standard errors (about
// 8 percent with ~3000 flows); the generator's own tests check the same
// quantities within 3 percent over 300k flows with an instantaneous engine.
func TestBackgroundOfferedLoad(t *testing.T) {
	const load = 0.3
	m := runExp(t, "background", 3, "workload=cachefollower", "load=0.3", "duration_ms=40",
		"spines=2", "leaves=2", "hosts_per_leaf=8").Metrics
	cdf, _ := background.Workload("cachefollower")
	n := m["flows_started"]
	se := math.Sqrt(cdf.Variance()) / cdf.Mean() / math.Sqrt(n)
	if n < 2000 {
		t.Fatalf("only %.0f flows", n)
	}
	if d := math.Abs(m["offered_load"]/load - 1); d > 3*se {
		t.Errorf("offered load %.4f vs %.2f (%.1f%%, 3 SE = %.1f%%)", m["offered_load"], load, 100*d, 300*se)
	}
	if d := math.Abs(m["mean_flow_kb"]/m["cdf_mean_kb"] - 1); d > 3*se {
		t.Errorf("mean flow %.1f KB vs CDF %.1f KB (%.1f%%)", m["mean_flow_kb"], m["cdf_mean_kb"], 100*d)
	}
	if m["flows_done"] < 0.8*n || !(m["fct_slowdown_p50"] >= 1) || m["fct_slowdown_p99"] < m["fct_slowdown_p50"] {
		t.Errorf("done %.0f of %.0f, slowdown p50 %.2f p99 %.2f", m["flows_done"], n, m["fct_slowdown_p50"], m["fct_slowdown_p99"])
	}
}

// TestBackgroundLoadOrdersSlowdown checks the basic queueing behaviour:
// higher load, higher tail slowdown (same seed, same fabric).
func TestBackgroundLoadOrdersSlowdown(t *testing.T) {
	lo := runExp(t, "background", 5, "load=0.2", "duration_ms=4", "spines=2", "leaves=2", "hosts_per_leaf=8").Metrics
	hi := runExp(t, "background", 5, "load=0.8", "duration_ms=4", "spines=2", "leaves=2", "hosts_per_leaf=8").Metrics
	if !(hi["fct_slowdown_p99"] > lo["fct_slowdown_p99"]) || !(hi["fct_mean_us"] > lo["fct_mean_us"]) {
		t.Fatalf("load 0.2: p99 %.2f mean %.1f us; load 0.8: p99 %.2f mean %.1f us",
			lo["fct_slowdown_p99"], lo["fct_mean_us"], hi["fct_slowdown_p99"], hi["fct_mean_us"])
	}
}
