package experiments

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

var seriesName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// SeriesPath names the file of one time series:
//
//	DIR/<experiment>_<point>_<trial>_<series>.csv
//
// where point is the 0-based index of the parameter point in grid order
// (the same order as the rows of the main CSV, so row r of that CSV,
// counting from 0 after the header, is point r/trials and trial r%trials
// when no row was skipped) and trial is the trial number.
func SeriesPath(dir, exp string, point, trial int, name string) string {
	return filepath.Join(dir, fmt.Sprintf("%s_%d_%d_%s.csv", exp, point, trial, name))
}

// WriteSeries writes every series of o into dir, one CSV file per series
// with its declared columns as header.
func WriteSeries(dir, exp string, o *Outcome) error {
	seen := map[string]bool{}
	for _, s := range o.Result.Series {
		if seen[s.Name] {
			return fmt.Errorf("%s point %d trial %d returned two series named %q", exp, o.Point, o.Trial, s.Name)
		}
		seen[s.Name] = true
		if err := writeOneSeries(SeriesPath(dir, exp, o.Point, o.Trial, s.Name), s); err != nil {
			return fmt.Errorf("series %q of %s point %d trial %d: %w", s.Name, exp, o.Point, o.Trial, err)
		}
	}
	return nil
}

func writeOneSeries(path string, s Series) (err error) {
	if !seriesName.MatchString(s.Name) {
		return errors.New("series name must be lower-case letters, digits, '_' or '-'")
	}
	if len(s.Columns) == 0 {
		return errors.New("series has no columns")
	}
	for i, row := range s.Rows {
		if len(row) != len(s.Columns) {
			return fmt.Errorf("row %d has %d values for %d columns", i, len(row), len(s.Columns))
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	w := csv.NewWriter(f)
	if err := w.Write(s.Columns); err != nil {
		return err
	}
	rec := make([]string, len(s.Columns))
	for _, row := range s.Rows {
		for i, v := range row {
			rec[i] = FormatFloat(v)
		}
		if err := w.Write(rec); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}
