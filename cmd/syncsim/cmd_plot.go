package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"syncsim/experiments"
	"syncsim/plotting"
)

func plotCommand(reg *experiments.Registry) *cli.Command {
	return &cli.Command{
		Name:      "plot",
		Usage:     "draw a figure (SVG or PNG) from a sweep CSV",
		ArgsUsage: "FILE.csv...",
		Description: "Draws one metric (--y) over one parameter (--x) of a CSV that 'sweep' wrote,\n" +
			"summarised over trials: line (median, shaded min-max band; the default when every\n" +
			"x is a number), bar (median with min-max whiskers, grouped by series; the default\n" +
			"otherwise) or box (quartiles, whiskers to min and max). --series draws one line\n" +
			"or bar colour per value of a parameter, --facet one panel per value. Every other\n" +
			"parameter must take one value in the selected rows: fix one that varies with\n" +
			"--where k=v (or k=v1,v2 to keep several). Axis labels carry the unit in the\n" +
			"column name (ajct_ms: \"ajct (ms)\"). NaN values are skipped and counted in a note\n" +
			"under the figure. The format follows the extension of -o: .svg or .png.\n" +
			"Several CSVs of one experiment (two sweeps, a sweep and its extension) are\n" +
			"drawn as one.\n\n" +
			"  syncsim plot incast.csv --x senders --y goodput_gbps --series transport -o goodput.svg",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "x", Usage: "parameter on the x axis", Required: true},
			&cli.StringFlag{Name: "y", Usage: "metric on the y axis", Required: true},
			&cli.StringFlag{Name: "series", Usage: "parameter with one line or bar colour per value"},
			&cli.StringFlag{Name: "facet", Usage: "parameter with one panel per value"},
			&cli.StringFlag{Name: "kind", Usage: "line, bar or box (default: line for numeric x, bar otherwise)"},
			&cli.StringSliceFlag{Name: "where", Usage: "keep the rows with `k=v` (or k=v1,v2,...); repeatable, all must hold"},
			&cli.BoolFlag{Name: "log-x", Usage: "logarithmic x axis (line plots of positive x)"},
			&cli.BoolFlag{Name: "log-y", Usage: "logarithmic y axis (positive values)"},
			&cli.StringFlag{Name: "title", Usage: "figure title (default: the experiment and the --where filters)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "figure `FILE`, .svg or .png", Required: true},
			&cli.StringFlag{Name: "y-range", Usage: "fix the y axis to `LO:HI` (lines and bands clipped to it) instead of fitting the data"},
			&cli.StringFlag{Name: "from-series", Usage: "read the time series `NAME` (e.g. learning) of every run in the directory given instead of a CSV (written by sweep --series-dir); --x and --y name its columns"},
			&cli.Float64Flag{Name: "bin", Usage: "with --from-series: round the x column down to multiples of `W`, so that runs whose rows fall at different x share a cell"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing figure instead of refusing"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() < 1 {
				return errors.New("plot needs a CSV: syncsim plot FILE.csv... --x PARAM --y METRIC -o FIG.png (see 'syncsim plot --help')")
			}
			spec, err := plotSpec(c)
			if err != nil {
				return err
			}
			out := c.String("output")
			if _, err := plotting.FormatOf(out); err != nil {
				return err
			}
			if err := checkFigure(out, c.Bool("force")); err != nil {
				return err
			}
			t, err := readPlotTable(c, spec)
			if err != nil {
				return err
			}
			spec.Units = metricUnits(reg, t)
			f, err := plotting.Build(t, spec)
			if err != nil {
				return err
			}
			if err := f.Save(out); err != nil {
				return err
			}
			reportFigure(c.App.ErrWriter, out, f)
			return nil
		},
	}
}

// readPlotTable reads the sweep CSV, or with --from-series the named
// series of every run in a series directory (its x, series, facet and
// filter columns as parameters).
func readPlotTable(c *cli.Context, spec plotting.Spec) (*plotting.Table, error) {
	name := c.String("from-series")
	if name == "" {
		if c.IsSet("bin") {
			return nil, errors.New("--bin needs --from-series")
		}
		paths, err := expandPatterns(c.Args().Slice())
		if err != nil {
			return nil, err
		}
		return readTables(paths)
	}
	if c.NArg() != 1 {
		return nil, fmt.Errorf("--from-series reads one series directory, got %d arguments", c.NArg())
	}
	if c.Float64("bin") < 0 {
		return nil, fmt.Errorf("--bin %g: want a positive width", c.Float64("bin"))
	}
	keys := []string{spec.X, spec.Series, spec.Facet}
	for _, w := range spec.Where {
		keys = append(keys, w.Param)
	}
	return plotting.ReadSeriesDir(c.Args().First(), plotting.SeriesOptions{Name: name, Keys: keys, X: spec.X, Bin: c.Float64("bin")})
}

