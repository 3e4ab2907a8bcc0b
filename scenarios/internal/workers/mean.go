package workers

import "syncsim/experiments"

// Mean is the mean compute multiplier of n workers under the parameters
// (what a cost model scales the trace's mean by): the file's multipliers'
// mean, or the classes' shares over their speeds; stragglers add
// (slowdown - 1) for each of them. 1 when the workers are alike, or when
// the parameters cannot be read (the run's validation reports that).
func Mean(ps experiments.Params, n int) float64 {
	h, err := Read(ps)
	if err != nil || n <= 0 {
		return 1
	}
	m := 1.0
	switch {
	case len(h.Multipliers) > 0:
		m = 0
		for _, v := range h.Multipliers {
			m += v
		}
		m /= float64(len(h.Multipliers))
	case len(h.Classes) > 0:
		m, total := 0.0, 0.0
		for _, c := range h.Classes {
			m += c.Share / c.Speed
			total += c.Share
		}
		if total > 0 {
			m /= total
		}
		return m + stragglerShare(h.Stragglers, h.Slowdown, n)
	}
	return m + stragglerShare(h.Stragglers, h.Slowdown, n)
}

// stragglerShare is what s stragglers of slowdown add to the mean
// multiplier of n workers.
func stragglerShare(s int, slowdown float64, n int) float64 {
	if s <= 0 {
		return 0
	}
	return float64(min(s, n)) * (slowdown - 1) / float64(n)
}
