// Package summary turns the tidy CSVs of syncsim sweeps into the tables
// papers print: per parameter point the median [min-max] of a metric over
// trials, and seed-by-seed (paired) changes against a baseline value of
// one parameter, as ratios or percentages. It reads any experiment's CSV
// (run, sweep, merged shards, several files of one experiment together)
// and knows no experiment: the columns between experiment and trial are
// parameters, those after seed are metrics.
package summary

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"syncsim/plotting"
)

// Data holds the rows of one or more CSVs of one experiment.
type Data struct {
	Experiment string
	Params     []string // parameter columns, in header order
	Metrics    []string // metric columns, in header order
	rows       []row
}

// row is one (point, trial) of a CSV.
type row struct {
	params  []string
	seed    string
	metrics []float64
	src     string // file name and line, for messages
}

// FromTables joins tables read by plotting.ReadFile. They must have the
// same parameter columns and name the same experiment; their metrics are
// those every table has, in the first one's order, so a run's CSV joins a
// sweep's written with --timing (whose wall_s and events_per_s it lacks).
// A (point, seed) that appears twice is an error (two sweeps wrote one
// file, or a file was given twice), since trials would then be counted
// twice.
func FromTables(tables ...*plotting.Table) (*Data, error) {
	return FromTablesMissing(nil, tables...)
}

