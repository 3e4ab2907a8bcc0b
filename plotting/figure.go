package plotting

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/montanaflynn/stats"
)

// Level is one value of a parameter as it appears in the CSV, with its
// number when it parses as one.
type Level struct {
	Text  string
	Value float64
}

// Cell summarises one metric over the trials of one (facet, series, x).
type Cell struct {
	// Values are the finite values, sorted ascending.
	Values []float64
	// Skipped counts the trials whose value was NaN or infinite.
	Skipped int
	// Median, Min and Max of Values; Q1 and Q3 are the 25th and 75th
	// percentiles (linear interpolation between closest ranks, NumPy's
	// default). All are NaN when Values is empty.
	Median, Min, Max, Q1, Q3 float64
}

// Figure is the data of a figure: the selected rows grouped by facet,
// series and x, and summarised over trials.
type Figure struct {
	Spec Spec
	// Experiment is the experiment the rows come from.
	Experiment string
	// Kind is the kind drawn (Spec.Kind, or the default it stands for).
	Kind Kind
	// XNumeric is true when every x value is a number: the levels are then
	// sorted by value (otherwise they keep their order of first appearance).
	XNumeric bool
	// X, Series and Facets are the levels of each, in drawing order.
	// Series and Facets hold one empty level when the Spec leaves them out.
	X, Series, Facets []Level
	// Rows is the number of CSV rows selected.
	Rows int
	// Skipped counts the selected values that are NaN or infinite.
	Skipped int
	// TrialsMin and TrialsMax bound the number of rows per cell.
	TrialsMin, TrialsMax int

	cells map[[3]string]*Cell
}

// Cell returns the summary of (facet, series, x), or nil if no row has
// that combination.
func (f *Figure) Cell(facet, series, x string) *Cell { return f.cells[[3]string{facet, series, x}] }

// ErrNothingToDraw is wrapped by Build's error when every selected value
// of the metric is NaN or infinite.
var ErrNothingToDraw = errors.New("nothing to draw")

// Build selects the rows of t that the Spec asks for, checks that no
// other parameter varies among them, and summarises the metric per cell.
func Build(t *Table, s Spec) (*Figure, error) {
	if err := checkColumns(t, s); err != nil {
		return nil, err
	}
	rows, err := selectRows(t, s.Where)
	if err != nil {
		return nil, err
	}
	if err := checkPooling(t, s, rows); err != nil {
		return nil, err
	}
	f := &Figure{Spec: s, Rows: len(rows), cells: map[[3]string]*Cell{}}
	exps := t.distinct(rows, "experiment")
	if len(exps) > 1 {
		return nil, fmt.Errorf("%s holds rows of several experiments (%s); plot one at a time", t.Source, strings.Join(exps, ", "))
	}
	f.Experiment = exps[0]
	f.X, f.XNumeric = levels(t, rows, s.X)
	f.Series, _ = levels(t, rows, s.Series)
	f.Facets, _ = levels(t, rows, s.Facet)
	f.Kind = s.Kind
	if f.Kind == "" {
		f.Kind = Bar
		if f.XNumeric {
			f.Kind = Line
		}
	}
	if s.LogX && f.Kind != Line {
		return nil, fmt.Errorf("a logarithmic x axis needs a line plot (x is categorical for %s)", f.Kind)
	}
	if s.LogX {
		if !f.XNumeric {
			return nil, fmt.Errorf("a logarithmic x axis needs numeric %s values", s.X)
		}
		for _, l := range f.X {
			if l.Value <= 0 {
				return nil, fmt.Errorf("a logarithmic x axis needs positive values; %s=%s is not", s.X, l.Text)
			}
		}
	}
	seen := map[string]int{}
	for _, r := range rows {
		key := [3]string{cellText(t, r, s.Facet), cellText(t, r, s.Series), t.text(r, s.X)}
		c := f.cells[key]
		if c == nil {
			c = &Cell{}
			f.cells[key] = c
		}
		v, err := t.metric(r, s.Y)
		if err != nil {
			return nil, err
		}
		id := pointKey(t, r)
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("%s lines %d and %d are the same point and trial; remove the duplicate", t.Source, t.Line[prev], t.Line[r])
		}
		seen[id] = r
		if math.IsNaN(v) || math.IsInf(v, 0) {
			c.Skipped++
			f.Skipped++
			continue
		}
		if s.LogY && v <= 0 {
			return nil, fmt.Errorf("a logarithmic y axis needs positive values; %s line %d has %s = %s", t.Source, t.Line[r], s.Y, t.text(r, s.Y))
		}
		c.Values = append(c.Values, v)
	}
	f.TrialsMin = math.MaxInt
	for _, c := range f.cells {
		summarise(c)
		n := len(c.Values) + c.Skipped
		f.TrialsMin = min(f.TrialsMin, n)
		f.TrialsMax = max(f.TrialsMax, n)
	}
	if f.Skipped == f.Rows {
		return nil, fmt.Errorf("every selected %s value is NaN or infinite: %w", s.Y, ErrNothingToDraw)
	}
	return f, nil
}

