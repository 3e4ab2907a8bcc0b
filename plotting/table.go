package plotting

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Table is a sweep CSV read for plotting: the columns between experiment
// and trial are parameters, the columns after seed are metrics.
type Table struct {
	// Source names the file in messages.
	Source string
	// Header is the CSV header as written.
	Header []string
	// Params are the parameter columns in header order.
	Params []string
	// Metrics are the metric columns in header order.
	Metrics []string
	// Rows holds the data rows as text, Line the 1-based file line of each.
	Rows [][]string
	Line []int

	col map[string]int
}

// ReadFile reads the sweep CSV at path.
func ReadFile(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, unwrapPathError(err))
	}
	defer f.Close()
	return ReadCSV(f, path)
}

// unwrapPathError drops the path an *os.PathError repeats.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ReadCSV reads a sweep CSV from r; source names it in messages. The
// header must be experiment, the parameters, trial, seed, the metrics.
func ReadCSV(r io.Reader, source string) (*Table, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("reading %s: the file is empty (expected a syncsim sweep CSV)", source)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", source, err)
	}
	t := &Table{Source: source, Header: header, col: make(map[string]int, len(header))}
	for i, h := range header {
		if _, dup := t.col[h]; dup {
			return nil, fmt.Errorf("reading %s: column %q appears twice in the header", source, h)
		}
		t.col[h] = i
	}
	ti, ok1 := t.col["trial"]
	si, ok2 := t.col["seed"]
	if len(header) == 0 || header[0] != "experiment" || !ok1 || !ok2 || si != ti+1 {
		return nil, fmt.Errorf("reading %s: not a syncsim sweep CSV (the header must be experiment, the parameters, trial, seed, the metrics)", source)
	}
	t.Params = header[1:ti]
	t.Metrics = header[si+1:]
	if len(t.Metrics) == 0 {
		return nil, fmt.Errorf("reading %s: no metric columns after seed", source)
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", source, err)
		}
		line, _ := cr.FieldPos(0)
		t.Rows = append(t.Rows, rec)
		t.Line = append(t.Line, line)
	}
	return t, nil
}

// Experiment returns the experiment named in the first row, or "" for
// a table without rows.
func (t *Table) Experiment() string {
	if len(t.Rows) == 0 {
		return ""
	}
	return t.Rows[0][0]
}

// IsParam reports whether name is a parameter column.
func (t *Table) IsParam(name string) bool {
	i, ok := t.col[name]
	return ok && i >= 1 && i <= len(t.Params)
}

// IsMetric reports whether name is a metric column.
func (t *Table) IsMetric(name string) bool {
	i, ok := t.col[name]
	return ok && i > len(t.Params)+2
}

// text returns the cell of row r in column name.
func (t *Table) text(r int, name string) string { return t.Rows[r][t.col[name]] }

// metric parses the cell of row r in metric column name. An empty cell is
// NaN, as pandas reads it.
func (t *Table) metric(r int, name string) (float64, error) {
	s := strings.TrimSpace(t.text(r, name))
	if s == "" {
		return math.NaN(), nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%s line %d: %s is %q, not a number", t.Source, t.Line[r], name, s)
	}
	return v, nil
}

// Distinct returns the values of parameter name over rows, in order of
// first appearance.
func (t *Table) distinct(rows []int, name string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		v := t.text(r, name)
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// Varying returns the parameters that take more than one value in the
// table, in header order.
func (t *Table) Varying() []string {
	all := make([]int, len(t.Rows))
	for i := range all {
		all[i] = i
	}
	var out []string
	for _, p := range t.Params {
		if len(t.distinct(all, p)) > 1 {
			out = append(out, p)
		}
	}
	return out
}
