package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
	"syncsim/plotting"
	"syncsim/summary"
)

func summariseCommand(reg *experiments.Registry) *cli.Command {
	return &cli.Command{
		Name:      "summarise",
		Aliases:   []string{"summarize"},
		Usage:     "tabulate a sweep CSV: median [min-max] over trials per point, paired changes against a baseline",
		ArgsUsage: "FILE.csv...",
		Description: "Reads the CSVs of one experiment (a sweep, merged shards, several sweeps of\n" +
			"one experiment) and prints, for every point of the parameters that vary, the\n" +
			"median [min-max] over trials of each --metric (default: the experiment's\n" +
			"headline metrics, as 'syncsim describe EXP' lists them; --metric all: every\n" +
			"metric; either way less those undefined in every row). With\n" +
			"--vs k=v every other value X of parameter k is compared with v seed by seed\n" +
			"(X / v; trial t of a point runs with the same seed at every value of k, so the\n" +
			"comparison is paired), with --of k=v the value v with every other one (v / X);\n" +
			"several --vs (or --of) make a joint baseline of several parameters;\n" +
			"--change percent writes 100 (a / b - 1); --count-below v adds to each change\n" +
			"on how many seeds it lies below v (\"7/10 below\"). k's values become columns, as\n" +
			"--columns k does without comparing. A NaN (a run that did not finish or a\n" +
			"metric without a value) is left out and counted (--undefined names it).\n" +
			"Markdown by default, tidy CSV with --format csv.\n\n" +
			"EXAMPLES:\n" +
			"   syncsim summarise incast.csv --metric goodput_gbps,queue_max_pkts\n" +
			"   syncsim summarise t3.csv --metric comm_time_ms --vs scheme=allreduce\n" +
			"   syncsim summarise tta.csv --metric tta_s --of scheme=dssync --changes-only --count-below 1\n" +
			"   syncsim summarise fig12.csv fig13.csv --metric ajct_ms --of protocol=pa-atp --change percent --undefined unfinished\n" +
			"   syncsim summarise fig56.csv --metric avg_sync_time_s --columns scheme --where trace=cnn\n" +
			"   syncsim summarise fig5.csv --metric rounds_per_worker --where scheme=crew --of split=n-a --of scheduling=fl\n" +
			"   syncsim summarise ls.csv --format csv > ls-summary.csv",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "metric", Usage: "metric `m` to report (repeatable or m1,m2,...; default: the experiment's headline metrics; all: every metric)"},
			&cli.StringSliceFlag{Name: "where", Usage: "keep the rows with `k=v` (or k=v1,v2,...; k may be seed); repeatable, all must hold"},
			&cli.StringSliceFlag{Name: "vs", Usage: "compare every other value of parameter k with `k=v`, seed by seed (X / v); repeat for a joint baseline of several parameters"},
			&cli.StringSliceFlag{Name: "of", Usage: "compare `k=v` with every other value of k, seed by seed (v / X); repeatable as --vs"},
			&cli.StringSliceFlag{Name: "columns", Usage: "put the values of `PARAM` in columns (repeatable or p1,p2: their combinations)"},
			&cli.Float64Flag{Name: "count-below", Usage: "with --vs or --of, count in each change's cell the seeds whose change is below `v` (1 for a ratio, 0 for percent): on how many seeds a claim holds"},
			&cli.BoolFlag{Name: "changes-only", Usage: "with --vs or --of, print the baseline's values and the changes, not the other values"},
			&cli.StringFlag{Name: "change", Value: "ratio", Usage: "paired changes as ratio (a / b) or percent (100 (a / b - 1))"},
			&cli.StringFlag{Name: "undefined", Value: "NaN", Usage: "what to call an undefined (NaN) value in cells, such as unfinished"},
			&cli.IntFlag{Name: "digits", Value: 3, Usage: "significant digits of non-integer values in Markdown, 1 to 17"},
			&cli.StringFlag{Name: "format", Value: "markdown", Usage: "markdown or csv"},
			&cli.StringSliceFlag{Name: "missing", Usage: "`k=v`: the runs of a CSV without parameter column k (one of an earlier build) ran with k=v, so it reads with CSVs that have k (repeatable)"},
		},
		Action: func(c *cli.Context) error {
			spec, style, err := summarySpec(c)
			if err != nil {
				return err
			}
			format := c.String("format")
			if format != "markdown" && format != "csv" {
				return fmt.Errorf("--format %q: want markdown or csv", format)
			}
			paths, err := expandPatterns(c.Args().Slice())
			if err != nil {
				return err
			}
			if len(paths) == 0 {
				return errors.New("summarise needs a CSV: syncsim summarise FILE.csv... (see 'syncsim summarise --help')")
			}
			var tables []*plotting.Table
			for _, p := range paths {
				t, err := plotting.ReadFile(p)
				if err != nil {
					return err
				}
				incompleteNote(c.App.ErrWriter, p, len(t.Rows))
				tables = append(tables, t)
			}
			missing, err := missingValues(c.StringSlice("missing"))
			if err != nil {
				return err
			}
			d, err := summary.FromTablesMissing(missing, tables...)
			if err != nil {
				return err
			}
			if spec.DropUndefined && !slices.Contains(strings.Split(strings.Join(c.StringSlice("metric"), ","), ","), allMetrics) {
				spec.Metrics = headlineMetrics(reg, d)
			}
			tb, err := d.Summarise(spec)
			if err != nil {
				return err
			}
			if spec.DropUndefined {
				metricsNote(c.App.ErrWriter, d, tb)
			}
			if format == "csv" {
				return tb.CSV(c.App.Writer)
			}
			return tb.Markdown(c.App.Writer, style)
		},
	}
}

