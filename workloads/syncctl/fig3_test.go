package syncctl

import (
	"testing"

	"syncsim/netsim"
)

// TestFig3 reproduces the motivating example of Sec. II-D exactly.
func TestFig3(t *testing.T) {
	cases := []struct {
		scheme      string
		ct, scale   float64
		syncs       int
		iters, idle float64
	}{
		// all reduce: w1..w4 blocked until 13 s; one sync 13-23 s.
		{"allreduce", 10, 5, 1, 5, (12 + 11 + 10 + 10 + 0) / 5.0},
		// partial reduce p=2: {w1,w2} at 2 s, {w3,w4} at 3 s, w5 alone.
		{"partial-reduce", 10, 2, 2, 5, (1 + 0 + 0 + 0) / 5.0},
		// progress-aware: wait until 3 s, one group of four.
		{"progress-aware", 10, 4, 1, 5, (2 + 1 + 0 + 0) / 5.0},
		// bandwidth-aware: {w2,w4} (2 s) and {w1,w3} (10 s) at 3 s.
		{"bandwidth-aware", 6, 2, 2, 5, (2 + 1 + 0 + 0) / 5.0},
	}
	for _, c := range cases {
		t.Run(c.scheme, func(t *testing.T) {
			cfg, ctl, err := Fig3(c.scheme, 2, 2)
			if err != nil {
				t.Fatal(err)
			}
			cl, err := NewCluster(netsim.New(1), cfg, ctl)
			if err != nil {
				t.Fatal(err)
			}
			m := cl.Run()
			// w5 never finds a partner under partial reduce with p=2 and
			// stays ready until the end of the run (the last sync end).
			if c.scheme != "allreduce" {
				c.idle += (cl.Sim().Now().Seconds() - 13) / 5
			}
			if m.AvgSyncTime != c.ct || m.AvgSyncScale != c.scale || m.TotalSync != c.syncs {
				t.Errorf("avg CT %v, avg scale %v, syncs %d; want %v, %v, %d", m.AvgSyncTime, m.AvgSyncScale, m.TotalSync, c.ct, c.scale, c.syncs)
			}
			if float64(m.TotalIteration) != c.iters {
				t.Errorf("total iteration %d, want %v", m.TotalIteration, c.iters)
			}
			if d := m.Idle - c.idle; d > 1e-9 || d < -1e-9 {
				t.Errorf("idle per worker %v, want %v", m.Idle, c.idle)
			}
		})
	}
}
