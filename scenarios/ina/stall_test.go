package ina

import "testing"

// stallSets is the small fabric on which StrawAsyn's idle-fabric stall of
// the default leaf-spine (gradient_scale 0.02, load 0: no progress from
// 360 ms to 1.8 s) reproduces: 4 x 4 x 8 hosts, 4 jobs of 6 workers, no
// background, seed 29 (of seeds 1-48, 28 and 29 livelock with ports that
// plan departures; seed 3 did with the eager ports).
var stallSets = []string{"spines=4", "leaves=4", "hosts_per_leaf=8", "workers=6", "jobs=4", "iterations=2",
	"skip_iters=1", "load=0", "gradient_scale=0.02", "protocol=strawasyn"}

// TestStrawAsynIdleStall: with every worker's timer expiring in lockstep
// (rto_jitter=0) and never doubling (rto_backoff=false, the public ATP
// client's fixed timer) and split sequences waiting in the switch for a
// resend (agg_passed=hold, ATP's table) a job of the stall set livelocks:
// its workers' timers, restarted by the same multicast result, expire
// together, their resends reach the PS's port in the same order, and the
// same resend is dropped there at every expiry, so one job is still
// unfinished at 100 ms with the PS's port dropping packet after packet.
// Any one default alone ends it: the timer's spread (Params.RTOJitter),
// the timer doubling on consecutive expiries (Params.RTOBackoff), or a
// split sequence sent on to the PS as soon as no new gradient can
// complete it (AggregatorConfig.ForwardPassed); each finishes every job in
// a few milliseconds and loses under half of what the livelock loses.
func TestStrawAsynIdleStall(t *testing.T) {
	livelock := []string{"rto_jitter=0", "rto_backoff=false", "agg_passed=hold"}
	stuck := runINA(t, "ina-leafspine", 29, with(stallSets, append(livelock, "max_ms=100")...)...)
	if stuck["jobs_done"] != 3 || stuck["drops_ps_port"] < 200000 {
		t.Fatalf("%v: %v of 4 jobs done, %v drops at the PS's port; want the livelock (3, hundreds of thousands)",
			livelock, stuck["jobs_done"], stuck["drops_ps_port"])
	}
	t.Logf("%v: %v jobs done, %v drops at the PS port", livelock, stuck["jobs_done"], stuck["drops_ps_port"])
	for drop := range livelock {
		sets := append(append([]string(nil), livelock[:drop]...), livelock[drop+1:]...)
		m := runINA(t, "ina-leafspine", 29, with(stallSets, append(sets, "max_ms=100")...)...)
		if m["jobs_done"] != 4 || !(m["ajct_ms"] < 10) || !(m["loss_frac"] < stuck["loss_frac"]/2) {
			t.Fatalf("%v: %v of 4 jobs done, AJCT %v ms, loss_frac %v (livelock %v); want every job within 10 ms and under half the loss",
				sets, m["jobs_done"], m["ajct_ms"], m["loss_frac"], stuck["loss_frac"])
		}
		t.Logf("%v: AJCT %.3f ms, loss_frac %.4f", sets, m["ajct_ms"], m["loss_frac"])
	}
}
