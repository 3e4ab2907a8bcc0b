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
	if len(tables) == 0 {
		return nil, fmt.Errorf("no CSV given")
	}
	first := tables[0]
	seedCol := len(first.Params) + 2
	d := &Data{Params: first.Params, Metrics: first.Metrics}
	for _, t := range tables[1:] {
		if !slices.Equal(t.Header[:min(seedCol+1, len(t.Header))], first.Header[:seedCol+1]) {
			return nil, fmt.Errorf("%s and %s have different columns (%s); summarise files of one experiment",
				first.Source, t.Source, headerDiff(first.Header[:seedCol+1], t.Header))
		}
		d.Metrics = slices.DeleteFunc(slices.Clone(d.Metrics), func(m string) bool { return !slices.Contains(t.Metrics, m) })
		if len(d.Metrics) == 0 {
			return nil, fmt.Errorf("%s and %s have no metric in common", first.Source, t.Source)
		}
	}
	seen := map[string]string{}
	for _, t := range tables {
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
			r := row{params: rec[1 : 1+len(d.Params)], seed: rec[seedCol], src: src}
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
	if len(d.rows) == 0 {
		return nil, fmt.Errorf("%s has a header but no rows", first.Source)
	}
	return d, nil
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
