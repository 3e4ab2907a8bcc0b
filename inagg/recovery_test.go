package inagg

import (
	"testing"

	"syncsim/netsim"
)

// deliverResult hands worker w the result of sequence seq, as the PS
// would send it (the exact sum, every worker's bit).
func deliverResult(s *star, w *worker, seq int64) {
	p := s.net.Sim.Packets().Get()
	p.Kind, p.Seq = KindResult, seq
	p.Ext[extJob] = int64(w.j.cfg.ID)
	p.Ext[extValue] = ExpectedSum(len(w.j.workers), seq)
	p.Ext[extBitmap] = int64(fullMask(len(w.j.workers)))
	w.Receive(p)
}

// TestGapThreshold: the results of sequences 1, 2, 3 arrive while 0's is
// missing. With the default threshold of 1 (Sec. III-B1, "once a sequence
// number gap in AACK is detected"; the ATP client's first out-of-order
// result) sequence 0 is fast-retransmitted at the result of 1; with 3
// (TCP's duplicate ACKs, the earlier model) only at the result of 3. It
// is resent once either way.
func TestGapThreshold(t *testing.T) {
	for _, c := range []struct {
		gap  int
		want []uint64 // fast retransmissions after the results of 1, 2, 3
	}{{1, []uint64{1, 1, 1}}, {3, []uint64{0, 0, 1}}} {
		s := newStar(t, starCfg{workers: 2})
		j := idleJob(t, s, 0, StrawAsyn)
		j.params.GapThreshold = c.gap
		w := j.workers[0]
		w.sndNext, w.lastAACK, w.lastGACK, w.iterEnd = 6, -1, -1, 1<<20
		for q := range 6 {
			w.flags[q] = fSent
		}
		for i, seq := range []int64{1, 2, 3} {
			deliverResult(s, w, seq)
			if w.stats.FastRetx != c.want[i] {
				t.Fatalf("threshold %d: after the result of %d, %d fast retransmissions; want %d", c.gap, seq, w.stats.FastRetx, c.want[i])
			}
		}
	}
}

// TestLossLeavesWindow: under the default (Params.LossCut false) a fast
// retransmission and a timeout leave StrawAsyn's and PA-ATP's CWD at 40,
// as the public ATP client leaves its window; with LossCut the fast
// retransmission halves it to 20 and the timeout sets it to 1 with
// ssthresh 10 (half of 20), TCP's loss response. BytePS always cuts.
func TestLossLeavesWindow(t *testing.T) {
	for _, c := range []struct {
		proto                   Protocol
		cut                     bool
		afterLoss, afterTimeout float64
	}{
		{StrawAsyn, false, 40, 40}, {PAATP, false, 40, 40},
		{StrawAsyn, true, 20, 1}, {PAATP, true, 20, 1}, {BytePS, false, 20, 1},
	} {
		s := newStar(t, starCfg{workers: 2})
		j := idleJob(t, s, 0, c.proto)
		j.params.LossCut = c.cut
		w := j.workers[0]
		ac := w.ctl.(*asyncCtl)
		ac.lossCut = c.cut || c.proto == BytePS
		ac.cwd, ac.cutEnd, w.lastGACK = 40, 0, 0
		ac.onLoss(w)
		if ac.cwd != c.afterLoss {
			t.Errorf("%s loss_cut %v: CWD %v after a fast retransmission, want %v", c.proto, c.cut, ac.cwd, c.afterLoss)
		}
		ac.onTimeout(w)
		if ac.cwd != c.afterTimeout || (c.afterTimeout == 1 && ac.ssthresh != 10) {
			t.Errorf("%s loss_cut %v: CWD %v, ssthresh %v after a timeout, want %v", c.proto, c.cut, ac.cwd, ac.ssthresh, c.afterTimeout)
		}
	}
}

// TestInitialBetaSteady: by default beta starts at its steady state for the
// job's initial AWD, sqrt(2 / AWD_0) (Sec. III-C): 0.1 for AWD 200, so the
// first AECN mark cuts AWD by 5 percent (200 -> 190), not by half as the
// earlier beta of 1 did (200 -> 100).
func TestInitialBetaSteady(t *testing.T) {
	for _, c := range []struct {
		beta, want float64
	}{{InitBetaSteady, 190}, {1, 100}} {
		p := DefaultParams()
		p.InitBeta = c.beta
		a := newAWDCtl(p, 200)
		if c.beta == InitBetaSteady && !near(a.beta, 0.1, 1e-15) {
			t.Fatalf("initial beta %v for AWD 200, want sqrt(2/200) = 0.1", a.beta)
		}
		a.srtt = netsim.Microsecond
		a.onAACK(0, true, 0, 0)
		if !near(a.awd, c.want, 1e-9) {
			t.Errorf("init beta %v: AWD %v after the first mark, want %v", c.beta, a.awd, c.want)
		}
	}
}

