package inagg

import (
	"fmt"
	"testing"

	"syncsim/netsim"
)

// aackAt delivers an AACK for sequence 0 (marked AECN or not) to worker
// w's controller at time at of w's simulation.
func aackAt(w *worker, at netsim.Time, aecn bool) { aackSeqAt(w, at, aecn, 0) }

// aackSeqAt delivers an AACK for sequence seq (marked AECN or not) to
// worker w's controller at time at of w's simulation.
func aackSeqAt(w *worker, at netsim.Time, aecn bool, seq int64) {
	w.j.net.Sim.At(at, func() {
		p := &netsim.Packet{Kind: KindResult, Seq: seq}
		if aecn {
			p.Flags = netsim.FlagAECN
		}
		w.ctl.onResult(w, 0, p)
	})
}

// TestAWDControllerHandWorked drives PA-ATP's asynchronous degree control
// (Sec. III-B3) with beta != alpha: alpha 0.9 (the ECN level, which Eq. 2
// must not use), beta 0.5, w = 0.125, AWD 100, an RTT of 10 us. AACKs:
//
//	t=0   quiet   the first round starts
//	t=10  quiet   one round ends without AECN: beta = 0.875 x 0.5 = 0.4375,
//	              AWD + 1 = 101
//	t=15  AECN    Eq. 2: AWD = 101 x (1 - 0.4375/2) = 78.90625
//	t=20  AECN    within an RTT of the cut: no second cut; the round ends
//	              with 2 of 2 AACKs marked: beta = 0.875 x 0.4375 + 0.125
//	              = 0.5078125, AWD unchanged
//	t=30  quiet   a quiet round: beta = 0.875 x 0.5078125 = 0.4443359375,
//	              AWD 79.90625
//	t=55  quiet   2.5 RTTs since the last round, one round of AACKs
//	              ended: +1, AWD 80.90625 (with AWDRoundsElapsed, the
//	              earlier model, +2, AWD 81.90625); beta x 0.875 =
//	              0.388793945
//	t=57  AECN    Eq. 2 with that beta: 80.90625 x (1 - 0.388793945/2)
//
// With alpha in Eq. 2 the cut at t=15 would leave 101 x 0.55 = 55.55.
// Every AACK is for sequence 0: the default rule, one cut per RTT, lets
// t=57 cut; Params.AWDCutPerWindow's is TestAWDCutOncePerWindow's.
func TestAWDControllerHandWorked(t *testing.T) {
	for _, elapsed := range []bool{false, true} {
		t.Run(fmt.Sprintf("elapsed=%v", elapsed), func(t *testing.T) { awdHandWorked(t, elapsed) })
	}
}

func awdHandWorked(t *testing.T, elapsed bool) {
	const us = netsim.Microsecond
	w := fakeATPWorker()
	p := DefaultParams()
	p.InitBeta, p.AWDRoundsElapsed = 0.5, elapsed
	c := newPAATPCtl(p, 1000, INAHeaderBytes+INAPayloadBytes, nil, 100)
	c.alpha = 0.9
	c.awd.srtt = 10 * us
	w.ctl = c
	type step struct {
		at        netsim.Time
		aecn      bool
		awd, beta float64
		cuts, inc uint64
	}
	b3 := 0.875 * 0.5078125
	b4 := 0.875 * b3 // one round with AACKs ended (beta moves once), 2 RTTs passed
	at55, inc55 := 80.90625, uint64(3)
	if elapsed {
		at55, inc55 = 81.90625, 4
	}
	steps := []step{
		{0, false, 100, 0.5, 0, 0},
		{10 * us, false, 101, 0.4375, 0, 1},
		{15 * us, true, 78.90625, 0.4375, 1, 1},
		{20 * us, true, 78.90625, 0.5078125, 1, 1},
		{30 * us, false, 79.90625, b3, 1, 2},
		{55 * us, false, at55, b4, 1, inc55},
		{57 * us, true, at55 * (1 - b4/2), b4, 2, inc55},
	}
	for _, s := range steps {
		aackAt(w, s.at, s.aecn)
	}
	for i, s := range steps {
		w.j.net.Sim.Run(s.at)
		a := c.awd
		if !near(a.awd, s.awd, 1e-12) || !near(a.beta, s.beta, 1e-12) || a.cuts != s.cuts || a.increments != s.inc {
			t.Fatalf("after AACK %d at %v: AWD %v beta %v cuts %d increments %d; want %v %v %d %d",
				i, s.at, a.awd, a.beta, a.cuts, a.increments, s.awd, s.beta, s.cuts, s.inc)
		}
	}
	if c.alpha != 0.9 {
		t.Fatalf("the AWD control moved alpha to %v", c.alpha)
	}
}