// missingValues reads --missing k=v flags.
func missingValues(flags []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range flags {
		k, v, ok := strings.Cut(f, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--missing %q: want k=v, a parameter and the value the runs without its column ran with", f)
		}
		if prev, dup := out[k]; dup && prev != v {
			return nil, fmt.Errorf("--missing %s given twice (%s and %s)", k, prev, v)
		}
		out[k] = v
	}
	return out, nil
}

// summarySpec reads the summarise flags.
func summarySpec(c *cli.Context) (summary.Spec, summary.Style, error) {
	var spec summary.Spec
	style := summary.Style{Digits: c.Int("digits"), Undefined: c.String("undefined"), ChangesOnly: c.Bool("changes-only")}
	if d := c.Int("digits"); d < 1 || d > 17 {
		return spec, style, fmt.Errorf("--digits must be in [1, 17], got %d", d)
	}
	if strings.TrimSpace(style.Undefined) == "" {
		return spec, style, errors.New("--undefined needs a word, such as unfinished")
	}
	all := false
	for _, m := range c.StringSlice("metric") {
		for _, name := range strings.Split(m, ",") {
			switch name {
			case "":
				return spec, style, fmt.Errorf("--metric %q: empty name in the list", m)
			case allMetrics:
				all = true
			default:
				spec.Metrics = append(spec.Metrics, name)
			}
		}
	}
	if all && len(spec.Metrics) > 0 {
		return spec, style, fmt.Errorf("--metric %s names every metric; give it alone", allMetrics)
	}
	spec.DropUndefined = len(spec.Metrics) == 0
	for _, w := range c.StringSlice("where") {
		f, err := summary.ParseFilter(w)
		if err != nil {
			return spec, style, err
		}
		spec.Where = append(spec.Where, f)
	}
	if c.IsSet("vs") && c.IsSet("of") {
		return spec, style, errors.New("--vs and --of both name a baseline; give one")
	}
	for _, flag := range []string{"vs", "of"} {
		if c.IsSet(flag) {
			cmp, err := summary.ParseCompare(flag, c.StringSlice(flag))
			if err != nil {
				return spec, style, err
			}
			spec.Compare = cmp
		}
	}
	for _, cols := range c.StringSlice("columns") {
		for _, p := range strings.Split(cols, ",") {
			if p == "" {
				return spec, style, fmt.Errorf("--columns %q: empty name in the list", cols)
			}
			spec.Columns = append(spec.Columns, p)
		}
	}
	var err error
	if spec.Change, err = summary.ParseChange(c.String("change")); err != nil {
		return spec, style, err
	}
	if (c.IsSet("change") || style.ChangesOnly || c.IsSet("count-below")) && spec.Compare == nil {
		return spec, style, errors.New("--change, --changes-only and --count-below are about paired changes; give the baseline with --vs k=v or --of k=v")
	}
	if c.IsSet("count-below") {
		v := c.Float64("count-below")
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return spec, style, fmt.Errorf("--count-below %v: want a finite number, such as 1 for a ratio", v)
		}
		spec.Count, spec.Threshold = true, v
	}
	return spec, style, nil
}

// incompleteNote says on stderr when a CSV holds fewer rows than the
// sweep its sidecar describes (an interrupted sweep, or a shard), so a
// table of a partial file is not taken for the whole.
func incompleteNote(w io.Writer, path string, rows int) {
	pv, err := experiments.ReadSidecar(path)
	if err != nil || pv.Points <= 0 || pv.Trials <= 0 {
		return
	}
	want := pv.Points * pv.Trials
	if pv.Shard != nil && pv.Shard.Count > 1 {
		want = (want - (pv.Shard.Index - 1) + pv.Shard.Count - 1) / pv.Shard.Count
	}
	if rows < want {
		fmt.Fprintf(w, "syncsim: note: %s holds %d of the %d rows its sweep writes; continue it with the same command and --resume (its sidecar %s has the command)\n",
			path, rows, want, experiments.SidecarPath(path))
	}
}

// allMetrics is the --metric value that asks for every metric.
const allMetrics = "all"

// headlineMetrics are the metrics of a summary that names none (no
// --metric): the headline metrics of d's experiment as its registration
// names them (Experiment.Headline) that the files hold, in that order;
// none (so every metric) for an experiment this program does not know or
// files that hold none of them. The summary then leaves out a metric
// undefined in every row (Spec.DropUndefined).
func headlineMetrics(reg *experiments.Registry, d *summary.Data) []string {
	e, err := reg.Lookup(d.Experiment)
	if err != nil {
		return nil
	}
	var out []string
	for _, m := range e.Headline {
		if slices.Contains(d.Metrics, m) {
			out = append(out, m)
		}
	}
	return out
}

// metricsNote says on stderr which metrics a summary without --metric
// reports and which it left out, so a reader knows there is more.
func metricsNote(w io.Writer, d *summary.Data, tb *summary.Table) {
	var parts []string
	if len(tb.Metrics)+len(tb.Dropped) < len(d.Metrics) {
		parts = append(parts, fmt.Sprintf("the headline metrics of %s (--metric all: all %d of the file's metrics)", d.Experiment, len(d.Metrics)))
	}
	if len(tb.Dropped) > 0 {
		parts = append(parts, "left out as undefined in every row: "+strings.Join(tb.Dropped, ", "))
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "syncsim: note: %s\n", strings.Join(parts, "; "))
	}
}