// TestResendFlush: workers 1 and 2 of a 4-worker job have contributed to
// sequence 0 at the switch, and worker 0 resends it. Separate (the
// default, PA-ATP Sec. III-B1): the switch emits the partial aggregate
// {1, 2} as a packet of its own and the resend goes on, worker 0's value
// alone. Merged (ATP's switch): the resend itself carries {0, 1, 2} and
// the sum of the three values. Either way the aggregator is freed.
func TestResendFlush(t *testing.T) {
	for _, mode := range []FlushMode{FlushSeparate, FlushMerged} {
		cfg := DefaultAggregatorConfig()
		cfg.Flush = mode
		s := newStar(t, starCfg{workers: 4, agg: cfg})
		h := handSwitch{t: t, s: s}
		j := idleJob(t, s, 0, PAATP)
		h.gradient(j, 1, 0)
		h.gradient(j, 2, 0)
		p := j.workers[0].packetToPS(KindGradient, 0)
		p.Payload = j.payload
		p.Size += p.Payload
		p.Flags |= netsim.FlagRetx
		p.Ext[extValue] = GradientValue(0, 0)
		p.Ext[extBitmap] = 1
		emitted := s.agg.Stats.Flushes
		s.agg.Ingress(s.sw, p, nil)
		if s.agg.Memory().Used() != 0 {
			t.Fatalf("%v: %d aggregators held after the resend", mode, s.agg.Memory().Used())
		}
		want12 := GradientValue(1, 0) + GradientValue(2, 0)
		switch mode {
		case FlushSeparate:
			if p.Kind != KindGradient || p.Ext[extBitmap] != 1 || p.Ext[extValue] != GradientValue(0, 0) {
				t.Errorf("separate: the resend became kind %d bits %b value %d; want itself", p.Kind, p.Ext[extBitmap], p.Ext[extValue])
			}
		case FlushMerged:
			if p.Kind != KindPartial || p.Ext[extBitmap] != 0b111 || p.Ext[extValue] != want12+GradientValue(0, 0) ||
				p.Ext[extWorker] != 0 || p.Flags&netsim.FlagRetx == 0 {
				t.Errorf("merged: kind %d bits %b value %d worker %d; want a partial {0,1,2} of %d from worker 0",
					p.Kind, p.Ext[extBitmap], p.Ext[extValue], p.Ext[extWorker], want12+GradientValue(0, 0))
			}
		}
		if s.agg.Stats.Flushes != emitted+1 {
			t.Errorf("%v: %d flushes, want 1", mode, s.agg.Stats.Flushes-emitted)
		}
		s.net.Sim.Packets().Put(p)
		s.net.Sim.Run(netsim.Millisecond)
	}
}

// TestRTOJitter: with Params.RTOJitter 0 every worker of a job arms its
// timer RTO ahead; with 0.25 each arming lands in [RTO, 1.25 RTO), the
// workers' draws differ, and the same seed draws the same.
func TestRTOJitter(t *testing.T) {
	deadlines := func(jitter float64) []netsim.Time {
		s := newStar(t, starCfg{workers: 4})
		j := idleJob(t, s, 0, PAATP)
		j.params.RTOJitter = jitter
		var out []netsim.Time
		for range 3 {
			for _, w := range j.workers {
				w.armRTO()
				out = append(out, w.rto.Deadline())
			}
		}
		return out
	}
	rto := DefaultParams().RTO
	for _, d := range deadlines(0) {
		if d != rto {
			t.Fatalf("no jitter: deadline %v, want %v", d, rto)
		}
	}
	a, b := deadlines(0.25), deadlines(0.25)
	seen := map[netsim.Time]bool{}
	for i, d := range a {
		if d < rto || d >= rto+rto/4 {
			t.Fatalf("jitter 0.25: deadline %v outside [%v, %v)", d, rto, rto+rto/4)
		}
		if d != b[i] {
			t.Fatalf("same seed, arming %d: %v then %v", i, d, b[i])
		}
		seen[d] = true
	}
	if len(seen) < len(a)-1 {
		t.Fatalf("jitter 0.25: only %d distinct deadlines of %d", len(seen), len(a))
	}
}

// TestResultMarkCuts: a result marked CE on its way back (Params.ResultECN)
// cuts a PA-ATP worker's CWD as a marked GACK does, once per window: with
// alpha 1 the window of 40 halves to 20, and a second marked result in the
// same window leaves it. Without ResultECN the PS sends results that no
// queue marks (not ECN-capable).
func TestResultMarkCuts(t *testing.T) {
	s := newStar(t, starCfg{workers: 2})
	j := idleJob(t, s, 0, PAATP)
	w := j.workers[0]
	c := w.ctl.(*asyncCtl)
	w.sndNext, w.lastAACK, w.lastGACK, w.iterEnd = 6, -1, -1, 1<<20
	for q := range 6 {
		w.flags[q] = fSent | fGACK
	}
	c.cwd, c.alpha, c.cutEnd = 40, 1, 0
	mark := func(seq int64) {
		p := s.net.Sim.Packets().Get()
		p.Kind, p.Seq, p.Flags = KindResult, seq, netsim.FlagCE
		p.Ext[extJob] = 0
		p.Ext[extValue] = ExpectedSum(2, seq)
		p.Ext[extBitmap] = 3
		w.Receive(p)
	}
	mark(0)
	if c.cwd != 20 || c.cuts != 1 {
		t.Fatalf("after a marked result: CWD %v, %d cuts; want 20, 1", c.cwd, c.cuts)
	}
	mark(1)
	if c.cwd != 20 || c.cuts != 1 {
		t.Fatalf("a second marked result in the window: CWD %v, %d cuts; want 20, 1", c.cwd, c.cuts)
	}
	for _, on := range []bool{true, false} {
		j.params.ResultECN = on
		q := s.net.Sim.Packets().Get()
		j.ps.fillResult(q, &psEntry{seq: 3, done: true}, 0)
		if got := q.Flags&netsim.FlagECT != 0; got != on {
			t.Errorf("ResultECN %v: result ECN-capable %v", on, got)
		}
		s.net.Sim.Packets().Put(q)
	}
}
