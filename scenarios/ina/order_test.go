package ina

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"syncsim/experiments"
)

// orderSets is the fixed small leaf-spine of TestINALeafSpineOrder: the
// paper's 100 Gbps / 2 us / 256 KB links on 4 spines x 4 leaves x 4 hosts
// (non-blocking), two jobs of 6 workers pushing 1 MB for 3 iterations,
// Hadoop background at load 0.6 among all hosts (the paper's all-to-all),
// and 0.25 MiB of aggregator memory (1024 aggregators, a quarter of one
// job's 4033-packet gradient; the paper's 10 MB holds a tenth of a ResNet50
// gradient and a fiftieth of a VGG19 one, so memory pressure here is
// milder than in its Figs. 12-14). The jobs start with the background at
// t = 0 and every iteration counts (bg_warmup_ms=0 skip_iters=0), the
// regime the observations below were made in; on this non-blocking fabric
// the NICs are the busiest tier, so both load bases give the same load.
var orderSets = []string{"spines=4", "leaves=4", "hosts_per_leaf=4", "jobs=2", "workers=6", "model=custom",
	"gradient_mb=1", "iterations=3", "load=0.6", "bg_hosts=all", "switch_mem_mib=0.25", "bg_warmup_ms=0", "skip_iters=0"}

// orderSeeds are the seeds TestINALeafSpineOrder averages over.
const orderSeeds = 6

// runOrder runs ina-leafspine with orderSets plus sets for seeds
// 1..orderSeeds, two at a time, and returns each seed's metrics.
func runOrder(t *testing.T, sets ...string) []map[string]float64 {
	t.Helper()
	e := LeafSpine()
	ps, err := e.Resolve(append(append([]string(nil), orderSets...), sets...))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]map[string]float64, orderSeeds)
	errs := make([]error, orderSeeds)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: uint64(i + 1), Check: true})
			if err != nil {
				errs[i] = fmt.Errorf("seed %d %v: %w", i+1, sets, err)
				return
			}
			out[i] = res.Metrics
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestINALeafSpineOrder checks the AJCT order of PA-ATP Figs. 12-14,
// pa-atp < strawasyn < atp < switchml, on the fixed small leaf-spine of
// orderSets under background load 0.6, over seeds 1-6.
//
// Observed (AJCT in ms, seeds 1-6):
//
//	pa-atp     0.831 0.789 0.795 0.784 0.738 0.740   mean 0.780
//	strawasyn  0.848 0.958 0.959 0.687 0.920 0.863   mean 0.872
//	atp        2.114 2.826 2.036 1.763 2.305 1.749   mean 2.132
//	switchml   33.6  43.6  18.6  38.6 (seeds 1-4 run to the end)
//
// Margins asserted: PA-ATP's mean at least 5% below StrawAsyn's (observed
// 11%; PA-ATP is faster in 5 of the 6 seeds: its asynchrony limit keeps the
// leading workers from filling the 1024 aggregators, so less goes to the
// PS unaggregated: about 40% of StrawAsyn's overflow); StrawAsyn at least
// 1.5x below ATP in every seed (observed 2.0-2.9x: ATP's result-clocked
// window is halved whenever the result of a window carries a mark from any
// worker's path); SwitchML slower than ATP in every seed, shown by its jobs
// being unfinished at twice ATP's slowest completion (its window has no
// congestion control; packets lost where six workers' pools converge on the
// aggregating leaf wait for 10 ms slot timeouts; observed 18.6-43.6 ms in
// full runs of seeds 1-4; a job that loses nothing is the fastest of all,
// as one of seed 3's is, at 0.25 ms: no GACKs, and a BDP-sized pool). The paper reports PA-ATP
// 14-22% below StrawAsyn and StrawAsyn about 2x below ATP (Figs. 12-14);
// SwitchML is much further behind here than in the paper (5-33% above ATP:
// PA-ATP's reductions of 62% vs 60% in Fig. 14 and 39% vs 19% in Fig. 12),
// because every loss costs the public client's 10 ms.
func TestINALeafSpineOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 24 small leaf-spine simulations (~15 s)")
	}
	ajct := map[string][]float64{}
	mean := map[string]float64{}
	for _, p := range []string{"pa-atp", "strawasyn", "atp"} {
		for i, m := range runOrder(t, "protocol="+p) {
			if m["jobs_done"] != 2 {
				t.Fatalf("%s seed %d: %v jobs done", p, i+1, m["jobs_done"])
			}
			ajct[p] = append(ajct[p], m["ajct_ms"])
			mean[p] += m["ajct_ms"] / orderSeeds
		}
		t.Logf("%-9s AJCT %.3f ms, mean %.3f ms", p, ajct[p], mean[p])
	}
	if !(mean["pa-atp"] < 0.95*mean["strawasyn"]) {
		t.Errorf("mean AJCT pa-atp %.3f ms not 5%% below strawasyn's %.3f ms", mean["pa-atp"], mean["strawasyn"])
	}
	wins := 0
	for i := range ajct["pa-atp"] {
		if ajct["pa-atp"][i] < ajct["strawasyn"][i] {
			wins++
		}
		if !(1.5*ajct["strawasyn"][i] < ajct["atp"][i]) {
			t.Errorf("seed %d: strawasyn %.3f ms not 1.5x below atp's %.3f ms", i+1, ajct["strawasyn"][i], ajct["atp"][i])
		}
	}
	if 2*wins <= orderSeeds {
		t.Errorf("pa-atp below strawasyn in only %d of %d seeds", wins, orderSeeds)
	}

	// SwitchML runs until twice ATP's slowest run (its slot timeouts make
	// whole runs long); a job unfinished by then has an AJCT above a third
	// of the horizon, which bounds the mean from below.
	slowest := 0.0
	for _, a := range ajct["atp"] {
		slowest = math.Max(slowest, a)
	}
	horizon := 2 * 3 * slowest // 3 iterations
	for i, m := range runOrder(t, "protocol=switchml", fmt.Sprintf("max_ms=%g", horizon)) {
		// A job unfinished at the horizon has an AJCT above horizon/3.
		done := m["jobs_done"]
		lb := (2 - done) * horizon / 3
		if done > 0 {
			lb += done * m["ajct_done_ms"]
		}
		lb /= 2
		t.Logf("switchml seed %d: %v jobs done by %.2f ms, AJCT above %.3f ms", i+1, done, horizon, lb)
		if !(lb > ajct["atp"][i]) {
			t.Errorf("seed %d: switchml AJCT bound %.3f ms not above atp's %.3f ms", i+1, lb, ajct["atp"][i])
		}
	}
}
