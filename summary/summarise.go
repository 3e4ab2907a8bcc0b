package summary

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/montanaflynn/stats"
)

// Change is how a paired comparison is expressed.
type Change int

// The ways of expressing a paired change of a over b, seed by seed.
const (
	Ratio   Change = iota // a / b
	Percent               // 100 (a / b - 1)
)

// ParseChange reads "ratio" or "percent".
func ParseChange(s string) (Change, error) {
	switch s {
	case "ratio":
		return Ratio, nil
	case "percent":
		return Percent, nil
	}
	return 0, fmt.Errorf("--change %q: want ratio or percent", s)
}

// Filter keeps the rows whose parameter takes one of the values; Param
// "seed" keeps the trials run with those seeds.
type Filter struct {
	Param  string
	Values []string
}

// ParseFilter reads "param=v1,v2,...".
func ParseFilter(s string) (Filter, error) {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" || v == "" {
		return Filter{}, fmt.Errorf("--where %q: want param=value or param=v1,v2,...", s)
	}
	f := Filter{Param: k}
	for _, x := range strings.Split(v, ",") {
		if x == "" {
			return Filter{}, fmt.Errorf("--where %q: empty value in the list", s)
		}
		f.Values = append(f.Values, x)
	}
	return f, nil
}

// Compare names the baseline of the paired changes: one value of one
// parameter (--vs scheme=allreduce), or of several together (--vs
// split=e-d --vs scheduling=fs), whose values then make the columns. By
// default (--vs) every other value X is compared with the baseline V
// (X / V); with Of (--of) the baseline is compared with every other value
// (V / X), as "PA-ATP vs ATP" does.
type Compare struct {
	Params, Values []string
	Of             bool
}

// ParseCompare reads the "param=value" settings of --vs (or --of, which
// flag names) into a baseline.
func ParseCompare(flag string, settings []string) (*Compare, error) {
	c := &Compare{Of: flag == "of"}
	for _, s := range settings {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" || v == "" || strings.Contains(v, ",") {
			return nil, fmt.Errorf("--%s %q: want param=value, one value (for example --%s scheme=allreduce)", flag, s, flag)
		}
		if slices.Contains(c.Params, k) {
			return nil, fmt.Errorf("--%s names %s twice", flag, k)
		}
		c.Params = append(c.Params, k)
		c.Values = append(c.Values, v)
	}
	if len(c.Params) == 0 {
		return nil, fmt.Errorf("--%s needs param=value", flag)
	}
	return c, nil
}

// String is the baseline as the flags give it.
func (c *Compare) String() string {
	parts := make([]string, len(c.Params))
	for i := range c.Params {
		parts[i] = "--" + flagOf(c) + " " + c.Params[i] + "=" + c.Values[i]
	}
	return strings.Join(parts, " ")
}

// Spec says what to summarise.
type Spec struct {
	// Metrics to report, in this order; empty: every metric of the data.
	Metrics []string
	// Where keeps only the rows that pass every filter.
	Where []Filter
	// Columns, if set, are parameters whose values (or combinations of
	// values) become columns, one per value and metric, instead of rows.
	Columns []string
	// Compare, if set, adds paired changes against a baseline value of
	// its parameters, whose values then become columns.
	Compare *Compare
	// Change is how changes are expressed.
	Change Change
	// DropUndefined leaves out the metrics that are undefined (NaN) in
	// every row the filters keep, as a default table does: an
	// experiment's learning metrics when nothing was learnt, a
	// percentile of flows that never ran.
	DropUndefined bool
	// Count, with Compare, counts for every paired change the seeds
	// whose change lies below Threshold and those exactly at it
	// (Stat.Below, Stat.At): on how many seeds a claim such as "a is
	// faster than b" (a / b below 1) holds, the rest being against it.
	Count     bool
	Threshold float64
}

// Stat is one cell: the median, minimum and maximum of N values out of
// Of (the values left out were undefined, NaN, or had no partner). For
// a paired change counted against a threshold (Spec.Count), Below of
// the N values lie below it and At exactly at it; Counted says they
// were counted.
type Stat struct {
	N, Of            int
	Median, Min, Max float64
	Counted          bool
	Below, At        int
}

