package main

import (
	"fmt"
	"io"
	"strings"

	"syncsim/experiments"
)

// maxCostLines is how many points --dry-run lists the cost of one by
// one; a larger sweep lists the first ones and its costliest point.
const maxCostLines = 20

// printCost writes what the plan is expected to cost (--dry-run): the
// events and CPU seconds of one run at each point, from the experiment's
// cost model (experiments.Cost), and the total over points x trials. An
// experiment without a model says so instead of guessing, and a point
// where the model is known to miss by more than a factor of 2 says why
// ("rough: ...").
func (p *plan) printCost(w io.Writer) {
	e := p.exp
	if e.Cost == nil {
		fmt.Fprintf(w, "cost: no estimate (%s has no cost model)\n", e.Name)
		return
	}
	n := p.grid.Len()
	var total experiments.Estimate
	var lines []string
	missing, rough, worst, worstAt := 0, 0, -1.0, 0
	for i := range n {
		est, ok := e.Estimate(p.grid.Point(i))
		if !ok {
			missing++
		} else {
			if est.Rough != "" {
				rough++
			}
			total.Events += est.Events * float64(p.trials)
			total.CPUSeconds += est.CPUSeconds * float64(p.trials)
			if est.Events > worst {
				worst, worstAt = est.Events, i
			}
		}
		if n > 1 && i < maxCostLines {
			lines = append(lines, "  "+p.pointLabel(i)+": "+costText(est, ok))
		}
	}
	model := fmt.Sprintf("%s's model, %g ns of CPU per event on one thread", e.Name, e.Cost.NsPerEvent)
	runs := fmt.Sprintf("%d points x %s", n, plural(p.trials, "trial"))
	if n == 1 {
		est, ok := e.Estimate(p.grid.Point(0))
		if p.trials == 1 || !ok {
			fmt.Fprintf(w, "cost: %s (%s)\n", costText(est, ok), model)
			return
		}
		runs = plural(p.trials, "trial") + " of " + costText(est, ok)
	} else {
		fmt.Fprintf(w, "cost (%s):\n", model)
	}
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	if n > maxCostLines {
		fmt.Fprintf(w, "  ... %d more points; the costliest: %s, %s events per run\n", n-maxCostLines, p.pointLabel(worstAt), siCount(worst))
	}
	sum := fmt.Sprintf("%s events, %s of CPU in all (%s)", siCount(total.Events), secondsText(total.CPUSeconds), runs)
	if missing > 0 {
		sum += fmt.Sprintf(", not counting %s without an estimate", plural(missing, "point"))
	}
	if rough > 0 && n > 1 {
		sum += fmt.Sprintf("; rough at %s of %d", plural(rough, "point"), n)
	}
	if n == 1 {
		fmt.Fprintf(w, "cost: %s; %s\n", sum, model)
		return
	}
	fmt.Fprintln(w, "  "+sum)
}

// pointLabel names point i by the values of the varied parameters.
func (p *plan) pointLabel(i int) string {
	ps := p.grid.Point(i)
	var parts []string
	for _, name := range experiments.AxisNames(p.grid.Axes()) {
		parts = append(parts, name+"="+ps.Text(name))
	}
	return strings.Join(parts, " ")
}

// costText formats one run's estimate.
func costText(est experiments.Estimate, ok bool) string {
	if !ok {
		return "no estimate"
	}
	t := siCount(est.Events) + " events, " + secondsText(est.CPUSeconds) + " of CPU per run"
	if est.Rough != "" {
		t += " (rough: " + est.Rough + ")"
	}
	return t
}

// secondsText formats CPU seconds, with hours beside a long one.
func secondsText(s float64) string {
	if s >= 3600 {
		return fmt.Sprintf("%.3g s (%.3g h)", s, s/3600)
	}
	return fmt.Sprintf("%.3g s", s)
}
