package hostsync

import (
	"testing"

	"syncsim/experiments"
)

// TestSRExample reproduces Fig. 3 of the selective-reduce paper exactly.
func TestSRExample(t *testing.T) {
	e := SRExample()
	cases := []struct {
		scheme    string
		ct, scale float64
	}{
		{"allreduce", 10, 5},
		{"partial-reduce", 10, 2},
		{"progress-aware", 10, 4},
		{"bandwidth-aware", 6, 2},
	}
	for _, c := range cases {
		t.Run(c.scheme, func(t *testing.T) {
			ps, err := e.Resolve([]string{"scheme=" + c.scheme})
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Metrics["avg_sync_time_s"]; got != c.ct {
				t.Errorf("avg CT = %v, want %v", got, c.ct)
			}
			if got := res.Metrics["avg_sync_scale"]; got != c.scale {
				t.Errorf("avg scale = %v, want %v", got, c.scale)
			}
		})
	}
}