// FromTablesMissing is FromTables for tables whose parameter columns may
// differ, as a CSV written by an earlier build lacks the parameters added
// since: missing[k] is the value the runs of a table without column k ran
// with, which only the reader can say (a parameter's present default need
// not be what an older build did). The parameters are the first table's,
// then those only later tables have, in order. A table lacking a column
// that missing does not name is an error naming both, as is a key of
// missing that no table has as a parameter (a misspelt name); a key every
// table has is a no-op, so that one command reads old and new CSVs alike.
func FromTablesMissing(missing map[string]string, tables ...*plotting.Table) (*Data, error) {
	if len(tables) == 0 {
		return nil, fmt.Errorf("no CSV given")
	}
	first := tables[0]
	d := &Data{Params: slices.Clone(first.Params), Metrics: first.Metrics}
	for _, t := range tables[1:] {
		if err := sameLayout(first, t, len(missing) > 0); err != nil {
			return nil, err
		}
		for _, p := range t.Params {
			if !slices.Contains(d.Params, p) {
				d.Params = append(d.Params, p)
			}
		}
		d.Metrics = slices.DeleteFunc(slices.Clone(d.Metrics), func(m string) bool { return !slices.Contains(t.Metrics, m) })
		if len(d.Metrics) == 0 {
			return nil, fmt.Errorf("%s and %s have no metric in common", first.Source, t.Source)
		}
	}
	used := map[string]bool{}
	seen := map[string]string{}
	for _, t := range tables {
		seedCol := len(t.Params) + 2
		pcols := make([]int, len(d.Params)) // each parameter's column in t, or -1
		for j, p := range d.Params {
			pcols[j] = -1
			if i := slices.Index(t.Params, p); i >= 0 {
				pcols[j] = 1 + i
				continue
			}
			if _, ok := missing[p]; !ok {
				return nil, fmt.Errorf("%s lacks the parameter column %s that %s has (a CSV of another build?); "+
					"to read them together say what its runs ran with: --missing %s=VALUE", t.Source, p, holder(tables, p), p)
			}
			used[p] = true
		}
		cols := make([]int, len(d.Metrics)) // each metric's column in t
		for j, m := range d.Metrics {
			cols[j] = seedCol + 1 + slices.Index(t.Metrics, m)
		}
		for i, rec := range t.Rows {
			src := fmt.Sprintf("%s line %d", t.Source, t.Line[i])
			if len(rec) != len(t.Header) {
				return nil, fmt.Errorf("%s has %d fields, the header %d", src, len(rec), len(t.Header))
			}
			switch {
			case d.Experiment == "":
				d.Experiment = rec[0]
			case rec[0] != d.Experiment:
				return nil, fmt.Errorf("%s is a row of %s, not %s", src, rec[0], d.Experiment)
			}
			r := row{params: make([]string, len(d.Params)), seed: rec[seedCol], src: src}
			for j, c := range pcols {
				if c < 0 {
					r.params[j] = missing[d.Params[j]]
				} else {
					r.params[j] = rec[c]
				}
			}
			if _, err := strconv.ParseUint(r.seed, 10, 64); err != nil {
				return nil, fmt.Errorf("%s: seed %q is not a whole number", src, r.seed)
			}
			for j, m := range d.Metrics {
				s := strings.TrimSpace(rec[cols[j]])
				v := math.NaN()
				if s != "" {
					var err error
					if v, err = strconv.ParseFloat(s, 64); err != nil {
						return nil, fmt.Errorf("%s: %s is %q, not a number", src, m, s)
					}
				}
				r.metrics = append(r.metrics, v)
			}
			key := strings.Join(r.params, "\x00") + "\x00" + r.seed
			if prev, dup := seen[key]; dup {
				return nil, fmt.Errorf("%s repeats the point and seed of %s; a file given twice, or two sweeps written into one file?", src, prev)
			}
			seen[key] = src
			d.rows = append(d.rows, r)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(missing)) {
		if !used[k] && !slices.ContainsFunc(tables, func(t *plotting.Table) bool { return slices.Contains(t.Params, k) }) {
			return nil, fmt.Errorf("--missing %s: no CSV has a parameter column %s", k, k)
		}
	}
	if len(d.rows) == 0 {
		return nil, fmt.Errorf("%s has a header but no rows", first.Source)
	}
	return d, nil
}

// sameLayout checks that t is a CSV of first's kind: the same columns up
// to the seed, or, with lenient (--missing given), the same experiment,
// trial and seed columns around parameters that may differ.
func sameLayout(first, t *plotting.Table, lenient bool) error {
	seedCol := len(first.Params) + 2
	if !lenient {
		if !slices.Equal(t.Header[:min(seedCol+1, len(t.Header))], first.Header[:seedCol+1]) {
			return fmt.Errorf("%s and %s have different columns (%s); summarise files of one experiment "+
				"(or, for CSVs of builds with different parameters, say what the runs without a column ran with: --missing k=v)",
				first.Source, t.Source, headerDiff(first.Header[:seedCol+1], t.Header))
		}
		return nil
	}
	ts := len(t.Params) + 2
	if len(t.Header) <= ts || t.Header[0] != first.Header[0] || t.Header[ts-1] != first.Header[seedCol-1] || t.Header[ts] != first.Header[seedCol] {
		return fmt.Errorf("%s and %s are not CSVs of one kind (experiment, parameters, trial, seed, metrics)", first.Source, t.Source)
	}
	return nil
}

// holder names a table that has parameter column p.
func holder(tables []*plotting.Table, p string) string {
	for _, t := range tables {
		if slices.Contains(t.Params, p) {
			return t.Source
		}
	}
	return "another CSV"
}

// headerDiff names the first column where two headers differ.
func headerDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("column %d is %s in one and %s in the other", i+1, a[i], b[i])
		}
	}
	return fmt.Sprintf("%d columns against %d", len(a), len(b))
}

// Rows returns the number of rows.
func (d *Data) Rows() int { return len(d.rows) }

// param returns the index of parameter name, or -1.
func (d *Data) param(name string) int { return slices.Index(d.Params, name) }

// metric returns the index of metric name, or -1.
func (d *Data) metric(name string) int { return slices.Index(d.Metrics, name) }

// distinct returns the values of parameter column i over rows, in order
// of first appearance.
func distinct(rows []row, i int) []string {
	var out []string
	for _, r := range rows {
		if !slices.Contains(out, r.params[i]) {
			out = append(out, r.params[i])
		}
	}
	return out
}

// sameValue compares a CSV cell with a value given on the command line:
// as numbers when both are numbers (load=0.50 is load 0.5), as text
// otherwise.
func sameValue(cell, want string) bool {
	if cell == want {
		return true
	}
	a, err1 := strconv.ParseFloat(cell, 64)
	b, err2 := strconv.ParseFloat(want, 64)
	return err1 == nil && err2 == nil && a == b
}
