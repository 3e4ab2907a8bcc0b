package ina

import (
	"fmt"
	"math"
	"sort"
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
// Observed (AJCT in ms, seeds 1-6), at the loss recovery of the public
// ATP client and the paper's texts (docs/ina.md lists each choice) on
// hosts whose NICs push back, with ports that plan departures:
//
//	pa-atp     0.496 0.495 0.583 0.529 0.382 0.620   median 0.512
//	strawasyn  0.981 0.972 0.839 0.729 0.921 0.721   median 0.880
//	atp        7.657 7.254 6.134 8.153 10.865 7.938  median 7.80
//	switchml   (one-BDP pools) 1 or 2 jobs done by 65.19 ms; AJCT above 9.5-20.7
//
// (Under the earlier recovery rules and drop-tail NICs: pa-atp median
// 0.761, strawasyn 1.125.) Margins asserted: PA-ATP's median at least 5%
// below StrawAsyn's (observed 48%) and PA-ATP faster in a majority of
// seeds (observed 5 of 6: its asynchrony limit keeps the leading workers
// from filling the 1024 aggregators, so fewer sequences go to the PS
// unaggregated). The median, not the mean: in seed 5 the placement
// congests a PS's link under the background and one tail event would
// decide a mean of six.
// StrawAsyn below ATP
// in at least 5 of the 6 seeds and its median at least 10% below ATP's
// (observed 2.3-3.8x, median 3.4x: the client's 12 x 100 packets per
// worker start every iteration at once and lose packets where the workers
// converge, and a thread that heard nothing for 200 us resends only up to
// its first result beyond last_ACK, one packet when it holds none, as the
// public client does; resending every outstanding packet instead,
// atp_recover_all, gave 0.99-1.59x); SwitchML with a pool of one BDP (switchml_pool=0, the
// sizing of Sapio et al.) slower than ATP in at least 5 of the 6 seeds
// and in the median (observed 5 of 6; seed 5 finishes both jobs, 9.55
// against ATP's 10.87 ms), shown by its jobs being unfinished at twice
// ATP's slowest completion (its window has no
// congestion control; packets lost where six workers' pools converge on
// the aggregating leaf wait for the client's slot timers, 10 ms, and
// 162 timeouts in an iteration's first window). The paper reports PA-ATP
// 14-22% below StrawAsyn and StrawAsyn about 2x below ATP (Figs. 12-14);
// SwitchML is much further behind here than in the paper (5-33% above
// ATP: PA-ATP's reductions of 62% vs 60% in Fig. 14 and 39% vs 19% in
// Fig. 12), because every loss costs the public client's timers.
//
// With the public client's pool of 256 packets (the default) SwitchML
// loses nothing here and is the fastest of all (observed AJCT 0.33-0.45
// ms, seeds 1-6: no GACKs, no congestion window, and 6 x 256 packets of
// 310 B fit the buffers where the pools converge); the test only requires
// its jobs to finish with the books exact, and logs the AJCTs.
func TestINALeafSpineOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 30 small leaf-spine simulations (~25 s)")
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
	if mp, ms := median(ajct["pa-atp"]), median(ajct["strawasyn"]); !(mp < 0.95*ms) {
		t.Errorf("median AJCT pa-atp %.3f ms not 5%% below strawasyn's %.3f ms", mp, ms)
	}
	wins, asyncWins := 0, 0
	for i := range ajct["pa-atp"] {
		if ajct["pa-atp"][i] < ajct["strawasyn"][i] {
			wins++
		}
		if ajct["strawasyn"][i] < ajct["atp"][i] {
			asyncWins++
		}
	}
	if asyncWins < orderSeeds-1 {
		t.Errorf("strawasyn below atp in only %d of %d seeds", asyncWins, orderSeeds)
	}
	if ms, ma := median(ajct["strawasyn"]), median(ajct["atp"]); !(1.1*ms < ma) {
		t.Errorf("median AJCT strawasyn %.3f ms not 10%% below atp's %.3f ms", ms, ma)
	}
	if 2*wins <= orderSeeds {
		t.Errorf("pa-atp below strawasyn in only %d of %d seeds", wins, orderSeeds)
	}

	// SwitchML with a BDP pool runs until twice ATP's slowest run (its
	// slot timeouts make whole runs long); a job unfinished by then has an
	// AJCT above a third of the horizon, which bounds the mean from below.
	slowest := 0.0
	for _, a := range ajct["atp"] {
		slowest = math.Max(slowest, a)
	}
	horizon := 2 * 3 * slowest // 3 iterations
	var bounds []float64
	slower := 0
	for i, m := range runOrder(t, "protocol=switchml", "switchml_pool=0", fmt.Sprintf("max_ms=%g", horizon)) {
		// A job unfinished at the horizon has an AJCT above horizon/3.
		done := m["jobs_done"]
		lb := (2 - done) * horizon / 3
		if done > 0 {
			lb += done * m["ajct_done_ms"]
		}
		lb /= 2
		t.Logf("switchml (BDP pool) seed %d: %v jobs done by %.2f ms, AJCT above %.3f ms", i+1, done, horizon, lb)
		bounds = append(bounds, lb)
		if lb > ajct["atp"][i] {
			slower++
		}
	}
	if slower < orderSeeds-1 || !(median(bounds) > median(ajct["atp"])) {
		t.Errorf("switchml (BDP pool) above atp in %d of %d seeds, median bound %.3f ms against atp's %.3f; want at least %d and above",
			slower, orderSeeds, median(bounds), median(ajct["atp"]), orderSeeds-1)
	}
	var client []float64
	for i, m := range runOrder(t, "protocol=switchml", fmt.Sprintf("max_ms=%g", 100*horizon)) {
		if m["jobs_done"] != 2 {
			t.Fatalf("switchml (client pool) seed %d: %v jobs done", i+1, m["jobs_done"])
		}
		client = append(client, m["ajct_ms"])
	}
	t.Logf("switchml (client pool) AJCT %.3f ms", client)
}

// median is the median of xs (the mean of the middle two for an even count).
func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