// plotSpec reads the figure flags of the plot command.
func plotSpec(c *cli.Context) (plotting.Spec, error) {
	kind, err := plotting.ParseKind(c.String("kind"))
	if err != nil {
		return plotting.Spec{}, fmt.Errorf("--kind: %w", err)
	}
	s := plotting.Spec{
		X: c.String("x"), Y: c.String("y"), Series: c.String("series"), Facet: c.String("facet"),
		Kind: kind, LogX: c.Bool("log-x"), LogY: c.Bool("log-y"), Title: c.String("title"),
	}
	if r := c.String("y-range"); r != "" {
		lo, hi, ok := strings.Cut(r, ":")
		a, err1 := strconv.ParseFloat(lo, 64)
		b, err2 := strconv.ParseFloat(hi, 64)
		if !ok || err1 != nil || err2 != nil || !(a < b) || math.IsInf(a, 0) || math.IsInf(b, 0) || (s.LogY && a <= 0) {
			return plotting.Spec{}, fmt.Errorf("--y-range %q: want LO:HI with LO < HI (both positive on a log axis)", r)
		}
		s.YMin, s.YMax, s.YRange = a, b, true
	}
	for _, w := range c.StringSlice("where") {
		f, err := plotting.ParseFilter(w)
		if err != nil {
			return plotting.Spec{}, err
		}
		s.Where = append(s.Where, f)
	}
	return s, nil
}

// metricUnits returns the units the table's experiment declares for its
// metrics, so axes follow the schema where a name's suffix would mislead
// (ina-model's model_s counts packets). A CSV of an experiment this
// program does not know keeps the units read from the column names.
func metricUnits(reg *experiments.Registry, t *plotting.Table) map[string]string {
	e, err := reg.Lookup(t.Experiment())
	if err != nil {
		return nil
	}
	return unitsOf(e)
}

// unitsOf returns the declared unit of each of e's metrics.
func unitsOf(e *experiments.Experiment) map[string]string {
	units := make(map[string]string, len(e.Metrics))
	for _, m := range e.Metrics {
		units[m.Name] = m.Unit
	}
	return units
}

// readTables reads the CSVs of one experiment as one table.
func readTables(paths []string) (*plotting.Table, error) {
	var t *plotting.Table
	for i, p := range paths {
		if slices.Contains(paths[:i], p) {
			return nil, fmt.Errorf("%s is given twice", p)
		}
		u, err := plotting.ReadFile(p)
		if err != nil {
			return nil, err
		}
		switch {
		case t == nil:
			t = u
			continue
		case !slices.Equal(t.Header, u.Header):
			return nil, fmt.Errorf("%s and %s have different columns; draw files of one experiment and one set of metrics", paths[0], p)
		case len(u.Rows) > 0 && len(t.Rows) > 0 && u.Experiment() != t.Experiment():
			return nil, fmt.Errorf("%s holds %s, %s holds %s", paths[0], t.Experiment(), p, u.Experiment())
		}
		t.Rows = append(t.Rows, u.Rows...)
		t.Line = append(t.Line, u.Line...)
		t.Source += ", " + p
	}
	return t, nil
}

// checkFigure applies the CSV's --force rule to a figure: an existing
// file is replaced only with force.
func checkFigure(path string, force bool) error {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil
	case st.IsDir():
		return fmt.Errorf("-o %s is a directory; -o names the figure file", path)
	case !force:
		return fmt.Errorf("%s exists; replace it with --force", path)
	}
	return nil
}

// reportFigure prints what was drawn, with the note on skipped values.
func reportFigure(w io.Writer, path string, f *plotting.Figure) {
	fmt.Fprintf(w, "wrote %s: %s of %s over %s, %d rows", path, f.Kind, f.Spec.Y, f.Spec.X, f.Rows)
	if f.Skipped > 0 {
		fmt.Fprintf(w, " (%d NaN or infinite values not drawn)", f.Skipped)
	}
	fmt.Fprintln(w)
}

