package exptest

import (
	"testing"

	"syncsim/experiments"
)

// CostFactor is how far an experiment's cost model may be from the
// events a run fires: the estimate must lie within [1/CostFactor,
// CostFactor] times the measured count.
const CostFactor = 2

// CheckCost runs one checked trial of e at sets (over e's defaults) and
// fails t unless e's cost model (experiments.Cost) estimates the run's
// events within CostFactor of the count the run reports (Result.Events,
// the events metric). It returns estimated / measured. Only events are
// checked: CPU per event depends on the machine and its load.
func CheckCost(t testing.TB, e *experiments.Experiment, seed uint64, sets ...string) float64 {
	t.Helper()
	ps, err := e.Resolve(sets)
	if err != nil {
		t.Fatalf("%s %v: %v", e.Name, sets, err)
	}
	est, ok := e.Estimate(ps)
	if !ok {
		t.Fatalf("%s %v: no cost estimate", e.Name, sets)
	}
	res := Run(t, e, seed, sets...)
	measured, ok := res.Metrics["events"]
	if !ok {
		measured = float64(res.Events)
	}
	if !(measured > 0) {
		t.Fatalf("%s %v: the run reports no events", e.Name, sets)
	}
	ratio := est.Events / measured
	t.Logf("%s %v: estimated %.0f events, measured %.0f, ratio %.2f", e.Name, sets, est.Events, measured, ratio)
	if ratio < 1.0/CostFactor || ratio > CostFactor {
		t.Errorf("%s %v: estimated %.0f events, the run fired %.0f (ratio %.2f, outside [1/%d, %d])",
			e.Name, sets, est.Events, measured, ratio, CostFactor, CostFactor)
	}
	return ratio
}
