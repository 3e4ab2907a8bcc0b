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
// Observed (AJCT, ms, seeds 1 2 3; mean):
//
//	pa-atp     0.708 0.579 0.506; 0.598
//	strawasyn  0.678 0.636 0.459; 0.591
//	switchml   0.226 2.519 1.209; 1.318
//	atp        3.132 4.632 2.818; 3.527
//
// What holds and is asserted: both asynchronous protocols beat ATP in every
// seed by a wide margin (at least 2x asserted; 4.0x to 8.0x observed).
//
// NOT reproduced, logged only:
//   - pa-atp vs strawasyn: within a few percent, order varies by seed
//     (pa-atp 1% slower on the mean). With two jobs and 10 MiB per leaf the
//     asynchrony limit never binds (aecn_marks = 0, at most 8% of the
//     aggregators in use), so PA-ATP reduces to StrawAsyn plus
//     progress-aware cuts; the paper's gains grow with jobs and memory
//     pressure (Figs. 13, 15). At switch_mem_mb=0.25 the limit binds (some
//     600 AECN marks) and lifts switch_agg_frac from 0.41 to 0.59, but the
//     AJCT does not improve here: overflow to an uncongested PS is cheap.
//   - switchml: not the slowest. Its BDP-sized slot pool ignores ECN and
//     takes bandwidth from the DCTCP background; it loses packets and times
//     out in some seeds (2.5 ms) and finishes first in others (0.23 ms).
//     ATP is slower than SwitchML in every seed: its result-clocked window
//     cuts on marked rounds and its retransmission timer (1 ms, doubling)
//     fires while results wait for a straggler.
//
// With bg_hosts=all (background also on the job hosts) ATP is far slower
// still (130-160 ms: drops and repeated timeouts); see the experiment's Doc.
func TestINALeafSpineOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 12 small leaf-spine simulations (~10 s)")
	}
	base := []string{"spines=2", "leaves=4", "hosts_per_leaf=4", "jobs=2", "workers=3", "model=custom",
		"gradient_mb=1", "iterations=3", "load=0.6", "bg_hosts=free", "max_ms=2000"}
	protos := []string{"pa-atp", "strawasyn", "atp", "switchml"}
	mean := map[string]float64{}
	ajct := map[string][]float64{}
	for _, p := range protos {
		var sum float64
		for seed := uint64(1); seed <= 3; seed++ {
			m := runINA(t, "ina-leafspine", seed, with(base, "protocol="+p)...)
			if m["jobs_done"] != 2 {
				t.Fatalf("%s seed %d: %v jobs done", p, seed, m["jobs_done"])
			}
			t.Logf("%-10s seed %d AJCT %.3f ms", p, seed, m["ajct_ms"])
			sum += m["ajct_ms"]
			ajct[p] = append(ajct[p], m["ajct_ms"])
		}
		mean[p] = sum / 3
	}
	for _, p := range protos {
		t.Logf("%-10s mean AJCT %.3f ms", p, mean[p])
	}
	for _, async := range []string{"pa-atp", "strawasyn"} {
		for i := range ajct[async] {
			if !(2*ajct[async][i] < ajct["atp"][i]) {
				t.Errorf("seed %d: %s AJCT %.3f ms not 2x below atp's %.3f ms", i+1, async, ajct[async][i], ajct["atp"][i])
			}
		}
	}
	// The paper's remaining relations, reported, not asserted (see above).
	t.Logf("mean ratios: pa-atp/strawasyn = %.3f (paper < 1), strawasyn/atp = %.3f (paper < 1), atp/switchml = %.3f (paper < 1)",
		mean["pa-atp"]/mean["strawasyn"], mean["strawasyn"]/mean["atp"], mean["atp"]/mean["switchml"])
}
