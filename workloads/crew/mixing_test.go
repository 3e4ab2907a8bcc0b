package crew

import (
	"math"
	"slices"
	"testing"

	"syncsim/netsim"
	"syncsim/workloads/training"
)

// TestMixingHandWorked: 8 workers, the same two sets of 4 repeated meet
// in 2 x 6 = 12 of the 28 pairs (3/7, (p-1)/(n-1)) as 2 distinct sets;
// one set that takes two from each adds the 4 cross pairs 0-4, 0-5, 1-4,
// 1-5 (16/28) and a third set; a formation before the window counts for
// nothing.
func TestMixingHandWorked(t *testing.T) {
	s := netsim.Second
	m := newMixing(8, 10*s)
	m.add(5*s, []int{0, 4, 1, 5}) // before the window
	for k := 0; k < 3; k++ {
		m.add(netsim.Time(10+k)*s, []int{3, 1, 2, 0})
		m.add(netsim.Time(10+k)*s, []int{4, 5, 7, 6})
	}
	if got := m.pairsFrac(); math.Abs(got-12.0/28) > 1e-15 || len(m.groups) != 2 {
		t.Fatalf("locked: pairs %v (want 12/28), distinct %d (want 2)", got, len(m.groups))
	}
	m.add(20*s, []int{5, 0, 4, 1})
	if got := m.pairsFrac(); math.Abs(got-16.0/28) > 1e-15 || len(m.groups) != 3 {
		t.Fatalf("one mixed set: pairs %v (want 16/28), distinct %d (want 3)", got, len(m.groups))
	}
	if !math.IsNaN(newMixing(8, 0).pairsFrac()) || !math.IsNaN(newMixing(1, 0).pairsFrac()) {
		t.Fatal("no formation, or a single worker, should give NaN")
	}
}

// formations runs cfg on a 4-worker N2 network and returns every
// partial reduce the controller formed.
func formations(t *testing.T, cfg Config) []Formation {
	t.Helper()
	var got []Formation
	cfg.OnFormed = func(f Formation) { got = append(got, f) }
	runCluster(t, testNet(t, 1, 4, 10*netsim.Millisecond, Flow, FL), cfg)
	return got
}

// TestGroupingFirstPReady pins the controller's rule (CREW Sec. III: a
// queue of ready workers, popped into P "once the number of workers in
// the queue reaches p"; selective reduce Sec. II-C likewise), worked by
// hand. Compute times of 1 s scaled by 0.4, 0.1, 0.3, 0.2 make workers 0-3
// ready at 0.4, 0.1, 0.3 and 0.2 s; with p = 2 the controller forms {1, 3}
// at 0.2 s (worker 3 completes the queue) and {2, 0} at 0.4 s: readiness
// order, not worker index. A controller 50 ms away hears each report 50
// ms later and forms the same sets 50 ms later. The run ends at 0.45 s,
// before any partial reduce of 18 MB over N2 (at most 250 Mbit/s a
// connection) is done, so these are the only formations.
func TestGroupingFirstPReady(t *testing.T) {
	for _, ctl := range []netsim.Time{0, 50 * netsim.Millisecond} {
		cfg := testConfig(CREW, 2)
		cfg.Compute, cfg.ComputeMult = training.Constant{T: 1}, []float64{0.4, 0.1, 0.3, 0.2}
		cfg.Control, cfg.Duration = ctl, 450*netsim.Millisecond+ctl
		got := formations(t, cfg)
		want := []struct {
			at      float64
			members []int
		}{{0.2, []int{1, 3}}, {0.4, []int{2, 0}}}
		if len(got) != len(want) {
			t.Fatalf("control %v: %d formations, want %d: %+v", ctl, len(got), len(want), got)
		}
		for i, w := range want {
			f := got[i]
			if f.Pid != i || math.Abs(f.At.Seconds()-w.at-ctl.Seconds()) > 1e-9 || !slices.Equal(f.Members, w.members) {
				t.Errorf("control %v: formation %d is pid %d at %v of %v, want pid %d at %g s + control of %v",
					ctl, i, f.Pid, f.At, f.Members, i, w.at, w.members)
			}
			for j, m := range f.Members {
				if r := f.Ready[j].Seconds(); math.Abs(r-cfg.ComputeMult[m]) > 1e-9 || f.Rounds[j] != 0 {
					t.Errorf("control %v: worker %d ready at %g s with %d rounds, want %g and 0", ctl, m, r, f.Rounds[j], cfg.ComputeMult[m])
				}
			}
		}
	}
}

// TestGroupingTie: workers 1 and 2 ready at the same instant (0.2 s),
// worker 0 before (0.1 s) and 3 after (0.3 s), p = 2. Same-instant events
// have no order in the model, so either of the tied workers may complete
// the first P; what must hold is that each tied worker is in exactly one
// of the two sets, the first formed at 0.2 s with worker 0 and the second
// at 0.3 s with worker 3.
func TestGroupingTie(t *testing.T) {
	cfg := testConfig(CREW, 2)
	cfg.Compute, cfg.ComputeMult = training.Constant{T: 1}, []float64{0.1, 0.2, 0.2, 0.3}
	cfg.Duration = 350 * netsim.Millisecond
	got := formations(t, cfg)
	if len(got) != 2 {
		t.Fatalf("%d formations, want 2: %+v", len(got), got)
	}
	a, b := got[0], got[1]
	tied := []int{a.Members[1], b.Members[0]}
	slices.Sort(tied)
	if a.Members[0] != 0 || b.Members[1] != 3 || !slices.Equal(tied, []int{1, 2}) ||
		math.Abs(a.At.Seconds()-0.2) > 1e-9 || math.Abs(b.At.Seconds()-0.3) > 1e-9 {
		t.Fatalf("formed %v at %v and %v at %v, want {0, 1 or 2} at 0.2 s and {the other, 3} at 0.3 s", a.Members, a.At, b.Members, b.At)
	}
}
