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
		&cli.StringFlag{Name: "shard", Usage: "run shard `I/N` of the jobs (1 <= I <= N; 'auto': from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX); {shard} in --csv becomes I"},
		&cli.IntFlag{Name: "shards", Usage: "number of shards when the index comes from the environment (a Kubernetes Indexed Job's completions)"},
		plotDirFlag(),
	)
	return &cli.Command{
		Name:      "sweep",
		Usage:     "run a grid of parameter points and stream one CSV row per point and trial",
		ArgsUsage: "EXP",
		Description: "The grid is the cartesian product of the --vary lists over the point given by the\n" +
			"defaults and --set (or a --scenario file). Every point is checked before anything\n" +
			"runs. Rows come in grid order (first --vary outermost, then trials) whatever\n" +
			"--parallel is, and each row is flushed as soon as every earlier row is written,\n" +
			"so an interrupted sweep keeps a complete prefix; --resume continues it. An\n" +
			"existing CSV is never overwritten without --force. FILE.json records the\n" +
			"provenance (program, command, parameters, grid, seed, trials).\n" +
			"CSV columns: experiment, every parameter, trial, seed, every metric\n" +
			"(then wall_s, events_per_s with --timing). Undefined metrics are NaN.\n" +
			"--shard I/N runs job k (k = point x trials + trial) when k mod N = I-1;\n" +
			"'syncsim merge' joins the shards into the file the whole sweep writes.\n\n" +
			"EXAMPLES:\n" +
			"   syncsim sweep incast --vary senders=2,8,32 --vary transport=dctcp,newreno --trials 3 --csv incast.csv\n" +
			"   syncsim sweep ina-leafspine --vary load=0.2:0.8:0.2 --csv fig14.csv --parallel 2\n" +
			"   syncsim sweep ina-leafspine --vary load=0.2:0.8:0.2 --csv fig14.csv --resume\n" +
			"   syncsim sweep --scenario fig12.toml --shard 2/8 --csv 'fig12.{shard}.csv'",
		Flags: flags,
		Action: func(c *cli.Context) error {
			if !c.IsSet("csv") {
				return errors.New("sweep needs --csv FILE for its rows")
			}
			p, err := newPlan(c, reg, c.StringSlice("vary"))
			if err != nil {
				return err
			}
			if c.IsSet("plot") && p.shards > 0 {
				return errors.New("--plot draws the whole sweep: merge the shards ('syncsim merge'), then draw with 'syncsim plot'")
			}
			if err := checkSweepPlot(c, p); err != nil {
				return err
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
			if out.resume != nil && out.resume.Rerun != "" {
				fmt.Fprintf(c.App.ErrWriter, "syncsim: resuming %s: %s\n", p.csvPath, out.resume.Rerun)
			}
			r := p.runner(out)
			total := r.Total()
			prog := newProgress(c.App.ErrWriter, p.exp.Name, total, r.Live, p.every, p.quiet)
			var outs []*experiments.Outcome
			err = r.Run(c.Context, func(o *experiments.Outcome) error {
				if err := out.write(o); err != nil {
					return err
				}
				printEngine(c.App.ErrWriter, o)
				if p.check {
					outs = append(outs, &experiments.Outcome{Books: o.Books})
				}
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
			kept := ""
			if out.resume != nil && out.resume.Rows() > 0 {
				kept = fmt.Sprintf(" after the %d rows already there", out.resume.Rows())
			}
			shard := ""
			if p.shards > 0 {
				shard = fmt.Sprintf(", shard %d/%d", p.shard+1, p.shards)
			}
			fmt.Fprintf(c.App.ErrWriter, "wrote %d rows (%d points x %d trials%s) to %s%s\n", out.csv.Rows(), p.grid.Len(), p.trials, shard, p.csvPath, kept)
			if p.check {
				printBooks(c.App.ErrWriter, p.exp.Name, outs)
			}
			seriesNote(c.App.ErrWriter, p, out)
			traceNote(c.App.ErrWriter, p, out)
			return plotSweep(c, p)
		},
	}
}
