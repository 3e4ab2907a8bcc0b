package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
)

func sweepCommand(reg *experiments.Registry) *cli.Command {
	flags := append(gridFlags(true),
		&cli.StringSliceFlag{Name: "vary", Usage: "sweep a parameter over `key=v1,v2,...`; numbers may use start:stop:step ranges (repeatable; the first --vary changes slowest)"},
		&cli.BoolFlag{Name: "resume", Usage: "keep the rows already in the CSV and run only the missing (point, trial) rows"},
		plotDirFlag(),
	)
	return &cli.Command{
		Name:      "sweep",
		Usage:     "run a grid of parameter points and stream one CSV row per point and trial",
		ArgsUsage: "EXP",
		Description: "The grid is the cartesian product of the --vary lists over the point given by the\n" +
			"defaults and --set. Rows come in grid order (first --vary outermost, then trials)\n" +
			"whatever --parallel is, and each row is flushed as soon as every earlier row is\n" +
			"written, so an interrupted sweep keeps a complete prefix; --resume continues it.\n" +
			"CSV columns: experiment, every parameter, trial, seed, every metric\n" +
			"(then wall_s, events_per_s with --timing). Undefined metrics are NaN.",
		Flags: flags,
		Action: func(c *cli.Context) error {
			if !c.IsSet("csv") {
				return errors.New("sweep needs --csv FILE for its rows")
			}
			p, err := newPlan(c, reg, c.StringSlice("vary"))
			if err != nil {
				return err
			}
			if err := checkSweepPlot(c, p); err != nil {
				return err
			}
			out, err := p.open()
			if err != nil {
				return err
			}
			defer out.close()
			r := p.runner(out)
			total := r.Total()
			prog := newProgress(c.App.ErrWriter, p.exp.Name, total, true)
			err = r.Run(c.Context, func(o *experiments.Outcome) error {
				if err := out.write(o); err != nil {
					return err
				}
				prog.add(1)
				return nil
			})
			prog.finish()
			rows := out.csv.Rows()
			if out.resume != nil {
				rows += out.resume.Rows()
			}
			if cerr := out.close(); err == nil && cerr != nil {
				err = fmt.Errorf("closing %s: %w", p.csvPath, cerr)
			}
			if err != nil {
				return fmt.Errorf("%w (%s keeps the %d rows written before)", err, p.csvPath, rows)
			}
			kept := ""
			if out.resume != nil && out.resume.Rows() > 0 {
				kept = fmt.Sprintf(" after the %d rows already there", out.resume.Rows())
			}
			fmt.Fprintf(c.App.ErrWriter, "wrote %d rows (%d points x %d trials) to %s%s\n", out.csv.Rows(), len(p.points), p.trials, p.csvPath, kept)
			return plotSweep(c, p)
		},
	}
}
