package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
)

// plan is a validated run or sweep, ready to execute.
type plan struct {
	cmd           string // "run" or "sweep"
	exp           *experiments.Experiment
	grid          *experiments.Grid
	given         []string // parameters given explicitly (flags or scenario)
	trials        int
	seed          uint64
	parallel      int
	threads       int  // threads of each run (the parallel engine)
	engineProfile bool // print the parallel engine's report of each run
	csvPath       string
	seriesDir     string
	tracePath     string
	timing        bool
	check         bool
	resume        bool
	force         bool
	quiet         bool
	stall         float64 // simulated seconds, 0: off
	every         time.Duration
	shard         int // 0-based
	shards        int // 0: not sharded
	args          []string
}

// experimentArg returns the experiment named by the single positional
// argument; fallback names it when there is none (a scenario file's).
func experimentArg(c *cli.Context, reg *experiments.Registry, fallback string) (*experiments.Experiment, error) {
	args := c.Args().Slice()
	switch {
	case len(args) == 0 && fallback != "":
		return reg.Lookup(fallback)
	case len(args) == 0:
		known := strings.Join(reg.Names(), ", ")
		if known == "" {
			known = "none registered"
		}
		return nil, fmt.Errorf("missing experiment name: syncsim %s [flags] EXP (experiments: %s)", c.Command.Name, known)
	case len(args) > 1:
		return nil, fmt.Errorf("expected one experiment name, got %d arguments: %s", len(args), strings.Join(args, " "))
	case fallback != "" && args[0] != fallback:
		return nil, fmt.Errorf("the command names experiment %s but the scenario file %s", args[0], fallback)
	}
	return reg.Lookup(args[0])
}

// newPlan reads and checks everything a run or sweep needs before any
// file is touched: the experiment, the scenario file, the flags, every
// point of the grid (the experiment's own checks included), and the
// outputs. varies are the --vary specifications (none for run).
func newPlan(c *cli.Context, reg *experiments.Registry, varies []string) (*plan, error) {
	var sc *scenario
	if c.IsSet("scenario") {
		var err error
		if sc, err = loadScenario(c.String("scenario")); err != nil {
			return nil, err
		}
	}
	fallback := ""
	if sc != nil {
		fallback = sc.experiment
		if fallback == "" && c.Args().Len() == 0 {
			return nil, fmt.Errorf("%s names no experiment (experiment = \"...\") and the command none either", sc.path)
		}
	}
	e, err := experimentArg(c, reg, fallback)
	if err != nil {
		if sc != nil && c.Args().Len() == 0 {
			err = fmt.Errorf("%s%w", sc.at("experiment"), err)
		}
		return nil, err
	}
	p := &plan{
		cmd: c.Command.Name, exp: e, trials: c.Int("trials"), seed: c.Uint64("seed"), parallel: c.Int("parallel"),
		threads: c.Int("threads"), engineProfile: c.Bool("engine-profile"),
		csvPath: c.String("csv"), seriesDir: c.String("series-dir"), tracePath: c.String("trace"),
		timing: c.Bool("timing"), check: c.Bool("check"), resume: c.Bool("resume"), force: c.Bool("force"),
		quiet: c.Bool("quiet"), stall: c.Float64("stall-ms") / 1e3, every: c.Duration("progress-every"),
		args: commandLine(c),
	}
	if sc != nil {
		if sc.trials != nil && !c.IsSet("trials") {
			p.trials = *sc.trials
		}
		if sc.seed != nil && !c.IsSet("seed") {
			p.seed = *sc.seed
		}
	}
	if err := p.checkFlags(c); err != nil {
		return nil, err
	}
	sets, vars, err := mergeSettings(e, sc, c.StringSlice("set"), varies)
	if err != nil {
		return nil, err
	}
	if p.grid, err = experiments.Expand(e, sets, vars); err != nil {
		return nil, err
	}
	p.given = givenNames(p.grid, sets, vars)
	if err := p.grid.CheckRelevance(p.given); err != nil {
		return nil, err
	}
	if err := p.grid.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", e.Name, err)
	}
	if err := experiments.ThreadsRefusal(e, p.threads, p.grid); err != nil {
		return nil, fmt.Errorf("--threads %d: %w", p.threads, err)
	}
	if p.cmd == "sweep" {
		if p.shard, p.shards, err = shardOf(c, os.Getenv); err != nil {
			return nil, err
		}
		// When the batch system chose the count (an array sized before the
		// grid was known), the tasks past the last run write an empty shard,
		// so the array and the merge still complete; a count given by hand
		// that leaves shards empty is a mistake.
		if jobs := p.grid.Len() * p.trials; p.shards > jobs && !fromBatch(c) {
			return nil, fmt.Errorf("%d shards: the sweep has only %d runs (%d points x %d trials), so shards past %d would have nothing to run; split it into at most %d",
				p.shards, jobs, p.grid.Len(), p.trials, jobs, jobs)
		}
		if p.shards > 0 {
			p.csvPath = shardPath(p.csvPath, p.shard, p.shards)
		}
	}
	if p.shards == 0 && (strings.Contains(p.csvPath, "{shard}") || strings.Contains(p.csvPath, "{shards}")) {
		return nil, fmt.Errorf("--csv %s: {shard} and {shards} name the shard of a sharded sweep, and this %s is not one (give --shard I/N, or name the file)", p.csvPath, p.cmd)
	}
	if err := p.checkOutputs(); err != nil {
		return nil, err
	}
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	c.App.Metadata["plan"] = p // for tools and tests that drive the app
	return p, nil
}

