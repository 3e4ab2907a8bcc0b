package inagg

import (
	"fmt"
	"slices"
	"testing"

	"syncsim/netsim"
)

// psRecorder stands in for a job's PS endpoint and records what reaches
// it, in order: "p<seq>" for a pull, "r<seq>" for a resent gradient.
type psRecorder struct {
	pool *netsim.PacketPool
	got  []string
}

func (r *psRecorder) Receive(p *netsim.Packet) {
	switch {
	case p.Kind == KindPull:
		r.got = append(r.got, fmt.Sprintf("p%d", p.Seq))
	case p.Kind == KindGradient && p.Flags&netsim.FlagRetx != 0:
		r.got = append(r.got, fmt.Sprintf("r%d", p.Seq))
	}
	r.pool.Put(p)
}

// TestTimeoutFrontFirst: with the earlier pull (Params.Pull)
// a timeout recovers the front
// sequence (last_AACK + 1, GACKed, no result) before the unGACKed ones, as
// the ATP client
// resends from last_ACK + 1 up (Params.FrontLast: after them). Worked by
// hand: sequences 0-4 sent, 0 GACKed without a result, 1-4 in flight. At
// the first expiry the PS receives a pull for 0, then resends of 1-4; at
// the second (backoff 1) resends of 0, 1, 2, 3, 4. With FrontLast: 1-4,
// then the pull of 0; then 1-4 and 0.
func TestTimeoutFrontFirst(t *testing.T) {
	for _, last := range []bool{false, true} {
		s := newStar(t, starCfg{workers: 2})
		j := idleJob(t, s, 0, PAATP)
		j.params.FrontLast, j.params.Pull = last, true
		rec := &psRecorder{pool: s.net.Sim.Packets()}
		s.ps.Unregister(j.ps.ep)
		if ep := s.ps.Register(rec); ep != j.ps.ep {
			t.Fatalf("recorder registered as endpoint %d, the PS is %d", ep, j.ps.ep)
		}
		w := gackedFront(t, j)
		first, second := twoExpiries(s, w, rec)
		want1, want2 := []string{"p0", "r1", "r2", "r3", "r4"}, []string{"r0", "r1", "r2", "r3", "r4"}
		if last {
			want1, want2 = []string{"r1", "r2", "r3", "r4", "p0"}, []string{"r1", "r2", "r3", "r4", "r0"}
		}
		if !slices.Equal(first, want1) || !slices.Equal(second, want2) {
			t.Errorf("FrontLast %v: the PS received %v, then %v; want %v, then %v", last, first, second, want1, want2)
		}
	}
}

// gackedFront sets up the hand-worked case of the front tests on j's
// worker 0: sequences 0-4 sent, 0 GACKed without a result, 1-4 in flight.
func gackedFront(t *testing.T, j *Job) *worker {
	t.Helper()
	w := j.workers[0]
	w.sndNext, w.lastAACK, w.lastGACK = 5, -1, 0
	w.flags[0] = fSent | fGACK
	for q := 1; q < 5; q++ {
		w.flags[q] = fSent
	}
	if j.recoveryBatch < 4 {
		t.Fatalf("recovery batch %d; the case needs at least 4", j.recoveryBatch)
	}
	return w
}

