package inagg

import (
	"testing"

	"syncsim/netsim"
)

// markQueue sets CE on the gradients of the sequences in seqs as they
// enter the wrapped queue, and records which results pass it with an ECN
// echo.
type markQueue struct {
	netsim.Queue
	seqs    map[int64]bool
	echoed  map[int64]bool
	results map[int64]bool
}

func (q *markQueue) Enqueue(p *netsim.Packet, now netsim.Time) bool {
	switch p.Kind {
	case KindGradient:
		if q.seqs[p.Seq] && p.Flags&netsim.FlagRetx == 0 {
			p.Flags |= netsim.FlagCE
		}
	case KindResult:
		q.results[p.Seq] = true
		if p.Flags&netsim.FlagECE != 0 {
			q.echoed[p.Seq] = true
		}
	}
	return q.Queue.Enqueue(p, now)
}

// ceStar is a star of two workers, worker 1 on a 10 Gbps link so that its
// contribution to every sequence arrives last, where worker w's gradients
// of seqs are marked CE on its NIC, and both workers' downlinks record the
// results they carry.
func ceStar(t *testing.T, w int, seqs ...int64) (*star, [2]*markQueue) {
	t.Helper()
	ac := DefaultAggregatorConfig()
	s := newStar(t, starCfg{workers: 2, slowRate: 10 * netsim.Gbps, agg: ac})
	var qs [2]*markQueue
	for i, h := range s.workers {
		mark := map[int64]bool{}
		if i == w {
			for _, q := range seqs {
				mark[q] = true
			}
		}
		up := &markQueue{Queue: h.NIC().Queue(), seqs: mark, echoed: map[int64]bool{}, results: map[int64]bool{}}
		h.NIC().SetQueue(up)
		pt := s.sw.PortTo(h.ID())
		down := &markQueue{Queue: pt.Queue(), seqs: map[int64]bool{}, echoed: map[int64]bool{}, results: map[int64]bool{}}
		pt.SetQueue(down)
		qs[i] = down
	}
	return s, qs
}

// TestATPResultCarriesAnyContributionsCE: ATP's switch ORs the ECN of the
// contributions it aggregates into the result (in-ATP/ATP
// p4src/includes/common.p4:131-141, ecn_register). One thread of window 8
// over 16 packets; worker 0's gradient of sequence 7 is marked CE and
// worker 1's (slower, the last to arrive) is not. The result of 7 reaches
// both workers with the echo, and 7 closes the thread's first window
// (atpWindow: winEnd = 7), so both halve their window (8 -> 4 packets),
// then grow it by 1500 B at the next window-closing result (11: 4 x 310 +
// 1500 B = 8.8 packets, capped at 8). Keeping only the last contribution's
// CE would leave the result unmarked and the windows whole.
func TestATPResultCarriesAnyContributionsCE(t *testing.T) {
	s, down := ceStar(t, 0, 7)
	p := DefaultParams()
	p.ATPThreads, p.ATPThreadWindow = 1, 8
	j := s.job(t, JobConfig{ID: 0, Protocol: ATP, Gradient: 16 * INAPayloadBytes, Iterations: 1, Params: &p})
	s.net.Sim.Run(netsim.Second)
	checkAll(t, s, j)
	for w := range 2 {
		if !down[w].results[7] || !down[w].echoed[7] || len(down[w].echoed) != 1 {
			t.Fatalf("worker %d: results echoing ECN %v, want exactly sequence 7", w, down[w].echoed)
		}
		c := j.workers[w].ctl.(*atpCtl)
		if c.halvings != 1 || c.increases != 1 || c.th[0].win.wnd != 8 {
			t.Fatalf("worker %d: %d halvings, %d increases, window %d; want 1, 1, 8", w, c.halvings, c.increases, c.th[0].win.wnd)
		}
	}
	// Unmarked, the same run halves nothing: 7 and 15 close windows and
	// both grow (capped at 8).
	s, _ = ceStar(t, 0)
	j = s.job(t, JobConfig{ID: 0, Protocol: ATP, Gradient: 16 * INAPayloadBytes, Iterations: 1, Params: &p})
	s.net.Sim.Run(netsim.Second)
	checkAll(t, s, j)
	if c := j.workers[0].ctl.(*atpCtl); c.halvings != 0 || c.increases != 2 {
		t.Fatalf("unmarked: %d halvings, %d increases; want 0, 2", c.halvings, c.increases)
	}
}

// TestAsyncEchoesEachContributionsCE: under PA-ATP each gradient's CE goes
// back to its own worker (Sec. III-B2: "The CE marked is carried in the
// GACK's header and delivered to the corresponding worker"). Worker 1 (the
// slower) completes every sequence, so by default (no GACK for the
// completing gradient, Sec. IV) its window slides on the results, which
// carry its own CE. Marking worker 0's gradient of 5: worker 0's GACK
// echoes it and worker 0 cuts its window once, the result of 5 is not
// marked and worker 1 does not cut. Marking worker 1's gradient of 5: the
// result of 5 echoes it, worker 1 cuts once and worker 0 (which had its
// GACK) does not.
func TestAsyncEchoesEachContributionsCE(t *testing.T) {
	for _, tc := range []struct {
		marked int
		cuts   [2]uint64
		echo   bool
	}{{0, [2]uint64{1, 0}, false}, {1, [2]uint64{0, 1}, true}} {
		s, down := ceStar(t, tc.marked, 5)
		j := s.job(t, JobConfig{ID: 0, Protocol: PAATP, Gradient: 16 * INAPayloadBytes, Iterations: 1})
		s.net.Sim.Run(netsim.Second)
		checkAll(t, s, j)
		if s.agg.Stats.Collisions != 0 || j.WorkerStats(1).GACKs != 0 || j.WorkerStats(0).GACKs != 16 {
			t.Fatalf("want worker 1 to complete every sequence: %d collisions, GACKs %d and %d",
				s.agg.Stats.Collisions, j.WorkerStats(0).GACKs, j.WorkerStats(1).GACKs)
		}
		cuts := [2]uint64{j.Window(0).CWDCuts, j.Window(1).CWDCuts}
		if cuts != tc.cuts || down[0].echoed[5] != tc.echo || down[1].echoed[5] != tc.echo || len(down[0].echoed) > 1 {
			t.Fatalf("worker %d's gradient marked: cuts %v, results echoed %v / %v; want cuts %v, result 5 echoed %v",
				tc.marked, cuts, down[0].echoed, down[1].echoed, tc.cuts, tc.echo)
		}
	}
}