// Row is one line of a summary: the values of the row parameters, the
// statistics of each metric (Cells[m][v], v indexing Table.Values) and
// the paired changes (Changes[m][o], o indexing Table.Others).
type Row struct {
	Key     []string
	Cells   [][]Stat
	Changes [][]Stat
}

// Table is a summary ready to print.
type Table struct {
	Experiment string
	Keys       []string   // the row parameters: those that vary, less the pivot
	Pivot      []string   // the parameters whose values are columns (none: one column per metric)
	Values     []string   // the pivot's values in order of appearance, space-separated ([""] without a pivot)
	Tuples     [][]string // the same values one by one
	Base       string     // the baseline's value among Values, with Compare
	Metrics    []string
	Compare    *Compare
	Change     Change
	Others     []string // the values compared with the baseline
	Rows       []Row
	Seeds      []uint64 // every seed in the rows, ascending
	Dropped    []string // metrics left out as undefined in every row (Spec.DropUndefined)
	Count      bool     // the changes count their seeds against Threshold (Spec.Count)
	Threshold  float64
}

// Summarise computes the summary of d that spec asks for.
func (d *Data) Summarise(spec Spec) (*Table, error) {
	metrics, err := d.metricIndexes(spec.Metrics)
	if err != nil {
		return nil, err
	}
	rows, err := d.filter(spec.Where)
	if err != nil {
		return nil, err
	}
	var dropped []string
	if spec.DropUndefined {
		metrics = slices.DeleteFunc(metrics, func(m int) bool {
			for _, r := range rows {
				if !math.IsNaN(r.metrics[m]) {
					return false
				}
			}
			dropped = append(dropped, d.Metrics[m])
			return true
		})
		if len(metrics) == 0 {
			return nil, fmt.Errorf("every metric summarised (%s) is undefined in every row; name one with --metric", strings.Join(dropped, ", "))
		}
	}
	pivot := spec.Columns
	if c := spec.Compare; c != nil {
		if len(pivot) > 0 && !slices.Equal(pivot, c.Params) {
			return nil, fmt.Errorf("--columns %s and %s: the compared parameters are the ones in columns; give one", strings.Join(pivot, ","), c)
		}
		pivot = c.Params
	}
	var pis []int
	for _, p := range pivot {
		i := d.param(p)
		if i < 0 {
			return nil, fmt.Errorf("%s is not a parameter of these rows (parameters: %s)", p, strings.Join(d.Params, ", "))
		}
		if slices.Contains(pis, i) {
			return nil, fmt.Errorf("%s is named twice", p)
		}
		pis = append(pis, i)
	}
	if spec.Count && spec.Compare == nil {
		return nil, fmt.Errorf("counting the seeds against %s is about paired changes; give the baseline (--vs k=v or --of k=v)", Number(spec.Threshold, 3))
	}
	t := &Table{Experiment: d.Experiment, Pivot: pivot, Compare: spec.Compare, Change: spec.Change, Dropped: dropped,
		Count: spec.Count, Threshold: spec.Threshold}
	for _, m := range metrics {
		t.Metrics = append(t.Metrics, d.Metrics[m])
	}
	valueOf := func(r row) string {
		parts := make([]string, len(pis))
		for i, p := range pis {
			parts[i] = r.params[p]
		}
		return strings.Join(parts, " ")
	}
	for _, r := range rows {
		if v := valueOf(r); !slices.Contains(t.Values, v) {
			t.Values = append(t.Values, v)
			tuple := make([]string, len(pis))
			for i, p := range pis {
				tuple[i] = r.params[p]
			}
			t.Tuples = append(t.Tuples, tuple)
		}
	}
	base := -1
	if c := spec.Compare; c != nil {
		for i, tuple := range t.Tuples {
			match := true
			for j := range tuple {
				match = match && sameValue(tuple[j], c.Values[j])
			}
			if match {
				base = i
			}
		}
		switch {
		case base < 0:
			var have []string
			for j, p := range pis {
				have = append(have, c.Params[j]+" in "+strings.Join(distinct(rows, p), ", "))
			}
			return nil, fmt.Errorf("%s: no row has it (%s)", c, strings.Join(have, "; "))
		case len(t.Values) == 1:
			return nil, fmt.Errorf("%s: no row has another value; nothing to compare", c)
		}
		t.Base = t.Values[base]
		for i, v := range t.Values {
			if i != base {
				t.Others = append(t.Others, v)
			}
		}
	}
	keys := d.rowParams(rows, pis)
	for _, k := range keys {
		t.Keys = append(t.Keys, d.Params[k])
	}
	// Group the rows by their key, in order of first appearance.
	type group struct {
		key  []string
		rows [][]row // by pivot value
	}
	var groups []*group
	index := map[string]*group{}
	for _, r := range rows {
		key := make([]string, len(keys))
		for i, k := range keys {
			key[i] = r.params[k]
		}
		id := strings.Join(key, "\x00")
		g := index[id]
		if g == nil {
			g = &group{key: key, rows: make([][]row, len(t.Values))}
			index[id] = g
			groups = append(groups, g)
		}
		v := slices.Index(t.Values, valueOf(r))
		g.rows[v] = append(g.rows[v], r)
	}
	seeds := map[uint64]bool{}
	for _, r := range rows {
		s, _ := strconv.ParseUint(r.seed, 10, 64)
		seeds[s] = true
	}
	for s := range seeds {
		t.Seeds = append(t.Seeds, s)
	}
	slices.Sort(t.Seeds)
	for _, g := range groups {
		out := Row{Key: g.key}
		for _, m := range metrics {
			cells := make([]Stat, len(t.Values))
			for v, rs := range g.rows {
				vals := make([]float64, 0, len(rs))
				for _, r := range rs {
					if !math.IsNaN(r.metrics[m]) {
						vals = append(vals, r.metrics[m])
					}
				}
				cells[v] = statOf(vals, len(rs))
			}
			out.Cells = append(out.Cells, cells)
			if spec.Compare == nil {
				continue
			}
			var changes []Stat
			for v, rs := range g.rows {
				if v == base {
					continue
				}
				a, b := rs, g.rows[base] // X against the baseline
				if spec.Compare.Of {
					a, b = b, a
				}
				c := pairedChange(a, b, m, spec.Change)
				if spec.Count {
					c.Counted = true
					c.Below, c.At = countAgainst(a, b, m, spec.Change, spec.Threshold)
				}
				changes = append(changes, c)
			}
			out.Changes = append(out.Changes, changes)
		}
		t.Rows = append(t.Rows, out)
	}
	return t, nil
}

