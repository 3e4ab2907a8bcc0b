package experiments

import (
	"testing"
)

// TestINALeafSpineOrder compares the AJCT of the protocols of PA-ATP
// Figs. 12-14 on a small leaf-spine (2 spines x 4 leaves x 4 hosts, the
// paper's 100 Gbps / 2 us / 256 KB, 2:1 oversubscribed like the paper's
// fabric), two jobs of 3 workers pushing 1 MB for 3 iterations, Hadoop
// background at load 0.6 among the hosts without jobs (bg_hosts=free), mean
// over seeds 1-3. The paper's order is pa-atp < strawasyn < atp < switchml.
//
// Observed (mean AJCT, ms; per seed in brackets):
//
//	pa-atp     0.652 [0.760 0.738 0.459]
//	strawasyn  0.628 [0.701 0.662 0.520]
//	switchml   1.317 [1.028 2.034 0.889]
//	atp        3.585 [2.789 4.731 3.234]
//
// What holds and is asserted: both asynchronous protocols beat both
// synchronous ones by a wide margin (strawasyn and pa-atp at least 1.3x
// below switchml and atp; observed 2.0x and 5.5x).
//
// NOT reproduced, logged only:
//   - pa-atp vs strawasyn: within a few percent, order varies by seed
//     (pa-atp 4% slower on the mean). With two jobs and 10 MiB per leaf the
//     asynchrony limit hardly binds, so PA-ATP reduces to StrawAsyn plus
//     progress-aware cuts; the paper's gains grow with jobs and memory
//     pressure (Figs. 13, 15), which this small case does not have.
//   - atp vs switchml: reversed. SwitchML's BDP-sized slot pool ignores ECN
//     and takes bandwidth from the DCTCP background (moderate loss, a few
//     hundred to a few thousand timeouts), while ATP's result-clocked window
//     cuts on every marked round and its retransmission timer (1 ms,
//     doubling) fires while results wait for a straggler.
//
// With bg_hosts=all (background also on the job hosts) ATP is far slower
// still (130-160 ms: drops and repeated timeouts) and SwitchML faster than
// both asynchronous protocols in 2 of 3 seeds; see the experiment's Doc.
func TestINALeafSpineOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 12 small leaf-spine simulations (~10 s)")
	}
	base := []string{"spines=2", "leaves=4", "hosts_per_leaf=4", "jobs=2", "workers=3", "model=custom",
		"gradient_mb=1", "iterations=3", "load=0.6", "bg_hosts=free", "max_ms=2000"}
	protos := []string{"pa-atp", "strawasyn", "atp", "switchml"}
	mean := map[string]float64{}
	for _, p := range protos {
		var sum float64
		for seed := uint64(1); seed <= 3; seed++ {
			m := runINA(t, "ina-leafspine", seed, with(base, "protocol="+p)...)
			if m["jobs_done"] != 2 {
				t.Fatalf("%s seed %d: %v jobs done", p, seed, m["jobs_done"])
			}
			sum += m["ajct_ms"]
		}
		mean[p] = sum / 3
	}
	for _, p := range protos {
		t.Logf("%-10s mean AJCT %.3f ms", p, mean[p])
	}
	for _, async := range []string{"pa-atp", "strawasyn"} {
		for _, sync := range []string{"atp", "switchml"} {
			if !(1.3*mean[async] < mean[sync]) {
				t.Errorf("%s (%.3f ms) not 1.3x below %s (%.3f ms)", async, mean[async], sync, mean[sync])
			}
		}
	}
	// The paper's remaining relations, reported, not asserted (see above).
	t.Logf("pa-atp/strawasyn = %.3f (paper < 1), atp/switchml = %.3f (paper < 1)",
		mean["pa-atp"]/mean["strawasyn"], mean["atp"]/mean["switchml"])
}
