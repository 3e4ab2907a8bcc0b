package ina

import "testing"

// gapSets is a small idle fabric on which a PA-ATP worker loses a run of
// multicast results: 4 x 4 x 8 hosts, 2 jobs of 12 workers, no
// background, 2 percent of the models; seed 1.
var gapSets = []string{"spines=4", "leaves=4", "hosts_per_leaf=8", "workers=12", "jobs=2", "iterations=2",
	"skip_iters=1", "load=0", "gradient_scale=0.02", "protocol=pa-atp", "max_ms=200"}

// TestRecoverGapsIdle: with an expiry recovering only the front among the
// GACKed sequences that lack a result (rto_gaps=front), a worker that lost
// results scattered behind the highest one it holds gets them back one
// per expiry, its window pinned by AWD, and its job's other workers wait
// for its new gradients: on gapSets job 1 crept from 20 to 180 ms at
// under one percent of its two iterations per 10 ms, with a hundred
// thousand GACKed sequences in flight and no drop after 20 ms (its job
// series; in the same crawl on the default fabric the worker lacked 1,130
// results at once, docs/ina-recovery.md). Recovering up to a BDP of them
// at each expiry (rto_gaps=batch), or one at the expiry and two more per
// new result (paced), ends the crawl: the slowest job finishes in well
// under two thirds of the time, with under half the expiries and about as
// many drops (front 180.2 ms, 1,147 expiries, 95,509 drops; batch 12.1,
// 203, 85,089; paced 5.80, 259, 91,882).
func TestRecoverGapsIdle(t *testing.T) {
	front := runINA(t, "ina-leafspine", 1, with(gapSets, "rto_gaps=front")...)
	t.Logf("front: slowest job %.3f ms, %v drops, %v timeouts", front["jct_max_ms"], front["drops"], front["worker_timeouts"])
	for _, rule := range []string{"batch", "paced"} {
		got := runINA(t, "ina-leafspine", 1, with(gapSets, "rto_gaps="+rule)...)
		t.Logf("%s: slowest job %.3f ms, %v drops, %v timeouts", rule, got["jct_max_ms"], got["drops"], got["worker_timeouts"])
		if front["jobs_done"] != 2 || got["jobs_done"] != 2 {
			t.Fatalf("jobs done: %v under front, %v under %s; want 2 and 2", front["jobs_done"], got["jobs_done"], rule)
		}
		if !(got["jct_max_ms"] < 0.6*front["jct_max_ms"]) {
			t.Errorf("slowest job: %.3f ms under %s against %.3f under front; want under 0.6 of it", got["jct_max_ms"], rule, front["jct_max_ms"])
		}
		if !(got["worker_timeouts"] < front["worker_timeouts"]/2) || got["drops"] > 1.1*front["drops"] {
			t.Errorf("%s: %v timeouts, %v drops; front: %v, %v; want under half the timeouts and no more drops (10%% slack)",
				rule, got["worker_timeouts"], got["drops"], front["worker_timeouts"], front["drops"])
		}
	}
}