// TestTimeoutClientRule: the default recovery is the public ATP client's
// (client/p4ml_manager.cc:201-241) on the worker's one stream. Worked by
// hand, sequences 0-7 sent and last_AACK = -1:
//   - 0 GACKed, 1-4 in flight, 5 answered, 6-7 in flight: the range is 0-4
//     (up to the first result beyond the front); 0 is the front and is
//     resent though GACKed, 2 is GACKed and skipped: the PS receives r0
//     r1 r3 r4; the same at the second expiry (the client's fixed timer:
//     nothing backs off).
//   - no result beyond the front: the front alone, r0.
//   - with Params.Pull the GACKed front is pulled at the first expiry and
//     resent at the second: p0 r1 r3 r4, then r0 r1 r3 r4.
func TestTimeoutClientRule(t *testing.T) {
	for _, c := range []struct {
		name           string
		answered, pull bool
		want1, want2   []string
	}{
		{"result beyond", true, false, []string{"r0", "r1", "r3", "r4"}, []string{"r0", "r1", "r3", "r4"}},
		{"no result beyond", false, false, []string{"r0"}, []string{"r0"}},
		{"pull", true, true, []string{"p0", "r1", "r3", "r4"}, []string{"r0", "r1", "r3", "r4"}},
	} {
		s := newStar(t, starCfg{workers: 2})
		j := idleJob(t, s, 0, PAATP)
		j.params.Pull, j.params.ClientRecovery = c.pull, true
		j.params.RTOBackoff = BackoffFixed // the client's timer, as its rule
		rec := &psRecorder{pool: s.net.Sim.Packets()}
		s.ps.Unregister(j.ps.ep)
		s.ps.Register(rec)
		w := j.workers[0]
		w.sndNext, w.lastAACK, w.lastGACK = 8, -1, 0
		for q := range 8 {
			w.flags[q] = fSent
		}
		w.flags[0] |= fGACK
		w.flags[2] |= fGACK
		if c.answered {
			w.flags[5] |= fResult
		}
		first, second := twoExpiries(s, w, rec)
		if !slices.Equal(first, c.want1) || !slices.Equal(second, c.want2) {
			t.Errorf("%s: the PS received %v, then %v; want %v, then %v", c.name, first, second, c.want1, c.want2)
		}
		if got := w.rtoValue(); got != j.params.RTO {
			t.Errorf("%s: timeout %v after two expiries, want the fixed %v", c.name, got, j.params.RTO)
		}
	}
}

// twoExpiries fires worker w's timeout twice, 100 us apart, and returns
// what the recorder at the PS received after each.
func twoExpiries(s *star, w *worker, rec *psRecorder) (first, second []string) {
	w.timeout()
	s.net.Sim.Run(100 * netsim.Microsecond)
	first = slices.Clone(rec.got)
	rec.got = rec.got[:0]
	w.timeout()
	s.net.Sim.Run(200 * netsim.Microsecond)
	return first, slices.Clone(rec.got)
}

// TestPulledFrontIsResent: a timeout pulls the acknowledged front once; an
// expiry that finds the pulled front still unanswered resends it, though a
// GACK restarted the timer and cleared the backoff in between. Worked by
// hand (sequences 0-4 sent, 0 GACKed, 1-4 in flight, nothing more to
// send):
//   - expiry 1: pull 0, resend 1-4 (1 pull, 4 resends);
//   - a GACK for 1 (the worker is not AWD-bound): the timer restarts, the
//     backoff is 0;
//   - expiry 2: 0 is resent, then 2-4 (1 pull, 8 resends). Under
//     Params.PullAfterReset (the earlier model) 0 is pulled again (2
//     pulls, 7 resends), and would be at every expiry so long as a GACK
//     came between them;
//   - the result of 0 comes: the front is 1, GACKed and not yet pulled, so
//     expiry 3 pulls it (2 pulls), then resends 2-4 (11 resends).
func TestPulledFrontIsResent(t *testing.T) {
	for _, reset := range []bool{false, true} {
		t.Run(fmt.Sprintf("reset=%v", reset), func(t *testing.T) {
			s := newStar(t, starCfg{workers: 2})
			j := idleJob(t, s, 0, PAATP)
			j.params.Pull, j.params.PullAfterReset = true, reset
			w := gackedFront(t, j)
			w.gateEnd = 5
			w.timeout()
			if st := w.stats; st.Pulls != 1 || st.Retransmits != 4 {
				t.Fatalf("first expiry: %d pulls, %d resends; want 1, 4", st.Pulls, st.Retransmits)
			}
			p := s.net.Sim.Packets().Get()
			p.Kind, p.Seq = KindGACK, 1
			p.Ext[extJob] = 0
			w.Receive(p)
			if w.backoff != 0 || w.lastGACK != 1 || w.sndNext != 5 {
				t.Fatalf("after the GACK: backoff %d, last_GACK %d, snd_next %d; want 0, 1, 5", w.backoff, w.lastGACK, w.sndNext)
			}
			w.timeout()
			pulls, resends := uint64(1), uint64(8)
			if reset {
				pulls, resends = 2, 7
			}
			if st := w.stats; st.Pulls != pulls || st.Retransmits != resends {
				t.Fatalf("second expiry: %d pulls, %d resends; want %d, %d", st.Pulls, st.Retransmits, pulls, resends)
			}
			if reset {
				return
			}
			r := s.net.Sim.Packets().Get()
			r.Kind, r.Seq = KindResult, 0
			r.Ext[extJob], r.Ext[extValue], r.Ext[extBitmap] = 0, ExpectedSum(2, 0), int64(fullMask(2))
			w.Receive(r)
			w.timeout()
			if st := w.stats; w.lastAACK != 0 || st.Pulls != 2 || st.Retransmits != 11 {
				t.Fatalf("third expiry: last_AACK %d, %d pulls, %d resends; want 0, 2, 11", w.lastAACK, st.Pulls, st.Retransmits)
			}
		})
	}
}

