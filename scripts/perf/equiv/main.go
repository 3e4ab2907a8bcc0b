// Command equiv is the statistical equivalence check between two builds
// of syncsim (scripts/perf/equivalence.sh wraps it): it runs a fixed
// panel of parameter points over the same seeds on both builds and, for
// every metric, reports the paired shift seed by seed and a two-sample
// Mann-Whitney U test, and fails where a metric moves beyond its own
// seed-to-seed spread (the rule is in compare.go). An engine change that
// only reorders same-instant events must pass it; a model change does
// not (equiv_test.go shows both). docs/performance.md, "The equivalence
// check", says how to run it and what it costs.
//
//	go build -o /tmp/old ./cmd/syncsim   # at the old commit
//	go build -o /tmp/new ./cmd/syncsim   # at the new one
//	go run ./scripts/perf/equiv /tmp/old /tmp/new
//
// Flags may come before or after the two binaries. It writes, in -out
// (a new temporary directory by default): old/POINT.csv and
// new/POINT.csv, the sweeps; equivalence.csv, one row per point and
// metric (pandas.read_csv reads it); costs.csv, each sweep's CPU; and
// equivalence.txt, the table of every metric. On standard output it
// prints the summary per point and the table of the failing metrics.
// Exit status: 0 when every metric passes, 1 when some fail, 2 when the
// check could not run.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the check's settings.
type options struct {
	old, new string
	seeds    int
	parallel int
	panel    string
	points   string
	out      string
	all      bool
	rule     Rule
}

// parse reads the flags and the two binaries, in any order.
func parse(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("equiv", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: equiv [flags] OLD_BINARY NEW_BINARY")
		fs.PrintDefaults()
	}
	fs.IntVar(&o.seeds, "seeds", 10, "seeds 1..N of every point, on each build")
	fs.IntVar(&o.parallel, "parallel", min(runtime.NumCPU(), 8), "runs at a time within each sweep (the sweep's --parallel)")
	fs.StringVar(&o.panel, "panel", "full", "the panel: full (every engine change) or ci (the test's reduced one)")
	fs.StringVar(&o.points, "points", "", "only these points of the panel, a comma list (default: all)")
	fs.StringVar(&o.out, "out", "", "directory for the sweeps and the reports (default: a new temporary one)")
	fs.BoolVar(&o.all, "all", false, "print every metric's line, not only the failing ones")
	fs.Float64Var(&o.rule.Alpha, "alpha", 0.01, "a varying metric fails only where the U test's p-value is below this")
	fs.Float64Var(&o.rule.ConstTol, "const-tol", 1e-9, "relative tolerance of a metric constant across the old build's seeds")
	ignore := fs.String("ignore", "events", "metrics reported but not judged, a comma list (events: an engine change may move them)")
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != 2 {
		fs.Usage()
		return nil, fmt.Errorf("want two binaries, OLD and NEW, got %d arguments", len(pos))
	}
	o.old, o.new = pos[0], pos[1]
	for _, b := range pos {
		if st, err := os.Stat(b); err != nil || st.IsDir() {
			return nil, fmt.Errorf("%s is not a program", b)
		}
	}
	if o.seeds < 2 || o.seeds > 25 {
		return nil, fmt.Errorf("-seeds must be in [2, 25] (the U test is exact up to 25), got %d", o.seeds)
	}
	if o.parallel < 1 {
		return nil, fmt.Errorf("-parallel must be at least 1, got %d", o.parallel)
	}
	if !(o.rule.Alpha > 0 && o.rule.Alpha < 1) {
		return nil, fmt.Errorf("-alpha must be in (0, 1), got %v", o.rule.Alpha)
	}
	if !(o.rule.ConstTol >= 0) {
		return nil, fmt.Errorf("-const-tol must be at least 0, got %v", o.rule.ConstTol)
	}
	o.rule.Ignore = map[string]bool{}
	for _, m := range strings.Split(*ignore, ",") {
		if m = strings.TrimSpace(m); m != "" {
			o.rule.Ignore[m] = true
		}
	}
	return o, nil
}

