package inagg

import (
	"testing"

	"syncsim/switchmodel"
)

// TestPassedGradientGoesToPS works AggregatorConfig.ForwardPassed through
// by hand on 8 aggregators and a job of 3 workers (sequence s on
// aggregator s mod 8).
//   - Worker 0 sends sequence 3, which takes aggregator 3, then 11, which
//     collides with it and goes to the PS.
//   - Workers 1 and 2 complete sequence 3, which frees aggregator 3.
//   - Worker 1 sends 11: its aggregator is free, but worker 0 has passed
//     11, so its contribution is at the PS. Under ForwardPassed worker 1's
//     goes there too; under ATP's table it takes the aggregator and the
//     sequence is split.
//   - Worker 1 sends 12, which no partner has sent: it takes its
//     aggregator under both rules.
func TestPassedGradientGoesToPS(t *testing.T) {
	for _, forward := range []bool{false, true} {
		cfg := DefaultAggregatorConfig()
		cfg.Memory, cfg.ForwardPassed = 8*AggregatorBytes, forward
		s := newStar(t, starCfg{workers: 3, agg: cfg})
		h := handSwitch{t: t, s: s}
		a := idleJob(t, s, 0, PAATP)
		if !h.gradient(a, 0, 3) {
			t.Fatal("worker 0's sequence 3 not taken by the switch")
		}
		if h.gradient(a, 0, 11) {
			t.Fatal("worker 0's sequence 11 took the aggregator of sequence 3")
		}
		if !h.gradient(a, 1, 3) {
			t.Fatal("worker 1's sequence 3 not taken by the switch")
		}
		if kind := offer(s, a, 2, 3); kind != KindAggregate {
			t.Fatalf("sequence 3's last contribution became kind %d, not the aggregate", kind)
		}
		if used := s.agg.Memory().Used(); used != 0 {
			t.Fatalf("%d aggregators in use after sequence 3 completed", used)
		}
		if took := h.gradient(a, 1, 11); took == forward {
			t.Fatalf("ForwardPassed %v: worker 1's sequence 11, which worker 0 passed, taken by the switch: %v", forward, took)
		}
		if got, want := s.agg.Stats.PassedForwarded, map[bool]uint64{false: 0, true: 1}[forward]; got != want {
			t.Fatalf("ForwardPassed %v: PassedForwarded %d, want %d", forward, got, want)
		}
		if !h.gradient(a, 1, 12) {
			t.Fatalf("ForwardPassed %v: sequence 12, which no partner has sent, went to the PS", forward)
		}
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
