package experiments

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
)

// CSVWriter writes outcomes as a tidy CSV: one row per (point, trial),
// one column per variable, so pandas.read_csv and R's read.csv load it
// directly. The columns are
//
//	experiment, <every parameter in schema order>, trial, seed, <every metric in schema order>
//
// followed by wall_s and events_per_s when timing is on. Parameters are
// written in their canonical text, metrics with FormatFloat. Every row
// is flushed to the underlying writer as soon as it is written, so an
// interrupted sweep keeps all finished rows.
type CSVWriter struct {
	cw     *csv.Writer
	exp    *Experiment
	timing bool
	rows   int
}

// NewCSVWriter returns a writer for e's outcomes on w. With timing, the
// wall-clock columns (which differ between runs) are appended.
func NewCSVWriter(w io.Writer, e *Experiment, timing bool) *CSVWriter {
	return &CSVWriter{cw: csv.NewWriter(w), exp: e, timing: timing}
}

// CSVHeader returns the column names of e's CSV.
func CSVHeader(e *Experiment, timing bool) []string {
	h := []string{"experiment"}
	for _, p := range e.Params {
		h = append(h, p.Name)
	}
	h = append(h, "trial", "seed")
	for _, m := range e.Metrics {
		h = append(h, m.Name)
	}
	if timing {
		h = append(h, "wall_s", "events_per_s")
	}
	return h
}

// WriteHeader writes the header line.
func (c *CSVWriter) WriteHeader() error {
	return c.flush(CSVHeader(c.exp, c.timing))
}

// Write writes one outcome as a row and flushes it.
func (c *CSVWriter) Write(o *Outcome) error {
	row := []string{c.exp.Name}
	for _, p := range c.exp.Params {
		row = append(row, o.Value(p.Name))
	}
	row = append(row, strconv.Itoa(o.Trial), strconv.FormatUint(o.Seed, 10))
	for _, m := range c.exp.Metrics {
		v, ok := o.Result.Metrics[m.Name]
		if !ok {
			v = math.NaN()
		}
		row = append(row, FormatFloat(v))
	}
	if c.timing {
		wall := o.Wall.Seconds()
		eps := math.NaN()
		if wall > 0 {
			eps = float64(o.Result.Events) / wall
		}
		row = append(row, FormatFloat(wall), FormatFloat(eps))
	}
	if err := c.flush(row); err != nil {
		return err
	}
	c.rows++
	return nil
}

// Rows returns the number of data rows written.
func (c *CSVWriter) Rows() int { return c.rows }

func (c *CSVWriter) flush(rec []string) error {
	if err := c.cw.Write(rec); err != nil {
		return fmt.Errorf("writing CSV: %w", err)
	}
	c.cw.Flush()
	if err := c.cw.Error(); err != nil {
		return fmt.Errorf("writing CSV: %w", err)
	}
	return nil
}

// FormatFloat formats a metric deterministically: a whole number below
// 2^53 in magnitude (every count: events, packets, flows) as an integer,
// any other value as the shortest decimal that reads back as the same
// float64 (strconv 'g', precision -1), "NaN" for an undefined value and
// "Inf"/"-Inf" for infinities, the spellings pandas and R parse as
// floats. So a column of counts never mixes 342999 with 1.679996e+06.
func FormatFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case v == math.Trunc(v) && math.Abs(v) < 1<<53:
		if v == 0 {
			return "0" // not -0
		}
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
