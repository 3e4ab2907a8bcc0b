package main

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
)

func runCommand(reg *experiments.Registry) *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run one parameter point over several trials and print median [min-max] per metric",
		ArgsUsage: "EXP",
		Description: "Runs EXP at its defaults overridden by --set (or a --scenario file), for --trials\n" +
			"seeds (seed, seed+1, ...), and prints one row per metric: the median over trials\n" +
			"and the range [min, max]; n counts the trials in which the metric was defined.\n" +
			"Progress goes to stderr. Ctrl-C stops the runs in progress at once; the trials\n" +
			"finished are in --csv, and --resume continues.\n\n" +
			"EXAMPLES:\n" +
			"   syncsim run incast\n" +
			"   syncsim run incast --set senders=32 --set transport=newreno --trials 5\n" +
			"   syncsim run sr-cluster --set n=200 --trials 20 --csv sr.csv --check\n" +
			"   syncsim run --scenario study.toml",
		Flags: gridFlags(false),
		Action: func(c *cli.Context) error {
			p, err := newPlan(c, reg, nil)
			if err != nil {
				return err
			}
			if p.grid.Len() != 1 {
				return fmt.Errorf("run takes one parameter point but the scenario varies %d; use sweep", len(p.grid.Axes()))
			}
			if c.Bool("dry-run") {
				return p.dryRun(c.App.ErrWriter, c)
			}
			out, err := p.open()
			if err != nil {
				return err
			}
			defer out.release()
			provenanceNote(c.App.ErrWriter, p, out)
			outs, err := keptOutcomes(p, out)
			if err != nil {
				return err
			}
			r := p.runner(out)
			prog := newProgress(c.App.ErrWriter, p.exp.Name, r.Total(), r.Live, p.every, p.quiet)
			err = r.Run(c.Context, func(o *experiments.Outcome) error {
				if err := out.write(o); err != nil {
					return err
				}
				printEngine(c.App.ErrWriter, o)
				outs = append(outs, o)
				prog.add(1)
				return nil
			})
			prog.finish()
			if cerr := out.close(); err == nil && cerr != nil {
				err = fmt.Errorf("closing %s: %w", p.csvPath, cerr)
			}
			if err != nil {
				return p.failure(err, out)
			}
			if err := printSummary(c.App.Writer, p, outs); err != nil {
				return err
			}
			if p.check {
				printBooks(c.App.Writer, p.exp.Name, outs)
			}
			seriesNote(c.App.ErrWriter, p, out)
			traceNote(c.App.ErrWriter, p, out)
			return nil
		},
	}
}

// keptOutcomes reads back the trials a resumed run's CSV already holds,
// so the summary covers every trial.
func keptOutcomes(p *plan, out *output) ([]*experiments.Outcome, error) {
	if out.resume == nil {
		return nil, nil
	}
	var outs []*experiments.Outcome
	np := len(p.exp.Params)
	for i, rec := range out.resume.Records() {
		res := p.exp.NewResult()
		for j, m := range p.exp.Metrics {
			v, err := strconv.ParseFloat(rec[3+np+j], 64)
			if err != nil {
				return nil, fmt.Errorf("%s row %d: metric %s=%q is not a number", p.csvPath, i+1, m.Name, rec[3+np+j])
			}
			res.Metrics[m.Name] = v
		}
		outs = append(outs, &experiments.Outcome{Trial: i, Seed: p.seed + uint64(i), Params: p.grid.Point(0), Result: res})
	}
	return outs, nil
}

// printSummary prints the point, the seeds and one row per metric with
// the median and [min, max] over the trials.
func printSummary(w io.Writer, p *plan, outs []*experiments.Outcome) error {
	last := p.seed + uint64(p.trials) - 1
	var first *experiments.Outcome
	if len(outs) > 0 {
		first = outs[len(outs)-1]
	}
	fmt.Fprintf(w, "%s\n", wrap(p.exp.Name+": "+describePoint(p.exp, p.grid.Point(0), first), textWidth(w)))
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
	conv := make([]*experiments.Outcome, 0, len(outs))
	for _, o := range outs {
		if o.Wall == 0 {
			continue // read back from a resumed CSV
		}
		wall := o.Wall.Seconds()
		eps := math.NaN()
		if wall > 0 {
			eps = float64(o.Result.Events) / wall
		}
		conv = append(conv, &experiments.Outcome{Result: &experiments.Result{Metrics: map[string]float64{"wall_s": wall, "events_per_s": eps}}})
	}
	var rows [][]string
	for _, s := range experiments.Summarize(timing, conv) {
		rows = append(rows, summaryRow(s.Metric.Name, s.Metric.Unit, s.Median, s.Min, s.Max, s.Defined, s.Trials))
	}
	return rows
}
