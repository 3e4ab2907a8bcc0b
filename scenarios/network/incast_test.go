package network

import (
	"math"
	"testing"

	"syncsim/experiments"
	"syncsim/experiments/exptest"
)

// runExp runs one checked run of the family's experiment name.
func runExp(t testing.TB, name string, seed uint64, sets ...string) *experiments.Result {
	t.Helper()
	return exptest.Run(t, lookup(t, name), seed, sets...)
}

// TestDCTCPAgainstTheory validates the packet engine, the ECN switch and
// DCTCP together against the steady-state analysis of Alizadeh et al.
// (SIGCOMM 2010, Sec. 3.3): N long-lived flows on one 10 Gbps bottleneck
// with K = 65 packets.
//
// Tolerances: the largest queue must be within 3 packets of K + N (the
// model's Q_max); the oscillation, measured as the spread between the
// largest queue and the smallest queue sampled every 10 us, must lie
// within [0.7, 1.7] times the model's amplitude A (the model assumes
// perfectly synchronised flows and a fluid queue; per-packet marking and
// alpha updates add jitter, so the sampled spread over many periods
// exceeds one period's A by 30-55 percent here). The queue never empties,
// so utilisation is above 95 percent; over 80 ms Jain's index is above 0.99.
//
// It runs under dctcp_cwr=grow (the analysis' own assumption) and hold
// (Linux's CWR, the default). Under cut the 80-ms Jain's index at N = 8 is
// 0.985, below the bound: a window cut at once and held shares the port
// less evenly over short spans, in ns-3 too (docs/validation.md).
func TestDCTCPAgainstTheory(t *testing.T) {
	for _, run := range []struct{ n, cwr string }{{"2", "grow"}, {"8", "grow"}, {"32", "grow"}, {"2", "hold"}, {"8", "hold"}, {"32", "hold"}} {
		n := run.n
		t.Run("N="+n+"/"+run.cwr, func(t *testing.T) {
			m := runExp(t, "incast", 1, "senders="+n, "duration_ms=100", "ecn_k_pkts=65", "link_gbps=10", "dctcp_cwr="+run.cwr).Metrics
			t.Logf("utilisation %.3f, queue max %.0f (K+N %.0f), amplitude %.1f (analysis %.1f), mean %.1f, Jain %.4f",
				m["utilisation"], m["queue_max_pkts"], m["dctcp_qmax_pkts"], m["queue_max_pkts"]-m["queue_min_pkts"],
				m["dctcp_amplitude_pkts"], m["queue_mean_pkts"], m["jain"])
			if m["utilisation"] < 0.95 || m["goodput_gbps"] < 0.95*10*1460/1500 {
				t.Errorf("utilisation %.3f goodput %.3f Gbps", m["utilisation"], m["goodput_gbps"])
			}
			if d := math.Abs(m["queue_max_pkts"] - m["dctcp_qmax_pkts"]); d > 3 {
				t.Errorf("queue max %.0f, analysis K+N = %.0f", m["queue_max_pkts"], m["dctcp_qmax_pkts"])
			}
			amp := m["queue_max_pkts"] - m["queue_min_pkts"]
			if r := amp / m["dctcp_amplitude_pkts"]; r < 0.7 || r > 1.7 {
				t.Errorf("amplitude %.1f, analysis %.1f (ratio %.2f)", amp, m["dctcp_amplitude_pkts"], r)
			}
			if m["queue_min_pkts"] <= 0 {
				t.Errorf("queue emptied (min %.0f): the link idles", m["queue_min_pkts"])
			}
			if mean := m["queue_mean_pkts"]; math.Abs(mean-65) > 15 {
				t.Errorf("mean queue %.1f not around K = 65", mean)
			}
			if m["jain"] < 0.99 {
				t.Errorf("Jain %.4f", m["jain"])
			}
			if m["drops"] != 0 || m["timeouts"] != 0 {
				t.Errorf("drops %.0f timeouts %.0f with a 1 MB buffer", m["drops"], m["timeouts"])
			}
		})
	}
}

// TestNewRenoFillsBuffer is the contrast: without ECN the loss-based
// sender keeps the 1 MB buffer (666 full segments) full and loses packets.
func TestNewRenoFillsBuffer(t *testing.T) {
	m := runExp(t, "incast", 1, "senders=8", "duration_ms=100", "transport=newreno").Metrics
	buf := 1e6 / 1500
	if m["queue_max_pkts"] < buf-2 || m["drops"] == 0 {
		t.Fatalf("NewReno max queue %.0f of %.0f, drops %.0f", m["queue_max_pkts"], buf, m["drops"])
	}
	if m["queue_mean_pkts"] < 3*65 {
		t.Fatalf("NewReno mean queue %.0f should be far above DCTCP's K", m["queue_mean_pkts"])
	}
}

// TestIncastOneShot checks a partition/aggregate burst: every flow
// completes and the completion time is at least the bytes over the
// bottleneck rate.
func TestIncastOneShot(t *testing.T) {
	m := runExp(t, "incast", 1, "senders=16", "flow_kb=100", "duration_ms=20", "warmup_ms=0").Metrics
	minMs := 16 * 100e3 * 8 / 10e9 * 1e3
	if math.IsNaN(m["incast_fct_ms"]) || m["incast_fct_ms"] < minMs || m["incast_fct_ms"] > 5*minMs {
		t.Fatalf("incast FCT %.3f ms, lower bound %.3f ms", m["incast_fct_ms"], minMs)
	}
}

func TestIncastDeterminism(t *testing.T) {
	a := runExp(t, "incast", 7, "senders=4", "duration_ms=20").Metrics
	b := runExp(t, "incast", 7, "senders=4", "duration_ms=20").Metrics
	for k, v := range a {
		if !(v == b[k] || math.IsNaN(v) && math.IsNaN(b[k])) {
			t.Fatalf("%s differs between identical runs: %v vs %v", k, v, b[k])
		}
	}
	c := runExp(t, "incast", 8, "senders=4", "duration_ms=20").Metrics
	if c["jain"] == a["jain"] && c["queue_mean_pkts"] == a["queue_mean_pkts"] {
		t.Fatal("seeds 7 and 8 gave identical runs: start times are not drawn from the seed")
	}
}
