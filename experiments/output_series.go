package experiments

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// ManifestPath names the manifest of one (point, trial) in a series
// directory: DIR/<experiment>_<point>_<trial>.json.
func ManifestPath(dir, exp string, point, trial int) string {
	return filepath.Join(dir, fmt.Sprintf("%s_%d_%d.json", exp, point, trial))
}

// Manifest describes the series of one (point, trial): the point's
// parameters (as the run used them) and seed, and every series file with
// its row count. It is written after the series files, so its presence
// means they are complete.
type Manifest struct {
	Experiment string         `json:"experiment"`
	Point      int            `json:"point"`
	Trial      int            `json:"trial"`
	Seed       uint64         `json:"seed"`
	Params     []Setting      `json:"params"`
	Series     []SeriesRecord `json:"series"` // empty: the run collected none
}

// SeriesRecord is one series file of a manifest.
type SeriesRecord struct {
	Name string `json:"name"`
	File string `json:"file"` // base name, in the manifest's directory
	Rows int    `json:"rows"`
}

// WriteSeries writes every series of o into dir, one CSV file per series
// with its declared columns as header, then the (point, trial)'s
// manifest, which also lists the series the run streamed there
// (Run.OpenSeries). Every file is written to a temporary name and renamed, so a
// kill leaves whole files or none, and the manifest comes last. It
// returns the number of series written.
func WriteSeries(dir, exp string, o *Outcome) (int, error) {
	man := Manifest{Experiment: exp, Point: o.Point, Trial: o.Trial, Seed: o.Seed, Series: []SeriesRecord{}}
	for _, p := range o.Params.exp.Params {
		man.Params = append(man.Params, Setting{Name: p.Name, Value: o.Value(p.Name)})
	}
	seen := map[string]bool{}
	for _, s := range o.Result.Series {
		if seen[s.Name] {
			return 0, fmt.Errorf("%s point %d trial %d returned two series named %q", exp, o.Point, o.Trial, s.Name)
		}
		seen[s.Name] = true
		if s.stream != nil {
			if !s.stream.done {
				return 0, fmt.Errorf("series %q of %s point %d trial %d was not completed", s.Name, exp, o.Point, o.Trial)
			}
			man.Series = append(man.Series, s.stream.record())
			continue
		}
		path := SeriesPath(dir, exp, o.Point, o.Trial, s.Name)
		if err := writeOneSeries(path, s); err != nil {
			return 0, fmt.Errorf("series %q of %s point %d trial %d: %w", s.Name, exp, o.Point, o.Trial, err)
		}
		man.Series = append(man.Series, SeriesRecord{Name: s.Name, File: filepath.Base(path), Rows: len(s.Rows)})
	}
	for _, s := range o.Result.streamed {
		if seen[s.Name] {
			return 0, fmt.Errorf("%s point %d trial %d returned two series named %q", exp, o.Point, o.Trial, s.Name)
		}
		seen[s.Name] = true
		man.Series = append(man.Series, s)
	}
	b, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return 0, err
	}
	if err := WriteFileAtomic(ManifestPath(dir, exp, o.Point, o.Trial), append(b, '\n')); err != nil {
		return 0, fmt.Errorf("manifest of %s point %d trial %d: %w", exp, o.Point, o.Trial, err)
	}
	return len(man.Series), nil
}

// SeriesComplete reports whether the series of (point, trial) in dir are
// all there: the manifest exists, names this run, and every file it
// lists exists with its header and rows.
func SeriesComplete(dir, exp string, point, trial int, seed uint64) error {
	b, err := os.ReadFile(ManifestPath(dir, exp, point, trial))
	if err != nil {
		return errors.New("no manifest")
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("unreadable manifest: %v", err)
	}
	if m.Experiment != exp || m.Point != point || m.Trial != trial || m.Seed != seed {
		return errors.New("the manifest names another run")
	}
	for _, s := range m.Series {
		data, err := os.ReadFile(filepath.Join(dir, s.File))
		if err != nil {
			return fmt.Errorf("series %s: %v", s.Name, err)
		}
		if lines := bytes.Count(data, []byte{'\n'}); lines != s.Rows+1 || !bytes.HasSuffix(data, []byte{'\n'}) {
			return fmt.Errorf("series %s has %d lines, the manifest %d rows", s.Name, lines, s.Rows)
		}
	}
	return nil
}

func writeOneSeries(path string, s Series) error {
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
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(s.Columns); err != nil {
		return err
	}
	scale := make([]float64, len(s.Columns))
	for i, c := range s.Columns {
		scale[i] = timeScale(c)
	}
	rec := make([]string, len(s.Columns))
	for _, row := range s.Rows {
		for i, v := range row {
			rec[i] = FormatFloat(roundTime(v, scale[i]))
		}
		if err := w.Write(rec); err != nil {
			return err
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return WriteFileAtomic(path, buf.Bytes())
}

// timeScale returns how many picoseconds make one unit of a column whose
// name ends in a time unit (_s, _ms, _us, _ns), or 0 for other columns.
// Simulated times are whole picoseconds, so such a column is rounded to
// the picosecond: 10.030000000000001 ms is written 10.03.
func timeScale(column string) float64 {
	switch {
	case strings.HasSuffix(column, "_per_s"):
		return 0
	case strings.HasSuffix(column, "_ns"):
		return 1e3
	case strings.HasSuffix(column, "_us"):
		return 1e6
	case strings.HasSuffix(column, "_ms"):
		return 1e9
	case strings.HasSuffix(column, "_s"):
		return 1e12
	}
	return 0
}

// roundTime rounds v (in a unit of scale picoseconds) to the picosecond
// when that is exact in a float64; other values are returned unchanged.
func roundTime(v, scale float64) float64 {
	if scale == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	ps := v * scale
	if math.Abs(ps) >= 1<<53 {
		return v
	}
	return math.Round(ps) / scale
}
