package network

import (
	"math/rand/v2"
	"testing"
)

// TestDerangement checks the permutation traffic matrix: every host sends
// exactly once and receives exactly once, never to itself, the same seed
// gives the same matrix and different seeds different ones.
func TestDerangement(t *testing.T) {
	for _, n := range []int{2, 3, 5, 16, 128} {
		for seed := uint64(1); seed <= 20; seed++ {
			p := derangement(rand.New(rand.NewPCG(seed, 9)), n)
			seen := make([]bool, n)
			for i, d := range p {
				if d == i || d < 0 || d >= n || seen[d] {
					t.Fatalf("n=%d seed=%d: %v is not a derangement", n, seed, p)
				}
				seen[d] = true
			}
			q := derangement(rand.New(rand.NewPCG(seed, 9)), n)
			for i := range p {
				if p[i] != q[i] {
					t.Fatalf("n=%d seed=%d: two draws differ", n, seed)
				}
			}
		}
	}
	a, b := derangement(rand.New(rand.NewPCG(1, 9)), 64), derangement(rand.New(rand.NewPCG(2, 9)), 64)
	same := true
	for i := range a {
		same = same && a[i] == b[i]
	}
	if same {
		t.Fatal("seeds 1 and 2 drew the same 64-host permutation")
	}
}

// TestPermutationStarLineRate: on a star no two flows share a sender NIC
// or a receiver port, so every long-lived flow is limited by its own
// links alone: each host's NIC (and each switch port towards a host)
// carries one flow's 1500-byte data segments and another flow's 40-byte
// ACKs, so no flow can exceed 10 Gbps x 1460/1540 of payload. DCTCP
// gets no marks (the bottleneck is the sender's own NIC, which does not
// mark) and its window overflows the NIC buffer now and then, so the
// flows run somewhat below that bound: between 95 and 100 percent of it,
// all at the same rate (Jain's index above 0.999), with no switch drops.
func TestPermutationStarLineRate(t *testing.T) {
	m := runExp(t, "permutation", 1, "topology=star", "leaves=1", "hosts_per_leaf=6", "host_gbps=10",
		"delay_us=5", "duration_ms=20").Metrics
	bound := 6 * 10 * 1460.0 / 1540
	// Goodput counts in-order bytes at the receivers over the 18 ms
	// window: a flow may deliver one segment more than its share at the
	// window's edges.
	edge := 6 * 1460 * 8 / 0.018 / 1e9
	if g := m["goodput_gbps"]; g > bound+edge || g < 0.95*bound {
		t.Errorf("goodput %.3f Gbit/s, want within [0.95 x %.3f, %.3f + %.4f]", g, bound, bound, edge)
	}
	if m["jain"] < 0.999 || m["drops"] != 0 {
		t.Errorf("Jain %.4f, drops %.0f", m["jain"], m["drops"])
	}
	// The window's payload (18 ms) needs at least that many full segments.
	if need := m["goodput_gbps"] * 1e9 * 0.018 / 8 / 1460; m["data_pkts"] < need {
		t.Errorf("only %.0f data packets delivered, the window's goodput needs %.0f", m["data_pkts"], need)
	}
}

// TestPermutationFixedSize runs fixed-size flows on a dumbbell and a
// leaf-spine: every flow completes, and no FCT beats the flow's bytes on
// the wire at the host rate (the ideal with zero latency).
func TestPermutationFixedSize(t *testing.T) {
	for _, topo := range []string{"dumbbell", "leaf-spine"} {
		t.Run(topo, func(t *testing.T) {
			m := runExp(t, "permutation", 2, "topology="+topo, "spines=2", "leaves=2", "hosts_per_leaf=4",
				"host_gbps=10", "fabric_gbps=10", "flow_kb=200", "start_jitter_us=20", "duration_ms=5", "warmup_ms=0").Metrics
			hosts := 8.0
			if m["flows_done"] != hosts {
				t.Fatalf("%v of %v flows done", m["flows_done"], hosts)
			}
			wire := 200e3 * 1500 / 1460 * 8 / 10e9 * 1e6 // us
			if m["fct_p50_us"] < wire || m["fct_mean_us"] < wire || m["fct_p99_us"] < m["fct_p50_us"] {
				t.Errorf("FCT mean %.1f p50 %.1f p99 %.1f us; no flow can beat %.1f us", m["fct_mean_us"], m["fct_p50_us"], m["fct_p99_us"], wire)
			}
		})
	}
}
