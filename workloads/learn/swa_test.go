package learn

import (
	"math"
	"testing"
)

// TestSWAAfterOneRound: after one round, a worker's SWA model is
// a init + (1 - a) theta element by element (DS-Sync Pseudo Code 1 line
// 26, SWA = f SWA + (1 - f) model, with SWA starting at the initial
// model), and after a second a SWA_1 + (1 - a) theta_2; a = 0.9, so
// swapping the two weights cannot pass.
func TestSWAAfterOneRound(t *testing.T) {
	s := smallSplit(t, 3, 4, 300, 2)
	cfg := baseConfig(ModelMLP, 2)
	const a = 0.9
	cfg.SWAFactor = a
	f := newFleet(t, cfg, s, 6)
	init := append([]float64(nil), f.init...)
	check := func(round int, want []float64) {
		t.Helper()
		for i, v := range f.swa[0] {
			if math.Abs(v-want[i]) > 1e-15*max(1, math.Abs(want[i])) {
				t.Fatalf("round %d, parameter %d: SWA %.17g, want %.17g", round, i, v, want[i])
			}
		}
	}
	f.Step(0, 0)
	f.Round(0, 0)
	theta1 := f.Params(0)
	if maxAbsDiff(theta1, init) == 0 {
		t.Fatal("the step did not move the model")
	}
	want := make([]float64, len(init))
	for i := range want {
		want[i] = a*init[i] + (1-a)*theta1[i]
	}
	check(1, want)
	if d := maxAbsDiff(f.swa[1], init); d != 0 {
		t.Errorf("worker 1 completed no round, yet its SWA moved by %g", d)
	}
	f.Step(1, 0)
	f.Round(1, 0)
	theta2 := f.Params(0)
	for i := range want {
		want[i] = a*want[i] + (1-a)*theta2[i]
	}
	check(2, want)
}
