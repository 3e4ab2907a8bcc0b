package mixed

import (
	"fmt"
	"testing"

	"syncsim/experiments/exptest"
	"syncsim/netsim"
)

// TestLoneRingMeetsEq2: a lone ring all-reduce job of 20 MB over 3 and 4
// hosts on an idle fabric (one host per leaf under one spine, so no link
// carries two of its flows) synchronises within 1 % of the
// selective-reduce paper's Eq. 2, 2(n-1) alpha + 2(n-1)/n S/B, at
// delay_us 0 and 2, and drops nothing. alpha is a step's one-way latency
// (four cables and three store-and-forwards of a 1500 B segment) and B the
// payload a host's link carries while its NIC also returns the ACKs of the
// flow it receives (100 Gbit/s x 1460 / (1500 + 40)). With overlap=none
// the iteration is one all-reduce of S; with overlap=layer and no compute
// it is one all-reduce per DDP bucket, one after the other, so Eq. 2
// summed over the buckets (the bandwidth term unchanged, the latency term
// once per bucket). With the earlier drop-tail NIC the senders overran
// their own NIC queues in slow start and the same job dropped thousands of
// packets.
func TestLoneRingMeetsEq2(t *testing.T) {
	for _, overlap := range []string{"none", "layer"} {
		for _, n := range []int{3, 4} {
			for _, d := range []float64{0, 2} {
				t.Run(fmt.Sprintf("overlap=%s,n=%d,delay=%g", overlap, n, d), func(t *testing.T) {
					sets := []string{"ina_jobs=0", "pr_jobs=0", "ring_jobs=1", fmt.Sprintf("ring_workers=%d", n),
						"ring_mb=20", "load=0", "compute_ms=0", "iterations=5", "spines=1", fmt.Sprintf("leaves=%d", n),
						"hosts_per_leaf=1", fmt.Sprintf("delay_us=%g", d), "overlap=" + overlap}
					ps, err := MixedFabric().Resolve(sets)
					if err != nil {
						t.Fatal(err)
					}
					size, _, buckets, err := ringPlan(ps, 20*netsim.Megabyte, 0)
					if err != nil {
						t.Fatal(err)
					}
					parts := []netsim.Bytes{size}
					if overlap == "layer" {
						parts = parts[:0]
						for _, b := range buckets {
							parts = append(parts, b.Bytes)
						}
					}
					alpha := 4*d*1e-6 + 3*1500*8/100e9
					b := 100e9 * 1460 / 1540 / 8
					var eq2 float64
					for _, s := range parts {
						eq2 += (2*float64(n-1)*alpha + 2*float64(n-1)/float64(n)*float64(s)/b) * 1e3
					}
					m := exptest.Run(t, MixedFabric(), 1, sets...).Metrics
					got := m["ring_iter_ms"]
					t.Logf("%d all-reduce(s): ring iteration %.4f ms, Eq. 2 %.4f ms (%+.2f %%), drops %v",
						len(parts), got, eq2, 100*(got/eq2-1), m["drops"])
					if overlap == "layer" && len(parts) < 2 {
						t.Errorf("overlap=layer: %d bucket(s) of 20 MB, want DDP's first 1 MiB bucket and the rest", len(parts))
					}
					if got < 0.99*eq2 || got > 1.01*eq2 {
						t.Errorf("ring iteration %.4f ms, Eq. 2 %.4f ms: off by %+.2f %%", got, eq2, 100*(got/eq2-1))
					}
					if m["drops"] != 0 || m["timeouts"] != 0 {
						t.Errorf("drops %v, timeouts %v; want none on an idle fabric", m["drops"], m["timeouts"])
					}
				})
			}
		}
	}
	// The same job with the earlier drop-tail NIC drops at its senders.
	m := exptest.Run(t, MixedFabric(), 1, "ina_jobs=0", "pr_jobs=0", "ring_jobs=1", "ring_workers=3", "ring_mb=20",
		"load=0", "compute_ms=0", "iterations=5", "spines=1", "leaves=3", "hosts_per_leaf=1", "delay_us=2", "nic=droptail").Metrics
	if m["drops"] == 0 {
		t.Errorf("nic=droptail: no drops (the option does not restore the drop-tail NIC)")
	}
}
