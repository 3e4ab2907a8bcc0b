package inagg

import (
	"testing"

	"syncsim/netsim"
)

// gack hands controller c of worker w a GACK for w's next sequence, marked
// CE or not, as worker.onGACK would after last_GACK moved.
func gack(c *asyncCtl, w *worker, ce bool) {
	w.lastGACK++
	w.sndNext = max(w.sndNext, w.lastGACK+1)
	p := &netsim.Packet{Kind: KindGACK}
	if ce {
		p.Flags = netsim.FlagECE
	}
	c.onGACK(w, p)
}

// TestCWDIncrease works Sec. III-B2's window rule by hand under both
// increase modes (StrawAsyn's window, so d = alpha), from CWD 10 with
// alpha held at 1 (no round ends): a marked GACK cuts by Eq. 1 with
// d = 1, to 5 (and sets ssthresh); then 5
// unmarked GACKs grow it by one each under PerAck (the paper's "increase
// its window by one", to 10), and by ai / CWD each under PerRTT (ATP's
// 1500 B = 4.84 packets per window), to 5.928. Before any cut PerRTT is
// slow start, +1 per GACK like PerAck. The cap holds either way: 20 GACKs
// more take PerAck to 20, its cap.
func TestCWDIncrease(t *testing.T) {
	ai := atpIncrease(INAHeaderBytes + INAPayloadBytes)
	for _, tc := range []struct {
		mode             IncreaseMode
		slowStart, after float64
	}{
		{PerAck, 13, 10},
		{PerRTT, 13, func() float64 {
			c := 5.0
			for range 5 {
				c += ai / c
			}
			return c
		}()},
	} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			p := DefaultParams()
			p.InitCWD, p.CWDIncrease = 10, tc.mode
			c := newStrawAsynCtl(p, 20, INAHeaderBytes+INAPayloadBytes, false, false, nil, 1000)
			w := fakeATPWorker()
			w.j.workers = []*worker{w}
			c.cwd = 10
			for range 3 {
				gack(c, w, false)
			}
			if c.cwd != tc.slowStart {
				t.Fatalf("3 GACKs before any cut: CWD %v, want %v", c.cwd, tc.slowStart)
			}
			c.cwd, c.alpha, c.alphaEnd = 10, 1, 1<<40
			gack(c, w, true)
			if c.cwd != 5 || c.ssthresh != 5 || c.cuts != 1 {
				t.Fatalf("after a marked GACK: CWD %v ssthresh %v cuts %d, want 5 5 1", c.cwd, c.ssthresh, c.cuts)
			}
			for range 5 {
				gack(c, w, false)
			}
			if !near(c.cwd, tc.after, 1e-12) {
				t.Fatalf("after 5 unmarked GACKs: CWD %v, want %v", c.cwd, tc.after)
			}
			for range 20 {
				gack(c, w, false)
			}
			if c.cwd > 20 || tc.mode == PerAck && c.cwd != 20 {
				t.Fatalf("CWD %v past (or, per GACK, not at) its cap of 20", c.cwd)
			}
		})
	}
}