// checkColumns checks that the Spec names existing columns of the right
// kind and that x, series and facet are distinct.
func checkColumns(t *Table, s Spec) error {
	params := "parameters: " + strings.Join(t.Params, ", ")
	metrics := "metrics: " + strings.Join(t.Metrics, ", ")
	if s.Y == "" {
		return fmt.Errorf("no metric for the y axis (%s)", metrics)
	}
	if !t.IsMetric(s.Y) {
		if t.IsParam(s.Y) || s.Y == "trial" || s.Y == "seed" || s.Y == "experiment" {
			return fmt.Errorf("%s is not a metric; the y axis takes a metric (%s)", s.Y, metrics)
		}
		return fmt.Errorf("no column %s in %s; the y axis takes a metric (%s)", s.Y, t.Source, metrics)
	}
	roles := []struct{ role, name string }{{"x axis", s.X}, {"series", s.Series}, {"facet", s.Facet}}
	for i, r := range roles {
		if r.name == "" {
			if i == 0 {
				return fmt.Errorf("no parameter for the x axis (%s)", params)
			}
			continue
		}
		if !t.IsParam(r.name) {
			if _, ok := t.col[r.name]; ok {
				return fmt.Errorf("%s is not a parameter; the %s takes a parameter (%s)", r.name, r.role, params)
			}
			return fmt.Errorf("no column %s in %s; the %s takes a parameter (%s)", r.name, t.Source, r.role, params)
		}
		for _, o := range roles[:i] {
			if o.name == r.name {
				return fmt.Errorf("%s is both the %s and the %s", r.name, o.role, r.role)
			}
		}
	}
	for _, w := range s.Where {
		if !t.IsParam(w.Param) {
			return fmt.Errorf("--where %s: %s is not a parameter (%s)", w, w.Param, params)
		}
	}
	return nil
}

// selectRows returns the indices of the rows that pass every filter.
// A filter value that matches no row is an error listing the values
// there are; numbers match by value, so load=0.50 selects load 0.5.
func selectRows(t *Table, where []Filter) ([]int, error) {
	rows := make([]int, 0, len(t.Rows))
	for r := range t.Rows {
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s has a header but no rows", t.Source)
	}
	for _, w := range where {
		present := t.distinct(rows, w.Param)
		for _, v := range w.Values {
			found := false
			for _, p := range present {
				found = found || sameValue(p, v)
			}
			if !found {
				return nil, fmt.Errorf("--where %s: no selected row has %s=%s (values: %s)", w, w.Param, v, strings.Join(present, ", "))
			}
		}
		kept := rows[:0]
		for _, r := range rows {
			for _, v := range w.Values {
				if sameValue(t.text(r, w.Param), v) {
					kept = append(kept, r)
					break
				}
			}
		}
		rows = kept
	}
	return rows, nil
}

// sameValue compares a CSV cell with a filter value: as numbers when both
// are numbers, as text otherwise.
func sameValue(cell, want string) bool {
	if cell == want {
		return true
	}
	a, err1 := strconv.ParseFloat(cell, 64)
	b, err2 := strconv.ParseFloat(want, 64)
	return err1 == nil && err2 == nil && a == b
}

// checkPooling refuses to summarise rows that differ in a parameter the
// figure does not show: their trials would be pooled into one cell. A
// parameter that takes one value in every cell (x, series, facet) pools
// nothing and passes: rto_backoff=auto resolves by protocol, so with
// --series protocol it is the protocol's own rule.
func checkPooling(t *Table, s Spec, rows []int) error {
	cell := func(r int) string {
		var k strings.Builder
		for _, p := range []string{s.X, s.Series, s.Facet} {
			if p != "" {
				k.WriteString(t.text(r, p))
			}
			k.WriteByte(0)
		}
		return k.String()
	}
	for _, p := range t.Params {
		if p == s.X || p == s.Series || p == s.Facet {
			continue
		}
		vals := t.distinct(rows, p)
		if len(vals) < 2 {
			continue
		}
		first := map[string]string{}
		for _, r := range rows {
			k, v := cell(r), t.text(r, p)
			if w, ok := first[k]; ok && w != v {
				return fmt.Errorf("parameter %s varies in the selected rows (%s) but is not the x axis, series or facet; "+
					"pick one value with --where %s=%s or show it with --series or --facet", p, strings.Join(vals, ", "), p, vals[0])
			}
			first[k] = v
		}
	}
	return nil
}

// levels returns the values of parameter name over rows: sorted by value
// when all are numbers (numeric reports that), else in order of first
// appearance. An empty name gives a single empty level.
func levels(t *Table, rows []int, name string) (ls []Level, numeric bool) {
	if name == "" {
		return []Level{{}}, false
	}
	numeric = true
	for _, v := range t.distinct(rows, name) {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			numeric = false
		}
		ls = append(ls, Level{Text: v, Value: x})
	}
	if numeric {
		sort.SliceStable(ls, func(i, j int) bool { return ls[i].Value < ls[j].Value })
	} else {
		for i := range ls {
			ls[i].Value = math.NaN()
		}
	}
	return ls, numeric
}

// cellText is the value of parameter name in row r, or "" for no name.
func cellText(t *Table, r int, name string) string {
	if name == "" {
		return ""
	}
	return t.text(r, name)
}

// pointKey identifies a row's parameter point and trial.
func pointKey(t *Table, r int) string {
	return strings.Join(t.Rows[r][:len(t.Params)+2], "\x00")
}

// summarise fills the statistics of c from its values.
func summarise(c *Cell) {
	sort.Float64s(c.Values)
	if len(c.Values) == 0 {
		c.Median, c.Min, c.Max, c.Q1, c.Q3 = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return
	}
	d := stats.Float64Data(c.Values)
	c.Median, _ = d.Median()
	c.Min, _ = d.Min()
	c.Max, _ = d.Max()
	c.Q1, _ = d.Percentile(25)
	c.Q3, _ = d.Percentile(75)
}