// dryRun says what the plan would run and write (--dry-run), after the
// one check that open would otherwise do: that --resume can continue the
// CSV.
func (p *plan) dryRun(w io.Writer, c *cli.Context) error {
	if p.resume {
		if err := experiments.CheckResume(p.csvPath, p.sweepOf(), p.provenance()); err != nil {
			return err
		}
	}
	runs := fmt.Sprintf("%d points x %s = %d runs", p.grid.Len(), plural(p.trials, "trial"), p.grid.Len()*p.trials)
	if p.grid.Len() == 1 {
		runs = plural(p.trials, "trial")
	}
	if p.shards > 0 {
		r := p.runner(&output{})
		runs += fmt.Sprintf(", of which shard %d/%d runs %d", p.shard+1, p.shards, r.Total())
	}
	var writes []string
	if p.csvPath != "" {
		writes = append(writes, p.csvPath, experiments.SidecarPath(p.csvPath))
	}
	if p.seriesDir != "" {
		writes = append(writes, "series in "+p.seriesDir)
	}
	if p.tracePath != "" {
		writes = append(writes, p.tracePath, commPath(p.tracePath))
	}
	if fct := p.fctFiles(); len(fct) == 1 {
		writes = append(writes, fct[0])
	} else if len(fct) > 1 {
		writes = append(writes, fmt.Sprintf("%d fct.txt files (%s, ...)", len(fct), fct[0]))
	}
	if c.IsSet("plot") {
		writes = append(writes, "figures in "+c.String("plot"))
	}
	what := "would print the summary table"
	if len(writes) > 0 {
		what = "would write " + strings.Join(writes, ", ")
	}
	fmt.Fprintf(w, "dry run: %s %s, %s; %s; nothing was run or written\n", p.cmd, p.exp.Name, runs, what)
	p.printCost(w)
	return nil
}

// commandLine returns the command line the application was run with
// (dispatch records it), for provenance and resume hints.
func commandLine(c *cli.Context) []string {
	if a, ok := c.App.Metadata["args"].([]string); ok {
		return append([]string(nil), a...)
	}
	return append([]string(nil), os.Args...)
}

// checkFlags checks the values of the flags shared by run and sweep.
func (p *plan) checkFlags(c *cli.Context) error {
	switch {
	case p.trials < 1 || p.trials > experiments.MaxTrials:
		if p.trials < 1 {
			return fmt.Errorf("--trials must be at least 1, got %d", p.trials)
		}
		return fmt.Errorf("--trials must be at most %d, got %d; split the study", experiments.MaxTrials, p.trials)
	case p.parallel < 1:
		return fmt.Errorf("--parallel must be at least 1, got %d", p.parallel)
	case p.parallel > experiments.MaxParallel:
		return fmt.Errorf("--parallel must be at most %d, got %d", experiments.MaxParallel, p.parallel)
	case p.threads < 1 || p.threads > experiments.MaxThreads:
		return fmt.Errorf("--threads must be in [1, %d], got %d", experiments.MaxThreads, p.threads)
	case p.threads > 1 && !p.exp.Threads && p.exp.Engine == "":
		return fmt.Errorf("--threads %d: %s runs on the sequential engine only; the parallel engine runs %s", p.threads, p.exp.Name, experiments.ThreadedHint)
	case p.seed > ^uint64(0)-uint64(p.trials-1):
		return fmt.Errorf("--seed %d with --trials %d passes the largest seed %d (trial t runs with seed+t)", p.seed, p.trials, ^uint64(0))
	case c.IsSet("csv") && p.csvPath == "":
		return errors.New("--csv needs a file name")
	case c.IsSet("series-dir") && p.seriesDir == "":
		return errors.New("--series-dir needs a directory name")
	case c.IsSet("trace") && p.tracePath == "":
		return errors.New("--trace needs a file name")
	case p.resume && p.csvPath == "":
		return errors.New("--resume continues the file given with --csv; give it")
	case p.resume && p.tracePath != "":
		return errors.New("--trace records the runs of one command, and --resume runs only some; give one")
	case p.resume && p.force:
		return errors.New("--resume keeps the CSV and --force replaces it; give one")
	case !(p.stall >= 0):
		return fmt.Errorf("--stall-ms must be at least 0, got %g", c.Float64("stall-ms"))
	case p.every < 0:
		return fmt.Errorf("--progress-every must be at least 0, got %v", p.every)
	}
	return nil
}