// TestAWDScope: two workers of one job receive the same AACKs (the switch
// multicasts each, with its AECN bit). With AWDJob they share the job's
// AWD: worker 1's copy of an AECN-marked AACK arriving within the RTT of
// worker 0's cut does not cut again, and both apply the same AWD. With
// AWDWorker each cuts its own: 100 -> 50 at each (beta 1 before the first
// round, as Params.InitBeta sets it here).
func TestAWDScope(t *testing.T) {
	const us = netsim.Microsecond
	for _, tc := range []struct {
		scope AWDScope
		want  [2]float64
		cuts  uint64
	}{{AWDJob, [2]float64{50, 50}, 1}, {AWDWorker, [2]float64{50, 50}, 2}} {
		t.Run(tc.scope.String(), func(t *testing.T) {
			p := DefaultParams()
			p.AWDScope, p.InitBeta = tc.scope, 1
			j := &Job{params: p, net: netsim.NewNetwork(netsim.New(1))}
			if tc.scope == AWDJob {
				j.awd = newAWDCtl(p, 100)
			}
			var ws [2]*worker
			for i := range ws {
				ws[i] = &worker{j: j, idx: i, host: j.net.AddHost(fmt.Sprint("w", i)), lastAACK: -1}
				c := newPAATPCtl(p, 1000, INAHeaderBytes+INAPayloadBytes, j.awd, 100)
				c.awd.srtt = 10 * us
				ws[i].ctl = c
				j.workers = append(j.workers, ws[i])
			}
			aackAt(ws[0], 1*us, true)
			aackAt(ws[1], 2*us, true)
			j.net.Sim.Run(5 * us)
			var got [2]float64
			for i := range ws {
				got[i] = j.Window(i).AWD
			}
			if got != tc.want || j.AWDCuts() != tc.cuts {
				t.Fatalf("AWD %v after the shared mark, %d cuts; want %v, %d", got, j.AWDCuts(), tc.want, tc.cuts)
			}
			// A second mark a round later (11 us after the first cut at
			// t=1), on an AACK for a sequence sent after the cut (none
			// had been sent then: the cut's window ends at sequence 0,
			// the switch's s_max before any GACK): with AWDJob worker 1's copy cuts the job's AWD with
			// beta still 1 (50 -> 25) and worker 0's copy, 1 us later,
			// does not; with AWDWorker both copies cut, each its own.
			aackSeqAt(ws[1], 12*us, true, 5)
			aackSeqAt(ws[0], 13*us, true, 5)
			j.net.Sim.Run(20 * us)
			if g := [2]float64{j.Window(0).AWD, j.Window(1).AWD}; g != [2]float64{25, 25} || j.AWDCuts() != 2*tc.cuts {
				t.Fatalf("AWD %v after the second mark, %d cuts; want [25 25], %d", g, j.AWDCuts(), 2*tc.cuts)
			}
		})
	}
}

// TestAWDCutOncePerWindow: with Params.AWDCutPerWindow Eq. 2 cuts AWD at
// most once per window of AACKs: a second mark is ignored until an AACK comes for a
// sequence sent after the cut. Worked by hand, beta 0.5, w = 0.125, AWD
// 100, an RTT of 10 us, the worker having sent sequences 0-99:
//
//	t=0   AECN seq 0    the first cut: AWD = 100 x (1 - 0.5/2) = 75; the
//	                    window ends at sequence 99; the round starts
//	t=15  AECN seq 50   a round trip later, but seq 50 was sent before the
//	                    cut: no cut. The round ends, 2 of 2 marked: beta =
//	                    0.875 x 0.5 + 0.125 = 0.5625, no +1
//	(the worker sends sequences 100-199)
//	t=30  AECN seq 100  sent after the cut: AWD = 75 x (1 - 0.5625/2) =
//	                    53.90625, the window now ends at 199; beta =
//	                    0.875 x 0.5625 + 0.125 = 0.6171875
//	t=45  AECN seq 150  inside that window: no cut
//
// Once per RTT (the default) t=15 cuts too,
// with beta 0.5 (75 -> 56.25), t=30 with 0.5625 (40.4296875) and t=45 with
// 0.6171875 (27.953...): four cuts where the window rule makes two.
func TestAWDCutOncePerWindow(t *testing.T) {
	const us = netsim.Microsecond
	b2 := 0.875*0.5625 + 0.125
	for _, perRTT := range []bool{false, true} {
		want, cuts := 75*(1-0.5625/2), uint64(2)
		if perRTT {
			want, cuts = 75*0.75*(1-0.5625/2)*(1-b2/2), 4
		}
		t.Run(fmt.Sprintf("perRTT=%v", perRTT), func(t *testing.T) {
			w := fakeATPWorker()
			w.sndNext = 100
			p := DefaultParams()
			p.InitBeta, p.AWDCutPerWindow = 0.5, !perRTT
			c := newPAATPCtl(p, 1000, INAHeaderBytes+INAPayloadBytes, nil, 100)
			c.awd.srtt = 10 * us
			w.ctl = c
			aackSeqAt(w, 0, true, 0)
			aackSeqAt(w, 15*us, true, 50)
			w.j.net.Sim.At(20*us, func() { w.sndNext = 200 })
			aackSeqAt(w, 30*us, true, 100)
			aackSeqAt(w, 45*us, true, 150)
			w.j.net.Sim.Run(16 * us)
			if !perRTT && c.awd.awd != 75 {
				t.Fatalf("AWD %v after a mark inside the first cut's window; want 75", c.awd.awd)
			}
			w.j.net.Sim.Run(50 * us)
			if !near(c.awd.awd, want, 1e-12) || c.awd.cuts != cuts || !near(c.awd.beta, 0.875*b2+0.125, 1e-12) {
				t.Fatalf("AWD %v, %d cuts, beta %v; want %v, %d cuts, beta %v", c.awd.awd, c.awd.cuts, c.awd.beta, want, cuts, 0.875*b2+0.125)
			}
		})
	}
}