// run is the command: 0 pass, 1 some metric failed, 2 the check could
// not run.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if err != nil {
		if err != flag.ErrHelp {
			fmt.Fprintln(stderr, "equiv:", err)
		}
		return 2
	}
	points, err := selectPoints(o.panel, o.points)
	if err != nil {
		fmt.Fprintln(stderr, "equiv:", err)
		return 2
	}
	if o.out == "" {
		if o.out, err = os.MkdirTemp("", "equiv-"); err != nil {
			fmt.Fprintln(stderr, "equiv:", err)
			return 2
		}
	} else if err := os.MkdirAll(o.out, 0o755); err != nil {
		fmt.Fprintln(stderr, "equiv:", err)
		return 2
	}
	vs, cs, err := check(o, points, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "equiv:", err)
		return 2
	}
	return report(o, points, vs, cs, stdout, stderr)
}

// check runs every point on both builds, old then new point by point
// (so that both see the same machine), and compares them.
func check(o *options, points []Point, stderr io.Writer) ([]Verdict, []Cost, error) {
	var vs []Verdict
	var cs []Cost
	for _, p := range points {
		old, err := runSweep(o.old, p, o.seeds, o.parallel, filepath.Join(o.out, "old"))
		if err != nil {
			return nil, nil, err
		}
		new, err := runSweep(o.new, p, o.seeds, o.parallel, filepath.Join(o.out, "new"))
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, Cost{p.Name, p.Exp, "old", o.seeds, old.CPU}, Cost{p.Name, p.Exp, "new", o.seeds, new.CPU})
		fmt.Fprintf(stderr, "equiv: %s: %d seeds, old %.1f CPU-s, new %.1f CPU-s\n", p.Name, o.seeds,
			old.CPU.Seconds(), new.CPU.Seconds())
		v, err := o.rule.comparePoint(p, old, new)
		if err != nil {
			return nil, nil, err
		}
		vs = append(vs, v...)
	}
	return vs, cs, nil
}

// report writes the CSVs and the full table into the output directory
// and the summary and failures on stdout; it returns the exit status.
func report(o *options, points []Point, vs []Verdict, cs []Cost, stdout, stderr io.Writer) int {
	if err := writeVerdicts(filepath.Join(o.out, "equivalence.csv"), vs); err != nil {
		fmt.Fprintln(stderr, "equiv:", err)
		return 2
	}
	if err := writeCosts(filepath.Join(o.out, "costs.csv"), cs); err != nil {
		fmt.Fprintln(stderr, "equiv:", err)
		return 2
	}
	f, err := os.Create(filepath.Join(o.out, "equivalence.txt"))
	if err != nil {
		fmt.Fprintln(stderr, "equiv:", err)
		return 2
	}
	writeTable(f, vs)
	if err := f.Close(); err != nil {
		fmt.Fprintln(stderr, "equiv:", err)
		return 2
	}
	fmt.Fprintf(stdout, "equivalence: %s against %s, panel %s, seeds 1-%d; rule: |median paired shift| > old IQR and U-test p < %g; constant metrics equal within %g (relative)\n",
		o.new, o.old, o.panel, o.seeds, o.rule.Alpha, o.rule.ConstTol)
	writeSummary(stdout, points, vs, cs)
	var bad []Verdict
	for _, v := range vs {
		if v.Verdict == verdictFail {
			bad = append(bad, v)
		}
	}
	if o.all {
		fmt.Fprintln(stdout)
		writeTable(stdout, vs)
	} else if len(bad) > 0 {
		fmt.Fprintln(stdout)
		writeTable(stdout, bad)
	}
	fmt.Fprintf(stdout, "\nreports in %s (equivalence.csv, equivalence.txt, costs.csv)\n", o.out)
	if len(bad) > 0 {
		fmt.Fprintf(stdout, "FAIL: %d of %d metrics moved beyond their seed-to-seed spread\n", len(bad), len(vs))
		return 1
	}
	fmt.Fprintf(stdout, "PASS: no metric moved beyond its seed-to-seed spread (%d metrics)\n", len(vs))
	return 0
}