// flagOf is the flag that gave c.
func flagOf(c *Compare) string {
	if c.Of {
		return "of"
	}
	return "vs"
}

// metricIndexes resolves the metric names asked for (all when none).
func (d *Data) metricIndexes(names []string) ([]int, error) {
	if len(names) == 0 {
		out := make([]int, len(d.Metrics))
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var out []int
	for _, n := range names {
		i := d.metric(n)
		if i < 0 {
			what := "metric"
			if d.param(n) >= 0 {
				what = "metric (it is a parameter)"
			}
			return nil, fmt.Errorf("--metric %s: not a %s of %s (metrics: %s)", n, what, d.Experiment, strings.Join(d.Metrics, ", "))
		}
		if slices.Contains(out, i) {
			return nil, fmt.Errorf("--metric %s given twice", n)
		}
		out = append(out, i)
	}
	return out, nil
}

// filter returns the rows that pass every filter; a value no row has is
// an error listing the values there are.
func (d *Data) filter(where []Filter) ([]row, error) {
	rows := d.rows
	for _, f := range where {
		value := func(r row) string { return r.seed }
		if i := d.param(f.Param); i >= 0 {
			value = func(r row) string { return r.params[i] }
		} else if f.Param != "seed" {
			return nil, fmt.Errorf("--where %s: not a parameter of these rows, nor seed (parameters: %s)", f.Param, strings.Join(d.Params, ", "))
		}
		var present []string
		for _, r := range rows {
			if v := value(r); !slices.Contains(present, v) {
				present = append(present, v)
			}
		}
		for _, v := range f.Values {
			if !slices.ContainsFunc(present, func(p string) bool { return sameValue(p, v) }) {
				return nil, fmt.Errorf("--where %s=%s: no row has it (values: %s)", f.Param, v, strings.Join(present, ", "))
			}
		}
		var kept []row
		for _, r := range rows {
			if slices.ContainsFunc(f.Values, func(v string) bool { return sameValue(value(r), v) }) {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	return rows, nil
}

// rowParams returns the parameters that make a row of the summary: those
// that take more than one value in rows, other than the pivot's (pis), less
// those whose value follows from the others (an automatic value resolved
// per point, such as warm-up as a share of the duration), which would
// only repeat them. Candidates are dropped from the last column on, so
// of two parameters that determine each other the first stays.
func (d *Data) rowParams(rows []row, pis []int) []int {
	var varying []int
	for i := range d.Params {
		if !slices.Contains(pis, i) && len(distinct(rows, i)) > 1 {
			varying = append(varying, i)
		}
	}
	kept := slices.Clone(varying)
	for j := len(varying) - 1; j >= 0; j-- {
		p := varying[j]
		rest := slices.DeleteFunc(slices.Clone(kept), func(i int) bool { return i == p })
		by := append(slices.Clone(rest), pis...)
		if len(by) > 0 && determined(rows, p, by) {
			kept = rest
		}
	}
	return kept
}

// determined reports whether parameter p takes one value wherever the
// parameters others take given values.
func determined(rows []row, p int, others []int) bool {
	seen := map[string]string{}
	for _, r := range rows {
		var b strings.Builder
		for _, o := range others {
			b.WriteString(r.params[o])
			b.WriteByte(0)
		}
		k := b.String()
		if v, ok := seen[k]; ok && v != r.params[p] {
			return false
		}
		seen[k] = r.params[p]
	}
	return true
}

// statOf summarises vals (finite or infinite, never NaN) out of of rows.
func statOf(vals []float64, of int) Stat {
	s := Stat{N: len(vals), Of: of, Median: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	if len(vals) > 0 {
		s.Median, _ = stats.Median(vals)
		s.Min, _ = stats.Min(vals)
		s.Max, _ = stats.Max(vals)
	}
	return s
}

// pairedChange compares metric m of rows a with rows b seed by seed: the
// change of a over b for every seed both have with defined values and a
// non-zero b. Of counts the seeds of either side.
func pairedChange(a, b []row, m int, how Change) Stat {
	vals, of := pairedValues(a, b, m, how)
	return statOf(vals, of)
}

// countAgainst counts the paired changes of metric m of a over b (as
// pairedChange takes them) below the threshold and exactly at it.
func countAgainst(a, b []row, m int, how Change, threshold float64) (below, at int) {
	vals, _ := pairedValues(a, b, m, how)
	for _, v := range vals {
		switch {
		case v < threshold:
			below++
		case v == threshold:
			at++
		}
	}
	return below, at
}

// pairedValues returns the changes of metric m of a over b, seed by seed
// in the order of the seeds' names, and the count of seeds either side
// has.
func pairedValues(a, b []row, m int, how Change) ([]float64, int) {
	bySeed := map[string]float64{}
	all := map[string]bool{}
	for _, r := range b {
		bySeed[r.seed] = r.metrics[m]
		all[r.seed] = true
	}
	var seeds []string
	for _, r := range a {
		all[r.seed] = true
		if _, ok := bySeed[r.seed]; ok {
			seeds = append(seeds, r.seed)
		}
	}
	sort.Strings(seeds)
	aBy := map[string]float64{}
	for _, r := range a {
		aBy[r.seed] = r.metrics[m]
	}
	var vals []float64
	for _, s := range seeds {
		x, y := aBy[s], bySeed[s]
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) || y == 0 {
			continue
		}
		c := x / y
		if how == Percent {
			c = 100 * (c - 1)
		}
		vals = append(vals, c)
	}
	return vals, len(all)
}
