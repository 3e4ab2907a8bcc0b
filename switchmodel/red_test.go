package switchmodel

import (
	"math"
	"testing"

	"syncsim/netsim"
)

// steadyRED holds a queue at `waiting` packets of 1000 B (filled with RED
// off) and offers n probes, each followed by one dequeue, so every probe
// sees the same occupancy. It returns the fractions marked and dropped.
func steadyRED(cfg REDConfig, waiting, n int, flags netsim.Flags) (marked, dropped float64) {
	s := netsim.New(3)
	q := NewNamedQueue(s, QueueConfig{}, "red-test")
	fill(q, s, waiting, 1000, 0)
	q.cfg.RED = &cfg
	q.configure()
	for i := 0; i < n; i++ {
		p := pkt(s, 1000, flags)
		if q.Enqueue(p, 0) {
			s.Packets().Put(q.Dequeue(0))
		} else {
			s.Packets().Put(p)
		}
	}
	return float64(q.Marked) / float64(n), float64(q.Dropped) / float64(n)
}

func TestREDProbability(t *testing.T) {
	base := REDConfig{MinBytes: 10000, MaxBytes: 30000, MaxP: 0.1, Weight: 1}
	spaced, gentle, hard := base, base, base
	spaced.Spacing, gentle.Gentle, hard.HardDrop = true, true, true
	const n = 100_000
	tests := []struct {
		name      string
		cfg       REDConfig
		waiting   int
		flags     netsim.Flags
		mark, drp float64 // expected fractions
	}{
		{"below min", base, 9, netsim.FlagECT, 0, 0},
		// pb = 0.1 (20000-10000)/(30000-10000) = 0.05 (Floyd-Jacobson Sec. 4)
		{"mid ECT marked", base, 20, netsim.FlagECT, 0.05, 0},
		{"mid non-ECT dropped", base, 20, 0, 0, 0.05},
		// uniform spacing: marks every U{1..20} packets: 2pb/(1+pb)
		{"mid spaced", spaced, 20, netsim.FlagECT, 2 * 0.05 / 1.05, 0},
		{"above max marks all", base, 30, netsim.FlagECT, 1, 0},
		{"above max hard drop", hard, 30, netsim.FlagECT, 0, 1},
		// gentle: 0.1 + 0.9 (45000-30000)/30000 = 0.55
		{"gentle", gentle, 45, netsim.FlagECT, 0.55, 0},
		{"gentle beyond 2max", gentle, 60, netsim.FlagECT, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, d := steadyRED(tc.cfg, tc.waiting, n, tc.flags)
			// 5 binomial standard deviations (an upper bound for the
			// spaced process, whose gaps vary less).
			tol := func(p float64) float64 { return 5*math.Sqrt(p*(1-p)/n) + 1e-12 }
			if math.Abs(m-tc.mark) > tol(tc.mark) {
				t.Errorf("marked fraction %.5f, want %.5f +- %.5f", m, tc.mark, tol(tc.mark))
			}
			if math.Abs(d-tc.drp) > tol(tc.drp) {
				t.Errorf("dropped fraction %.5f, want %.5f +- %.5f", d, tc.drp, tol(tc.drp))
			}
		})
	}
}

func TestREDAverageAndIdleDecay(t *testing.T) {
	s := netsim.New(1)
	cfg := REDConfig{MinBytes: 1 << 40, MaxBytes: 1 << 41, MaxP: 0.1, Weight: 0.5, IdlePacketTime: netsim.Microsecond}
	q := NewQueue(s, QueueConfig{RED: &cfg})
	fill(q, s, 4, 1000, 0) // arrivals see 0, 1000, 2000, 3000 B
	if got := q.REDAverage(); got != 2125 {
		t.Fatalf("avg %v, want 2125 (0 -> 0 -> 500 -> 1250 -> 2125)", got)
	}
	for q.Dequeue(0) != nil {
	}
	// Port idle from t=0; the next arrival at 2 us decays by (1-0.5)^2,
	// then averages in the empty queue: 2125/4/2.
	q.Enqueue(pkt(s, 1000, 0), 2*netsim.Microsecond)
	if got := q.REDAverage(); got != 265.625 {
		t.Fatalf("avg after idle %v, want 265.625", got)
	}
}

func TestREDDeterministic(t *testing.T) {
	cfg := REDConfig{MinBytes: 10000, MaxBytes: 30000, MaxP: 0.1, Weight: 1}
	a, _ := steadyRED(cfg, 20, 5000, netsim.FlagECT)
	b, _ := steadyRED(cfg, 20, 5000, netsim.FlagECT)
	if a != b {
		t.Fatalf("same seed gave %v and %v", a, b)
	}
}