// mergeSettings combines the scenario file's settings with the flags'
// (the flags win, parameter by parameter), checking the file's entries
// with the file's line in any message.
func mergeSettings(e *experiments.Experiment, sc *scenario, sets, varies []string) ([]string, []string, error) {
	flagKey := map[string]bool{}
	for _, s := range append(append([]string(nil), sets...), varies...) {
		k, _, _ := strings.Cut(s, "=")
		flagKey[strings.TrimSpace(k)] = true
	}
	var outSets, outVaries []string
	if sc != nil {
		for _, s := range sc.sets {
			k, v, _ := strings.Cut(s, "=")
			if _, err := e.ParseValue(k, v); err != nil {
				return nil, nil, fmt.Errorf("%s%v", sc.at("set."+k), err)
			}
			if !flagKey[k] {
				outSets = append(outSets, s)
			}
		}
		for _, s := range sc.varies {
			k, _, _ := strings.Cut(s, "=")
			if _, err := experiments.ParseAxis(e, s); err != nil {
				return nil, nil, fmt.Errorf("%s%v", sc.at("vary."+k), err)
			}
			if !flagKey[k] {
				outVaries = append(outVaries, s)
			}
		}
	}
	return append(outSets, sets...), append(outVaries, varies...), nil
}

// givenNames lists the parameters given explicitly whose values differ
// from the defaults somewhere in the grid: only those can be refused as
// having no effect (a template that lists every default still runs).
func givenNames(g *experiments.Grid, sets, varies []string) []string {
	e := g.Experiment()
	def := e.Defaults()
	var out []string
	for _, s := range sets {
		k, _, _ := strings.Cut(s, "=")
		k = strings.TrimSpace(k)
		if g.Base().Text(k) != def.Text(k) {
			out = append(out, k)
		}
	}
	for _, ax := range g.Axes() {
		if len(ax.Values) > 1 || ax.Values[0] != def.Text(ax.Name) {
			out = append(out, ax.Name)
		}
	}
	return out
}

// sweepOf is the sweep the plan runs, for resume and merge checks.
func (p *plan) sweepOf() *experiments.Sweep {
	return &experiments.Sweep{Grid: p.grid, Seed: p.seed, Trials: p.trials, Timing: p.timing,
		Shard: p.shard, Shards: p.shards, SeriesDir: p.seriesDir, Keep: p.cmd == "run"}
}

// provenance is the sidecar of the plan's CSV.
func (p *plan) provenance() *experiments.Provenance {
	pv := experiments.NewProvenance(experiments.ThisProgram(version, commit), p.args, p.grid, p.seed, p.trials, p.timing)
	if p.shards > 0 {
		pv.Shard = &experiments.ShardID{Index: p.shard + 1, Count: p.shards}
	}
	return pv
}

// runner builds the grid runner of the plan.
func (p *plan) runner(out *output) *experiments.Runner {
	r := &experiments.Runner{
		Exp: p.exp, Points: p.grid, Trials: p.trials, BaseSeed: p.seed, Parallel: p.parallel,
		Threads: p.threads, EngineProfile: p.engineProfile,
		Check: p.check, Series: p.seriesDir != "", Trace: p.tracePath != "", SeriesDir: p.seriesDir, Label: experiments.AxisNames(p.grid.Axes()),
		Shard: p.shard, Shards: p.shards, Stall: p.stall, FCTFile: p.fctFile,
	}
	if out.resume != nil {
		r.Done, r.DoneCount = out.resume.Done, out.resume.Rows()
	}
	return r
}

// describePoint formats every parameter of ps as key=value, with the
// values automatic parameters resolved to in o (when given).
func describePoint(e *experiments.Experiment, ps experiments.Params, o *experiments.Outcome) string {
	parts := make([]string, len(e.Params))
	for i, p := range e.Params {
		v := ps.Text(p.Name)
		if o != nil {
			v = o.Value(p.Name)
		}
		parts[i] = p.Name + "=" + v
	}
	return strings.Join(parts, " ")
}

// resumeHint is the command that continues an interrupted command: the
// same arguments with --resume (and without --force).
func (p *plan) resumeHint() string {
	var parts []string
	for _, a := range p.args {
		if a == "--force" || a == "-force" || a == "--resume" || a == "-resume" {
			continue
		}
		parts = append(parts, shellQuote(a))
	}
	if len(parts) > 0 {
		parts[0] = filepath.Base(parts[0])
	}
	return strings.Join(append(parts, "--resume"), " ")
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
