package experiments

import (
	"math"
	"testing"
)

// TestEstimate: an experiment's cost model gives events and CPU (events x
// ns per event) per run; no model, or a model without an answer (NaN,
// infinite, negative), gives no estimate; a model without Events or with
// a non-positive cost per event is refused at registration.
func TestEstimate(t *testing.T) {
	e := toyExperiment()
	ps, err := e.Resolve([]string{"n=8"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.Estimate(ps); ok {
		t.Error("an experiment without a cost model gave an estimate")
	}
	e.Cost = &Cost{NsPerEvent: 250, Events: func(ps Params) float64 { return 1000 * float64(ps.Int("n")) }}
	est, ok := e.Estimate(ps)
	if !ok || est.Events != 8000 || math.Abs(est.CPUSeconds-0.002) > 1e-12 {
		t.Errorf("Estimate = %+v, %v; want 8000 events, 0.002 s", est, ok)
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), -1} {
		e.Cost.Events = func(Params) float64 { return v }
		if _, ok := e.Estimate(ps); ok {
			t.Errorf("a model answering %g gave an estimate", v)
		}
	}
	for _, c := range []*Cost{{NsPerEvent: 100}, {NsPerEvent: 0, Events: func(Params) float64 { return 1 }}, {NsPerEvent: math.Inf(1), Events: func(Params) float64 { return 1 }}} {
		e := toyExperiment()
		e.Cost = c
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("registered a cost model %+v", c)
				}
			}()
			NewRegistry().Register(e)
		}()
	}
}