// plotDirFlag is sweep's --plot flag.
func plotDirFlag() cli.Flag {
	return &cli.StringFlag{Name: "plot", Usage: "when the sweep ends, write one PNG per metric into `DIR` (x: first varied parameter, series: second, facet: third)"}
}

// checkSweepPlot checks, before a sweep runs, that its --plot figures can
// be drawn: one to three parameters vary, DIR is a directory or can be
// made one, and no figure it would write exists unless --force (or
// --resume, which completes the CSV the figures are drawn from) says to
// replace it. DIR itself is made when the sweep has ended.
func checkSweepPlot(c *cli.Context, p *plan) error {
	if !c.IsSet("plot") {
		return nil
	}
	dir := c.String("plot")
	if dir == "" {
		return errors.New("--plot needs a directory name")
	}
	varied := variedAxes(p)
	switch {
	case len(varied) == 0:
		return errors.New("--plot: no parameter varies (a figure needs a --vary with two or more values)")
	case len(varied) > 3:
		return fmt.Errorf("--plot: %d parameters vary (%s); a figure shows at most three (x, series, facet): "+
			"sweep without --plot and draw with 'syncsim plot --where'", len(varied), strings.Join(varied, ", "))
	}
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return fmt.Errorf("--plot %s is not a directory", dir)
	case err != nil:
		up := filepath.Dir(filepath.Clean(dir))
		parent, perr := os.Stat(up)
		if perr != nil || !parent.IsDir() {
			return fmt.Errorf("--plot %s: its parent directory %s does not exist", dir, up)
		}
		return nil
	}
	if p.force || p.resume {
		return nil
	}
	var there []string
	for _, m := range p.exp.Metrics {
		if _, err := os.Stat(sweepFigure(dir, p.exp.Name, m.Name)); err == nil {
			there = append(there, filepath.Base(sweepFigure(dir, p.exp.Name, m.Name)))
		}
	}
	if len(there) > 0 {
		return fmt.Errorf("--plot %s already holds %d figures of %s (%s); replace them with --force, or use another directory",
			dir, len(there), p.exp.Name, there[0])
	}
	return nil
}

// sweepFigure is the figure of metric m that --plot writes.
func sweepFigure(dir, exp, m string) string { return filepath.Join(dir, exp+"_"+m+".png") }

// variedAxes returns the parameters that --vary gives two or more values,
// in --vary order.
func variedAxes(p *plan) []string {
	var out []string
	for _, a := range p.grid.Axes() {
		if len(a.Values) > 1 {
			out = append(out, a.Name)
		}
	}
	return out
}

// plotSweep writes one figure per metric of the finished sweep's CSV into
// the --plot directory: the first varied parameter on x, the second as
// series, the third as facets; a line for numeric x, bars otherwise.
// A metric with no finite value is skipped with a note.
func plotSweep(c *cli.Context, p *plan) error {
	if !c.IsSet("plot") {
		return nil
	}
	dir := c.String("plot")
	t, err := plotting.ReadFile(p.csvPath)
	if err != nil {
		return fmt.Errorf("--plot: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--plot: %w", err)
	}
	varied := variedAxes(p)
	spec := plotting.Spec{X: varied[0], Units: unitsOf(p.exp)}
	if len(varied) > 1 {
		spec.Series = varied[1]
	}
	if len(varied) > 2 {
		spec.Facet = varied[2]
	}
	var wrote, skipped []string
	for _, m := range t.Metrics {
		spec.Y = m
		f, err := plotting.Build(t, spec)
		if err != nil {
			if errors.Is(err, plotting.ErrNothingToDraw) {
				skipped = append(skipped, m)
				continue
			}
			return fmt.Errorf("--plot: %s: %w", m, err)
		}
		path := sweepFigure(dir, p.exp.Name, m)
		if err := f.Save(path); err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
		wrote = append(wrote, path)
	}
	fmt.Fprintf(c.App.ErrWriter, "wrote %d figures to %s", len(wrote), dir)
	if len(skipped) > 0 {
		fmt.Fprintf(c.App.ErrWriter, " (no finite values, not drawn: %s)", strings.Join(skipped, ", "))
	}
	fmt.Fprintln(c.App.ErrWriter)
	return nil
}
