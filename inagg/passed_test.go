package inagg

import (
	"testing"

	"syncsim/switchmodel"
)

// TestPassedGradientGoesToPS works AggregatorConfig.ForwardPassed through
// by hand on 8 aggregators and a job of 3 workers (sequence s on
// aggregator s mod 8), each worker sending in order as on its one path.
//  1. Worker 0 sends 3 and 4, which take aggregators 3 and 4, then 11 and
//     12, which collide with them and go to the PS. Worker 1 sends 3, 4
//     and 11 (to the PS).
//  2. Worker 2 completes 3 and 4, which frees both aggregators.
//  3. Worker 2 sends 11: its aggregator is free and both partners passed
//     11, so their contributions are at the PS. Under ForwardPassed it goes
//     there too; under ATP's table it takes the aggregator.
//  4. Worker 1 sends 12: worker 2 has not passed it, so it takes the
//     aggregator under both rules. Worker 2's 12 joins it; the one partner
//     missing, worker 0, passed 12, so under ForwardPassed the partial
//     aggregate goes to the PS at once; under ATP's table it waits for a
//     resend.
//  5. Worker 1 sends 13, which no partner has sent: both rules take it.
func TestPassedGradientGoesToPS(t *testing.T) {
	for _, forward := range []bool{false, true} {
		cfg := DefaultAggregatorConfig()
		cfg.Memory, cfg.ForwardPassed = 8*AggregatorBytes, forward
		s := newStar(t, starCfg{workers: 3, agg: cfg})
		h := handSwitch{t: t, s: s}
		a := idleJob(t, s, 0, PAATP)
		expect := func(w int, seq int64, took bool, what string) {
			t.Helper()
			if got := h.gradient(a, w, seq); got != took {
				t.Fatalf("ForwardPassed %v: worker %d's sequence %d (%s) taken by the switch: %v, want %v", forward, w, seq, what, got, took)
			}
		}
		expect(0, 3, true, "free aggregator")
		expect(0, 4, true, "free aggregator")
		expect(0, 11, false, "collides with 3")
		expect(0, 12, false, "collides with 4")
		expect(1, 3, true, "joins 3")
		expect(1, 4, true, "joins 4")
		expect(1, 11, false, "collides with 3")
		for _, seq := range []int64{3, 4} {
			if kind := offer(s, a, 2, seq); kind != KindAggregate {
				t.Fatalf("sequence %d's last contribution became kind %d, not the aggregate", seq, kind)
			}
		}
		if used := s.agg.Memory().Used(); used != 0 {
			t.Fatalf("%d aggregators in use after sequences 3 and 4 completed", used)
		}
		expect(2, 11, !forward, "both partners passed")
		expect(1, 12, true, "worker 2 has not passed it")
		expect(2, 12, true, "joins 12")
		want := map[bool]int{false: 2, true: 0}[forward]
		if used := s.agg.Memory().Used(); used != want {
			t.Fatalf("ForwardPassed %v: %d aggregators in use after worker 2's 12, want %d", forward, used, want)
		}
		st := s.agg.Stats
		if n := map[bool]uint64{false: 0, true: 1}[forward]; st.PassedForwarded != n || st.PassedFlushes != n {
			t.Fatalf("ForwardPassed %v: PassedForwarded %d, PassedFlushes %d, want %d each", forward, st.PassedForwarded, st.PassedFlushes, n)
		}
		expect(1, 13, true, "no partner sent it")
	}
}

// offer passes worker w's gradient of seq of job j through the switch and
// returns the kind it leaves as.
func offer(s *star, j *Job, w int, seq int64) uint8 {
	p := j.workers[w].packetToPS(KindGradient, seq)
	p.Payload = j.payload
	p.Size += p.Payload
	p.Ext[extValue] = GradientValue(w, seq)
	p.Ext[extBitmap] = int64(1) << uint(w)
	if v := s.agg.Ingress(s.sw, p, nil); v != switchmodel.Forward {
		return 255
	}
	return p.Kind
}