// TestCWDCapAndInitialAWD: the CWD cap is CWDCapBDP bandwidth-delay
// products of the aggregating switch in the job's packets (BDP 100: 100
// packets at 1, 50 at 0.5; MaxCWD overrides it), and AWD starts at InitAWD
// or, at 0, at AWD* = eta (M + BDP) / N with N the jobs registered at the
// switch when the job starts: 0.9 x (1024 + 100) / 2 = 505.8 for the
// second of two jobs; StrawAsyn+PC holds the same AWD, which its p_max
// uses.
func TestCWDCapAndInitialAWD(t *testing.T) {
	cfg := DefaultAggregatorConfig()
	cfg.Memory, cfg.BDPPackets, cfg.Eta = 1024*AggregatorBytes, 100, 0.9
	for _, tc := range []struct {
		cap, maxCWD, initAWD float64
		wantCap, wantAWD     float64
	}{
		{1, 0, 0, 100, 505.8},
		{0.5, 0, 77, 50, 77},
		{2, 30, 0, 30, 505.8},
	} {
		s := newStar(t, starCfg{workers: 2, agg: cfg})
		p := DefaultParams()
		p.CWDCapBDP, p.MaxCWD, p.InitAWD = tc.cap, tc.maxCWD, tc.initAWD
		a := s.job(t, JobConfig{ID: 0, Protocol: PAATP, Gradient: netsim.Megabyte, Iterations: 1, Params: &p, Start: netsim.Microsecond})
		b := s.job(t, JobConfig{ID: 1, Protocol: StrawAsynPC, Gradient: netsim.Megabyte, Iterations: 1, Params: &p, Start: netsim.Microsecond})
		s.net.Sim.Run(netsim.Microsecond)
		for _, j := range []*Job{a, b} {
			c := j.workers[0].ctl.(*asyncCtl)
			if c.maxc != tc.wantCap || !near(c.awd.awd, tc.wantAWD, 1e-12) {
				t.Fatalf("cap %v maxCWD %v init %v: %s's CWD cap %v and AWD %v, want %v and %v",
					tc.cap, tc.maxCWD, tc.initAWD, j.Protocol(), c.maxc, c.awd.awd, tc.wantCap, tc.wantAWD)
			}
		}
	}
}

// TestOverflowCauses works the causes by hand on M = 8 aggregators
// (sequential index, job A at offset 0, job B at offset 4): A's sequences
// 0-3 take aggregators 0-3 and B's sequence 0 aggregator 4; A's 4
// (aggregator 4, held by B's 0) and A's 8 (aggregator 0, held by A's own
// 0) collide while 3 aggregators are free; B's 1-3 fill the memory; A's 13
// (aggregator 5, held) then finds every aggregator in use: exhaustion. A
// second worker's contribution to A's 4 follows it to the PS (no new
// sequence), and a resend of A's 2 goes to the PS and frees aggregator 2.
func TestOverflowCauses(t *testing.T) {
	cfg := DefaultAggregatorConfig()
	cfg.Memory = 8 * AggregatorBytes
	s := newStar(t, starCfg{workers: 2, agg: cfg})
	h := handSwitch{t: t, s: s}
	a, b := idleJob(t, s, 0, PAATP), idleJob(t, s, 1, PAATP)
	for seq := int64(0); seq < 4; seq++ {
		h.gradient(a, 0, seq)
	}
	h.gradient(b, 0, 0)
	if h.gradient(a, 0, 4) || h.gradient(a, 0, 8) {
		t.Fatal("A's sequence 4 or 8 took a held aggregator")
	}
	for seq := int64(1); seq < 4; seq++ {
		h.gradient(b, 0, seq)
	}
	if s.agg.Memory().Used() != 8 {
		t.Fatalf("%d aggregators used, want all 8", s.agg.Memory().Used())
	}
	h.gradient(a, 0, 13)
	h.gradient(a, 1, 4)
	p := a.workers[0].packetToPS(KindGradient, 2)
	p.Flags |= netsim.FlagRetx
	p.Ext[extBitmap] = 1
	s.agg.Ingress(s.sw, p, nil)
	st := a.SwitchStats()
	if st.CollisionSequences != 2 || st.ExhaustionSequences != 1 || st.ResendSequences != 1 || st.OverflowSequences != 4 ||
		st.SelfCollisions != 1 || st.Overflowed != 5 {
		t.Fatalf("A's overflow %+v; want sequences 2 collision, 1 exhaustion, 1 resend (4 in all), 1 self-collision, 5 gradients", st)
	}
	mean, peak, now := a.AggregatorsHeld()
	if peak != 4 || now != 3 || mean != 0 {
		t.Fatalf("A held %v mean, %d most, %d now; want 0 (no time passed), 4, 3 (the resend freed one)", mean, peak, now)
	}
}
