package experiments

import (
	"fmt"
	"math"
)

// Cost is an experiment's model of what one run costs, which --dry-run
// prints so a user can size a job before running it. The model is a
// count, not a simulation: Events predicts the simulator events of one
// run from the parameter point alone (packets times the events each
// costs, for packet-level experiments), and NsPerEvent is the CPU one
// event costs on the sequential engine, measured on the experiment's
// reference runs (docs/performance.md). Each experiment's test checks
// Events against the events metric of real runs within a factor of 2.
type Cost struct {
	// Events returns the expected simulator events of one run (one
	// trial) at ps; it is called only on points that passed validation.
	Events func(ps Params) float64
	// NsPerEvent is the CPU time of one event, nanoseconds.
	NsPerEvent float64
	// Rough, when set, names what makes the estimate at ps unreliable
	// (beyond the factor of 2 the models are held to), or returns "" where
	// the model holds: a regime the model is known to miss says so rather
	// than printing a wrong number silently.
	Rough func(ps Params) string
}

// Estimate is what one run of a point is expected to cost.
type Estimate struct {
	Events     float64
	CPUSeconds float64
	// Rough is why the estimate may be off by more than a factor of 2
	// ("" when the model holds at the point).
	Rough string
}

// Estimate returns the expected cost of one run at ps, and false when the
// experiment has no cost model (or the model has no answer for ps: a
// non-finite or negative count).
func (e *Experiment) Estimate(ps Params) (Estimate, bool) {
	if e.Cost == nil {
		return Estimate{}, false
	}
	n := e.Cost.Events(ps)
	if math.IsNaN(n) || math.IsInf(n, 0) || n < 0 {
		return Estimate{}, false
	}
	est := Estimate{Events: n, CPUSeconds: n * e.Cost.NsPerEvent * 1e-9}
	if e.Cost.Rough != nil {
		est.Rough = e.Cost.Rough(ps)
	}
	return est, true
}

func (c *Cost) validate() error {
	if c.Events == nil {
		return fmt.Errorf("cost model without an Events function")
	}
	if !(c.NsPerEvent > 0) || math.IsInf(c.NsPerEvent, 0) {
		return fmt.Errorf("cost model with NsPerEvent %g (want > 0)", c.NsPerEvent)
	}
	return nil
}
