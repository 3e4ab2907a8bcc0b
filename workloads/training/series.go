package training

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"syncsim/netsim"
)

// SeriesRow is one line of a bandwidth time series: from time At (seconds)
// on, the quantity named by Key (a worker, or a src and dst pair) takes
// Value.
type SeriesRow struct {
	At    float64
	Key   []int
	Value float64
	Line  int // the line of the file it was read from
}

// ReadSeries reads a time series in CSV: one row per line, "time_s,
// key..., value" with keys integer indexes (workers from 0), blank lines
// and lines starting with '#' skipped, and a first line whose first field
// is not a number taken as a header. Each key must lie in [0, n); times
// must be times the simulated clock holds (netsim.CheckSeconds), values
// finite and positive (CheckRates bounds them as rates). Rows are
// returned sorted by time, stably (a later row for the same key and time
// wins). Errors name the line.
func ReadSeries(r io.Reader, keys, n int) ([]SeriesRow, error) {
	var out []SeriesRow
	sc := bufio.NewScanner(r)
	line := 0
	header := false
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Split(t, ",")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if len(out) == 0 && !header {
			header = true // only the first row can be a header
			if _, err := strconv.ParseFloat(f[0], 64); err != nil {
				continue
			}
		}
		if len(f) != keys+2 {
			return nil, fmt.Errorf("line %d: %d fields, want %d (time_s, %d key(s), value)", line, len(f), keys+2, keys)
		}
		at, err := strconv.ParseFloat(f[0], 64)
		if err != nil || math.IsNaN(at) || math.IsInf(at, 0) || at < 0 {
			return nil, fmt.Errorf("line %d: time %q is not a non-negative number of seconds", line, f[0])
		}
		if err := netsim.CheckSeconds(at); err != nil {
			return nil, fmt.Errorf("line %d: time %w", line, err)
		}
		row := SeriesRow{At: at, Key: make([]int, keys), Line: line}
		for k := 0; k < keys; k++ {
			v, err := strconv.Atoi(f[1+k])
			if err != nil || v < 0 || v >= n {
				return nil, fmt.Errorf("line %d: %q is not a worker in 0..%d", line, f[1+k], n-1)
			}
			row.Key[k] = v
		}
		if row.Value, err = strconv.ParseFloat(f[keys+1], 64); err != nil || math.IsNaN(row.Value) || math.IsInf(row.Value, 0) || row.Value <= 0 {
			return nil, fmt.Errorf("line %d: value %q is not a positive number", line, f[keys+1])
		}
		out = append(out, row)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no rows")
	}
	slices.SortStableFunc(out, func(a, b SeriesRow) int {
		switch {
		case a.At < b.At:
			return -1
		case a.At > b.At:
			return 1
		}
		return 0
	})
	return out, nil
}

// ReadSeriesFile reads the series file at path (see ReadSeries). Errors
// name the file.
func ReadSeriesFile(path string, keys, n int) ([]SeriesRow, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	rows, err := ReadSeries(fh, keys, n)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}

// CheckRates checks that every row's value times scale is a rate the
// simulation can carry (netsim.CheckRate), values being in units of
// unitBPS bits per second named unit; errors name the file and the line.
func CheckRates(path string, rows []SeriesRow, scale, unitBPS float64, unit string) error {
	for _, r := range rows {
		if err := netsim.CheckRate(r.Value*scale, unitBPS, unit); err != nil {
			if scale != 1 {
				return fmt.Errorf("%s line %d: %g %s scaled by %g: %w", path, r.Line, r.Value, unit, scale, err)
			}
			return fmt.Errorf("%s line %d: %w", path, r.Line, err)
		}
	}
	return nil
}

// BWTrace is every worker's available bandwidth following a measured time
// series: piecewise constant between the distinct times of its rows.
// Epoch 0 starts at 0 with the initial bandwidths overridden by the rows
// at time 0; epoch e starts at the e-th distinct later time and changes
// the workers its rows name.
type BWTrace struct {
	starts []float64   // seconds, starts[0] = 0
	epochs [][]float64 // Gbps
}

// NewBWTrace applies rows (worker, Gbps; sorted by time, as ReadSeries
// returns them) to the initial bandwidths (Gbps).
func NewBWTrace(initial []float64, rows []SeriesRow) (*BWTrace, error) {
	cur := append([]float64(nil), initial...)
	tr := &BWTrace{starts: []float64{0}}
	for i := 0; i < len(rows); {
		at := rows[i].At
		j := i
		for j < len(rows) && rows[j].At == at {
			r := rows[j]
			if len(r.Key) != 1 || r.Key[0] < 0 || r.Key[0] >= len(cur) {
				return nil, fmt.Errorf("bandwidth trace: row at %g s names %v, want one worker in 0..%d", at, r.Key, len(cur)-1)
			}
			j++
		}
		if at > 0 {
			tr.epochs = append(tr.epochs, cur)
			tr.starts = append(tr.starts, at)
			cur = append([]float64(nil), cur...)
		}
		for _, r := range rows[i:j] {
			cur[r.Key[0]] = r.Value
		}
		i = j
	}
	tr.epochs = append(tr.epochs, cur)
	return tr, nil
}

// Epochs is the number of epochs.
func (t *BWTrace) Epochs() int { return len(t.epochs) }

// Start is when epoch e begins, in seconds; +Inf past the last epoch.
func (t *BWTrace) Start(e int) float64 {
	if e >= len(t.starts) {
		return math.Inf(1)
	}
	return t.starts[e]
}

// Epoch is the bandwidths (Gbps) during epoch e (the last one for e past
// the end). The slice is shared: do not modify it.
func (t *BWTrace) Epoch(e int) []float64 { return t.epochs[min(e, len(t.epochs)-1)] }
