package main

import (
	"fmt"
	"io"
	"math"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
)

func runCommand(reg *experiments.Registry) *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run one parameter point over several trials and print median [min-max] per metric",
		ArgsUsage: "EXP",
		Description: "Runs EXP at its defaults overridden by --set, for --trials seeds (seed, seed+1, ...),\n" +
			"and prints one row per metric: the median over trials and the range [min, max].\n" +
			"n counts the trials in which the metric was defined.",
		Flags: gridFlags(false),
		Action: func(c *cli.Context) error {
			p, err := newPlan(c, reg, nil)
			if err != nil {
				return err
			}
			out, err := p.open()
			if err != nil {
				return err
			}
			defer out.close()
			var outs []*experiments.Outcome
			prog := newProgress(c.App.ErrWriter, p.exp.Name, p.trials, false)
			err = p.runner(out).Run(c.Context, func(o *experiments.Outcome) error {
				outs = append(outs, o)
				prog.add(1)
				return out.write(o)
			})
			prog.finish()
			if err != nil {
				return err
			}
			if err := out.close(); err != nil {
				return fmt.Errorf("closing %s: %w", p.csvPath, err)
			}
			return printSummary(c.App.Writer, p, outs)
		},
	}
}

// printSummary prints the point, the seeds and one row per metric with
// the median and [min, max] over the trials.
func printSummary(w io.Writer, p *plan, outs []*experiments.Outcome) error {
	last := p.seed + uint64(p.trials) - 1
	fmt.Fprintf(w, "%s  %s\n", p.exp.Name, describePoint(p.exp, p.points[0]))
	if p.trials == 1 {
		fmt.Fprintf(w, "seed %d, 1 trial\n", p.seed)
	} else {
		fmt.Fprintf(w, "seeds %d..%d, %d trials\n", p.seed, last, p.trials)
	}
	var rows [][]string
	for _, s := range experiments.Summarize(p.exp, outs) {
		rows = append(rows, summaryRow(s.Metric.Name, s.Metric.Unit, s.Median, s.Min, s.Max, s.Defined, s.Trials))
	}
	if p.timing {
		rows = append(rows, timingRows(outs)...)
	}
	return renderTable(w, []string{"metric", "median", "[min, max]", "unit", "n"}, rows)
}

func summaryRow(name, unit string, med, lo, hi float64, defined, trials int) []string {
	rng := "-"
	if !math.IsNaN(lo) {
		rng = "[" + num(lo) + ", " + num(hi) + "]"
	}
	return []string{name, num(med), rng, unit, fmt.Sprintf("%d/%d", defined, trials)}
}

// timingRows summarises wall-clock time and simulator speed.
func timingRows(outs []*experiments.Outcome) [][]string {
	timing := &experiments.Experiment{Metrics: []experiments.Metric{{Name: "wall_s", Unit: "s"}, {Name: "events_per_s", Unit: "1/s"}}}
	conv := make([]*experiments.Outcome, len(outs))
	for i, o := range outs {
		wall := o.Wall.Seconds()
		eps := math.NaN()
		if wall > 0 {
			eps = float64(o.Result.Events) / wall
		}
		conv[i] = &experiments.Outcome{Result: &experiments.Result{Metrics: map[string]float64{"wall_s": wall, "events_per_s": eps}}}
	}
	var rows [][]string
	for _, s := range experiments.Summarize(timing, conv) {
		rows = append(rows, summaryRow(s.Metric.Name, s.Metric.Unit, s.Median, s.Min, s.Max, s.Defined, s.Trials))
	}
	return rows
}
