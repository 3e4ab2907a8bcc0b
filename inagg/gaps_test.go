package inagg

import (
	"fmt"
	"slices"
	"testing"
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
func TestRecoverGaps(t *testing.T) {
	for _, c := range []struct {
		gaps         bool
		batch        int64
		want1, want2 []string
	}{
		{false, 0, []string{"p0", "r8", "r9"}, []string{"r0", "r8", "r9"}},
		{true, 0, []string{"p0", "r8", "r9", "p1", "p2", "p4", "p5", "p6"}, []string{"r0", "r8", "r9", "r1", "r2", "r4", "r5", "r6"}},
		{true, 2, []string{"p0", "r8", "r9", "p1", "p2"}, []string{"r0", "r8", "r9", "r1", "r2"}},
	} {
		t.Run(fmt.Sprintf("gaps=%v/batch=%d", c.gaps, c.batch), func(t *testing.T) {
			s := newStar(t, starCfg{workers: 2})
			j := idleJob(t, s, 0, PAATP)
			j.params.Pull, j.params.PullAfterReset, j.params.RecoverGaps = true, false, c.gaps
			if c.batch > 0 {
				j.recoveryBatch = c.batch
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
			r := s.net.Sim.Packets().Get()
			r.Kind, r.Seq = KindResult, 7
			r.Ext[extJob], r.Ext[extValue], r.Ext[extBitmap] = 0, ExpectedSum(2, 7), int64(fullMask(2))
			w.Receive(r)
			if w.hiResult != 7 || w.lastAACK != -1 || w.stats.FastRetx != 0 {
				t.Fatalf("after the result of 7: highest result %d, last_AACK %d, %d fast retransmissions; want 7, -1, 0", w.hiResult, w.lastAACK, w.stats.FastRetx)
			}
			first, second := twoExpiries(s, w, rec)
			if !slices.Equal(first, c.want1) || !slices.Equal(second, c.want2) {
				t.Errorf("the PS received %v, then %v; want %v, then %v", first, second, c.want1, c.want2)
			}
		})
	}
}
