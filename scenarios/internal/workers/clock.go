package workers

import (
	"fmt"
	"strings"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/workloads/training"
)

// Slowest is the largest compute multiplier the parameters give a worker
// (1 when the workers are alike) and what gives it, for messages: the
// largest value of worker_multipliers_file or the slowest class of
// worker_classes, times straggler_slowdown when there are stragglers.
func Slowest(ps experiments.Params) (mult float64, source string, err error) {
	h, lines, err := read(ps)
	if err != nil {
		return 0, "", err
	}
	mult = 1
	var why []string
	switch {
	case h.Multipliers != nil:
		k := 0
		for i, m := range h.Multipliers {
			if m > h.Multipliers[k] {
				k = i
			}
		}
		if mult = h.Multipliers[k]; mult != 1 {
			why = append(why, fmt.Sprintf("worker_multipliers_file %s line %d's multiplier %g",
				strings.TrimSpace(ps.Str("worker_multipliers_file")), lines[k], mult))
		}
	case len(h.Classes) > 0:
		k := 0
		for i, c := range h.Classes {
			if c.Speed < h.Classes[k].Speed {
				k = i
			}
		}
		if c := h.Classes[k]; c.Speed != 1 {
			mult = 1 / c.Speed
			why = append(why, fmt.Sprintf("worker_classes' %s at speed %g", c.Name, c.Speed))
		}
	}
	if h.Stragglers > 0 && h.Slowdown != 1 {
		mult *= h.Slowdown
		why = append(why, fmt.Sprintf("straggler_slowdown = %g", h.Slowdown))
	}
	return mult, strings.Join(why, " and "), nil
}

// CheckCompute checks that every compute time a worker can be given is a
// time the simulated clock holds (netsim.MaxSeconds, 106 days): the
// longest draw of d (training.Longest; its median when its tail is
// unbounded, whose rare longer draws fall after the run's end) times the
// slowest worker's multiplier (Slowest). what names d's parameters for the
// message ("compute_ms = 1e+07", "trace_file t.txt"). Without the check a
// compute time of 1e10 s wraps the clock and the run panics with an event
// "scheduled in the past".
func CheckCompute(ps experiments.Params, d training.Dist, what string) error {
	t, bounded := training.Longest(d)
	kind := "longest"
	if !bounded {
		kind = "median"
	}
	if err := netsim.CheckSeconds(t); err != nil {
		return fmt.Errorf("%s (its %s compute time): %w", what, kind, err)
	}
	mult, why, err := Slowest(ps)
	if err != nil {
		return err
	}
	if err := netsim.CheckSeconds(t * mult); err != nil {
		return fmt.Errorf("%s times %s (%s compute time %.4g s): %w", why, what, kind, t, err)
	}
	return nil
}