// TestAWDBoundGACKsKeepTheTimer: a GACK that moves last_GACK restarts the
// retransmission timer and clears the backoff, except while AWD holds the
// worker back (its sending is then pinned to last_AACK). Worked by hand: a
// timer armed at t = 0 for 200 us, a GACK for sequence 0 at 100 us: free,
// the timer restarts to 300 us; AWD-bound, it stays at 200 us and the
// backoff stays 2.
func TestAWDBoundGACKsKeepTheTimer(t *testing.T) {
	const us = netsim.Microsecond
	for _, bound := range []bool{false, true} {
		s := newStar(t, starCfg{workers: 2})
		j := idleJob(t, s, 0, PAATP)
		j.params.RTOJitter = 0 // the timer's deadline exactly
		w := j.workers[0]
		w.sndNext = 5
		for q := range 5 {
			w.flags[q] = fSent
		}
		w.awdBound, w.backoff = bound, 2
		w.rto.SetAfter(200 * us)
		s.net.Sim.At(100*us, func() {
			p := s.net.Sim.Packets().Get()
			p.Kind, p.Seq = KindGACK, 0
			p.Ext[extJob] = 0
			w.Receive(p)
		})
		s.net.Sim.Run(150 * us)
		want, backoff := 300*us, uint(0)
		if bound {
			want, backoff = 200*us, 2
		}
		if w.lastGACK != 0 || w.rto.Deadline() != want || w.backoff != backoff {
			t.Fatalf("AWD-bound %v: last_GACK %d, timer %v, backoff %d; want 0, %v, %d", bound, w.lastGACK, w.rto.Deadline(), w.backoff, want, backoff)
		}
	}
}

// TestTimeoutRecoversGACKedFront: under the default recovery, with the
// earlier pull (Params.Pull), a worker whose front sequence was
// GACKed but whose result never came asks for that result at every
// expiry, even while later sequences are still unGACKed (as they nearly
// always are while AWD lets one more out per round trip). Worked by hand:
// sequences 0-4 sent, 0 GACKed without a result, 1-4 in flight. The first
// expiry resends 1-4 (unGACKed) and pulls 0; the second (backoff 1)
// resends 1-4 and resends 0. Without the front's recovery both expiries
// resend only 1-4 and sequence 0 is never asked for again.
func TestTimeoutRecoversGACKedFront(t *testing.T) {
	s := newStar(t, starCfg{workers: 2})
	j := idleJob(t, s, 0, PAATP)
	j.params.Pull = true
	w := gackedFront(t, j)
	w.timeout()
	if st := w.stats; st.Pulls != 1 || st.Retransmits != 4 {
		t.Fatalf("first expiry: %d pulls, %d resends; want 1 (sequence 0), 4 (1-4)", st.Pulls, st.Retransmits)
	}
	w.timeout()
	if st := w.stats; st.Pulls != 1 || st.Retransmits != 9 {
		t.Fatalf("second expiry: %d pulls, %d resends; want 1, 9 (1-4 again and 0)", st.Pulls, st.Retransmits)
	}
}
