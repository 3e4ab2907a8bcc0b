package inagg

import (
	"fmt"
	"slices"
	"testing"

	"syncsim/netsim"
)

// TestRecoverGaps: an expiry that recovers unacknowledged sequences also
// recovers the GACKed ones behind the front whose results a later result
// passed (Params.RecoverGaps), in the front's manner (pulled, then
// resent). Worked by hand on worker 0: sequences 0-9 sent, 0-7 GACKed, 3
// answered, 8-9 in flight, last_AACK = -1, 0-6 fast-retransmitted once
// already; then the result of 7 comes (the highest result).
//   - front only (the default before the option): expiry 1 pulls 0 and
//     resends 8, 9; expiry 2 resends 0, 8, 9. Sequences 1, 2, 4, 5, 6 are
//     never asked for while 8-9 stay unacknowledged.
//   - gaps: expiry 1 pulls 0, resends 8, 9, pulls 1, 2, 4, 5, 6 (3 holds
//     its result; nothing at or past 7); expiry 2 resends them instead.
//   - gaps with a batch of 2 (the CWD cap): the front and the two oldest,
//     1 and 2, per expiry.
//   - paced: the front and the oldest gap, 1, per expiry (the rest come
//     with results: TestPacedGaps).
func TestRecoverGaps(t *testing.T) {
	for _, c := range []struct {
		gaps         GapRule
		batch        int64
		want1, want2 []string
	}{
		{GapsFront, 0, []string{"p0", "r8", "r9"}, []string{"r0", "r8", "r9"}},
		{GapsBatch, 0, []string{"p0", "r8", "r9", "p1", "p2", "p4", "p5", "p6"}, []string{"r0", "r8", "r9", "r1", "r2", "r4", "r5", "r6"}},
		{GapsBatch, 2, []string{"p0", "r8", "r9", "p1", "p2"}, []string{"r0", "r8", "r9", "r1", "r2"}},
		{GapsPaced, 0, []string{"p0", "r8", "r9", "p1"}, []string{"r0", "r8", "r9", "r1"}},
	} {
		t.Run(fmt.Sprintf("gaps=%v/batch=%d", c.gaps, c.batch), func(t *testing.T) {
			s, w, rec := gapsWorker(t, c.gaps, c.batch)
			first, second := twoExpiries(s, w, rec)
			if !slices.Equal(first, c.want1) || !slices.Equal(second, c.want2) {
				t.Errorf("the PS received %v, then %v; want %v, then %v", first, second, c.want1, c.want2)
			}
		})
	}
}

// gapsWorker sets up TestRecoverGaps's worker 0 under rule g (batch: the
// recovery batch, 0 for the job's own), up to the result of 7.
func gapsWorker(t *testing.T, g GapRule, batch int64) (*star, *worker, *psRecorder) {
	t.Helper()
	s := newStar(t, starCfg{workers: 2})
	j := idleJob(t, s, 0, PAATP)
	j.params.Pull, j.params.PullAfterReset, j.params.RecoverGaps = true, false, g
	if batch > 0 {
		j.recoveryBatch = batch
	}
	rec := &psRecorder{pool: s.net.Sim.Packets()}
	s.ps.Unregister(j.ps.ep)
	s.ps.Register(rec)
	w := j.workers[0]
	w.sndNext, w.lastAACK, w.lastGACK, w.gateEnd = 10, -1, 2, 10
	for q := range 10 {
		w.flags[q] = fSent
		if q < 8 {
			w.flags[q] |= fGACK
		}
	}
	w.flags[3] |= fResult
	for q := range 7 {
		w.flags[q] |= fFastRetx // each fast-retransmitted once already
	}
	giveResult(s, w, 7)
	if w.hiResult != 7 || w.lastAACK != -1 || w.stats.FastRetx != 0 {
		t.Fatalf("after the result of 7: highest result %d, last_AACK %d, %d fast retransmissions; want 7, -1, 0", w.hiResult, w.lastAACK, w.stats.FastRetx)
	}
	return s, w, rec
}

// giveResult hands worker w the complete result of seq.
func giveResult(s *star, w *worker, seq int64) {
	r := s.net.Sim.Packets().Get()
	r.Kind, r.Seq = KindResult, seq
	r.Ext[extJob], r.Ext[extValue], r.Ext[extBitmap] = 0, ExpectedSum(2, seq), int64(fullMask(2))
	w.Receive(r)
}

// TestPacedGaps: under GapsPaced the gaps behind the highest result held
// at the expiry come out two per new result after the first. Worked by
// hand on TestRecoverGaps's worker: the expiry pulls 0 (the front),
// resends 8 and 9, pulls 1 (the round runs over 1-6, 3 answered); the
// result of 8 lets out 2 and 4, that of 9 5 and 6; the result of 1 then
// finds the round over (it ends below 7, the highest result at the
// expiry) and lets out nothing. Under GapsBatch the results let out
// nothing: its five came at the expiry.
func TestPacedGaps(t *testing.T) {
	for _, c := range []struct {
		gaps               GapRule
		expiry, r8, r9, r1 []string
	}{
		{GapsPaced, []string{"p0", "r8", "r9", "p1"}, []string{"p2", "p4"}, []string{"p5", "p6"}, nil},
		{GapsBatch, []string{"p0", "r8", "r9", "p1", "p2", "p4", "p5", "p6"}, nil, nil, nil},
	} {
		t.Run(c.gaps.String(), func(t *testing.T) {
			s, w, rec := gapsWorker(t, c.gaps, 0)
			step := func(name string, want []string, act func()) {
				t.Helper()
				act()
				s.net.Sim.Run(s.net.Sim.Now() + 50*netsim.Microsecond)
				if !slices.Equal(rec.got, want) {
					t.Errorf("%s: the PS received %v; want %v", name, rec.got, want)
				}
				rec.got = rec.got[:0]
			}
			step("the expiry", c.expiry, w.timeout)
			step("the result of 8", c.r8, func() { giveResult(s, w, 8) })
			step("the result of 9", c.r9, func() { giveResult(s, w, 9) })
			step("the result of 1", c.r1, func() { giveResult(s, w, 1) })
		})
	}
}