// TestGACKedFrontAlone: every outstanding sequence 0..B+2 GACKed (B the
// recovery batch), the front's pull unanswered. Worked by hand, with
// Params.Pull and a front pulled once:
//   - first expiry: B pulls, no resend, under either rule;
//   - second expiry (the front was pulled): the default resends the batch
//     0..B-1 (B resends); Params.GACKedFront the front alone (1), as the
//     ATP client resends last_ACK + 1 alone with no result beyond it;
//   - a result for 1 (the front stays at 0): the fast retransmission of 0
//     under either rule, and under the default the round's next GACKed
//     sequence B as well: B + 2 against 2.
func TestGACKedFrontAlone(t *testing.T) {
	for _, front := range []bool{false, true} {
		t.Run(fmt.Sprintf("front=%v", front), func(t *testing.T) {
			s := newStar(t, starCfg{workers: 2})
			j := idleJob(t, s, 0, PAATP)
			j.params.Pull, j.params.PullAfterReset, j.params.GACKedFront = true, false, front
			w := j.workers[0]
			b := j.recoveryBatch
			n := b + 3
			if n > int64(len(w.flags)) {
				t.Fatalf("window of %d flags; the case needs %d", len(w.flags), n)
			}
			w.sndNext, w.lastAACK, w.lastGACK, w.gateEnd = n, -1, n-1, n
			for q := int64(0); q < n; q++ {
				w.flags[q&w.mask] = fSent | fGACK
			}
			w.timeout()
			if st := w.stats; st.Pulls != uint64(b) || st.Retransmits != 0 {
				t.Fatalf("first expiry: %d pulls, %d resends; want %d, 0", st.Pulls, st.Retransmits, b)
			}
			w.timeout()
			want := uint64(b)
			if front {
				want = 1
			}
			if st := w.stats; st.Pulls != uint64(b) || st.Retransmits != want {
				t.Fatalf("second expiry: %d pulls, %d resends; want %d, %d", st.Pulls, st.Retransmits, b, want)
			}
			r := s.net.Sim.Packets().Get()
			r.Kind, r.Seq = KindResult, 1
			r.Ext[extJob], r.Ext[extValue], r.Ext[extBitmap] = 0, ExpectedSum(2, 1), int64(fullMask(2))
			w.Receive(r)
			want += 1 + 1 // the fast retransmission of 0, and the round's next
			if front {
				want = 2
			}
			if st := w.stats; w.lastAACK != -1 || st.Retransmits != want || st.FastRetx != 1 {
				t.Fatalf("after a result for 1: last_AACK %d, %d resends (%d fast); want -1, %d (1 fast)", w.lastAACK, st.Retransmits, st.FastRetx, want)
			}
		})
	}
}
