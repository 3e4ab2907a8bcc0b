package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
)

// Flags shared by run and sweep.
func gridFlags(csvRequired bool) []cli.Flag {
	csvUsage := "also write one row per trial to `FILE` (tidy CSV, flushed per row)"
	if csvRequired {
		csvUsage = "write one row per point and trial to `FILE` (tidy CSV, flushed per row; required)"
	}
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "set", Usage: "set a parameter, `key=value` (repeatable; see 'syncsim describe EXP')"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "base seed; trial t runs with seed+t"},
		&cli.IntFlag{Name: "trials", Value: 1, Usage: "independent trials per point (>= 1)"},
		&cli.IntFlag{Name: "parallel", Value: runtime.GOMAXPROCS(0), Usage: "runs at a time (>= 1); results do not depend on it"},
		&cli.StringFlag{Name: "csv", Usage: csvUsage},
		&cli.StringFlag{Name: "series-dir", Usage: "collect time series and write them to `DIR`/<exp>_<point>_<trial>_<name>.csv"},
		&cli.BoolFlag{Name: "timing", Usage: "add wall_s and events_per_s (wall-clock, not reproducible)"},
		&cli.BoolFlag{Name: "check", Usage: "verify conservation books at the end of every run; fail if they do not balance"},
	}
}

// experimentArg returns the experiment named by the single positional
// argument.
func experimentArg(c *cli.Context, reg *experiments.Registry) (*experiments.Experiment, error) {
	args := c.Args().Slice()
	switch {
	case len(args) == 0:
		known := strings.Join(reg.Names(), ", ")
		if known == "" {
			known = "none registered"
		}
		return nil, fmt.Errorf("missing experiment name: syncsim %s [flags] EXP (experiments: %s)", c.Command.Name, known)
	case len(args) > 1:
		return nil, fmt.Errorf("expected one experiment name, got %d arguments: %s", len(args), strings.Join(args, " "))
	}
	return reg.Lookup(args[0])
}

// plan is a validated run or sweep, ready to execute.
type plan struct {
	exp       *experiments.Experiment
	points    []experiments.Params
	axes      []experiments.Axis
	trials    int
	seed      uint64
	parallel  int
	csvPath   string
	seriesDir string
	timing    bool
	check     bool
	resume    bool
}

// newPlan reads and checks the flags and arguments shared by run and
// sweep; varies are the --vary specifications (none for run).
func newPlan(c *cli.Context, reg *experiments.Registry, varies []string) (*plan, error) {
	e, err := experimentArg(c, reg)
	if err != nil {
		return nil, err
	}
	p := &plan{
		exp: e, trials: c.Int("trials"), seed: c.Uint64("seed"), parallel: c.Int("parallel"),
		csvPath: c.String("csv"), seriesDir: c.String("series-dir"),
		timing: c.Bool("timing"), check: c.Bool("check"), resume: c.Bool("resume"),
	}
	if p.trials < 1 {
		return nil, fmt.Errorf("--trials must be at least 1, got %d", p.trials)
	}
	if p.parallel < 1 {
		return nil, fmt.Errorf("--parallel must be at least 1, got %d", p.parallel)
	}
	if c.IsSet("csv") && p.csvPath == "" {
		return nil, fmt.Errorf("--csv needs a file name")
	}
	if c.IsSet("series-dir") && p.seriesDir == "" {
		return nil, fmt.Errorf("--series-dir needs a directory name")
	}
	if p.points, p.axes, err = experiments.Expand(e, c.StringSlice("set"), varies); err != nil {
		return nil, err
	}
	return p, nil
}

// output holds the open CSV and series destination of a plan.
type output struct {
	file      *os.File
	csv       *experiments.CSVWriter
	resume    *experiments.Resume
	seriesDir string
	exp       string
}

// open creates the outputs before anything runs, so a bad path fails
// early. With resume, rows already in the CSV are kept and skipped.
func (p *plan) open() (*output, error) {
	out := &output{seriesDir: p.seriesDir, exp: p.exp.Name}
	if p.seriesDir != "" {
		if err := prepareDir(p.seriesDir); err != nil {
			return nil, fmt.Errorf("--series-dir: %w", err)
		}
	}
	if p.csvPath == "" {
		return out, nil
	}
	header := true
	var err error
	if p.resume {
		out.file, out.resume, header, err = experiments.OpenResume(p.csvPath, p.exp, p.timing)
	} else {
		out.file, err = os.Create(p.csvPath)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot write CSV: %w", err)
	}
	out.csv = experiments.NewCSVWriter(out.file, p.exp, p.timing)
	if header {
		if err := out.csv.WriteHeader(); err != nil {
			out.file.Close()
			return nil, fmt.Errorf("%s: %w", p.csvPath, err)
		}
	}
	return out, nil
}

// prepareDir makes sure dir exists (creating it if its parent exists)
// and is writable.
func prepareDir(dir string) error {
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		return err
	}
	if st, err := os.Stat(dir); err != nil {
		return err
	} else if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	probe, err := os.CreateTemp(dir, ".syncsim-probe-*")
	if err != nil {
		return fmt.Errorf("%s is not writable: %w", dir, err)
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// write records one outcome in the CSV and the series directory.
func (o *output) write(oc *experiments.Outcome) error {
	if o.csv != nil {
		if err := o.csv.Write(oc); err != nil {
			return err
		}
	}
	if o.seriesDir != "" {
		return experiments.WriteSeries(o.seriesDir, o.exp, oc)
	}
	return nil
}

// close closes the CSV; its rows are already flushed. Closing twice is
// harmless.
func (o *output) close() error {
	if o.file == nil {
		return nil
	}
	f := o.file
	o.file = nil
	return f.Close()
}

// runner builds the grid runner of the plan.
func (p *plan) runner(out *output) *experiments.Runner {
	r := &experiments.Runner{
		Exp: p.exp, Points: p.points, Trials: p.trials, BaseSeed: p.seed, Parallel: p.parallel,
		Check: p.check, Series: p.seriesDir != "", Label: experiments.AxisNames(p.axes),
	}
	if out.resume != nil {
		rs := out.resume
		r.Skip = func(_, trial int, ps experiments.Params, seed uint64) bool { return rs.Has(ps, trial, seed) }
	}
	return r
}

// describePoint formats every parameter of ps as key=value.
func describePoint(e *experiments.Experiment, ps experiments.Params) string {
	vals := ps.Values()
	parts := make([]string, len(vals))
	for i, p := range e.Params {
		parts[i] = p.Name + "=" + vals[i]
	}
	return strings.Join(parts, " ")
}
