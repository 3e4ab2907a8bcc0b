package experiments

import (
	"math"

	"github.com/montanaflynn/stats"
)

// Summary condenses one metric over the trials of a point the way the
// papers report it: the median with the range [min, max].
type Summary struct {
	Metric  Metric
	Defined int // trials with a defined (non-NaN) value
	Trials  int
	Median  float64 // NaN when no trial defined the metric
	Min     float64
	Max     float64
}

// Summarize returns one Summary per declared metric, in schema order, over
// the outcomes given (normally the trials of one point). Undefined (NaN)
// values are left out of the statistics and counted in Trials only.
func Summarize(e *Experiment, outs []*Outcome) []Summary {
	sums := make([]Summary, len(e.Metrics))
	for i, m := range e.Metrics {
		var vals stats.Float64Data
		for _, o := range outs {
			if v, ok := o.Result.Metrics[m.Name]; ok && !math.IsNaN(v) {
				vals = append(vals, v)
			}
		}
		s := Summary{Metric: m, Defined: len(vals), Trials: len(outs), Median: math.NaN(), Min: math.NaN(), Max: math.NaN()}
		if len(vals) > 0 {
			// The inputs are non-empty and NaN-free, so these cannot fail.
			s.Median, _ = stats.Median(vals)
			s.Min, _ = stats.Min(vals)
			s.Max, _ = stats.Max(vals)
		}
		sums[i] = s
	}
	return sums
}
