package plotting

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// seriesManifest is the part of a run's manifest (written by the sweep
// beside its series files) that a figure needs.
type seriesManifest struct {
	Experiment string `json:"experiment"`
	Point      int    `json:"point"`
	Trial      int    `json:"trial"`
	Seed       uint64 `json:"seed"`
	Params     []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"params"`
	Series []struct {
		Name string `json:"name"`
		File string `json:"file"`
	} `json:"series"`
}

// SeriesOptions say how a time series directory becomes a table.
type SeriesOptions struct {
	// Name is the series (file stem), e.g. "learning".
	Name string
	// Keys are series columns read as parameters (the x axis, and columns
	// named by the series, facet or filters, such as "job"); the other
	// columns are metrics.
	Keys []string
	// X is the x column; Bin, when positive, rounds it down to multiples
	// of Bin so that rows of different trials (whose evaluation times
	// differ) share a cell.
	X   string
	Bin float64
}

// ReadSeriesDir reads every run's series o.Name in a directory written by
// sweep --series-dir as one table: each series row becomes a row with the
// run's parameters, the key columns as parameters, the trial and seed,
// and the other series columns as metrics.
func ReadSeriesDir(dir string, o SeriesOptions) (*Table, error) {
	mans, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	slices.Sort(mans)
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	var header []string
	var keyIdx, metIdx []int
	runs := 0
	for _, path := range mans {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, unwrapPathError(err))
		}
		var m seriesManifest
		if err := json.Unmarshal(b, &m); err != nil || m.Experiment == "" {
			continue // not a run manifest
		}
		file := ""
		for _, s := range m.Series {
			if s.Name == o.Name {
				file = s.File
			}
		}
		if file == "" {
			continue
		}
		f, err := os.Open(filepath.Join(dir, file))
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", file, unwrapPathError(err))
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", file, err)
		}
		if len(recs) == 0 {
			continue
		}
		cols := recs[0]
		if header == nil {
			keyIdx, metIdx = nil, nil
			header = []string{"experiment"}
			for _, p := range m.Params {
				header = append(header, p.Name)
			}
			for _, k := range o.Keys {
				i := slices.Index(cols, k)
				if i < 0 || slices.Contains(header, k) {
					continue
				}
				header = append(header, k)
				keyIdx = append(keyIdx, i)
			}
			header = append(header, "trial", "seed")
			for i, c := range cols {
				if !slices.Contains(keyIdx, i) {
					header = append(header, c)
					metIdx = append(metIdx, i)
				}
			}
			if err := w.Write(header); err != nil {
				return nil, err
			}
		}
		runs++
		var rows [][]string
		lastBin := ""
		for _, rec := range recs[1:] {
			if len(rec) != len(cols) {
				return nil, fmt.Errorf("reading %s: a row of %d values for %d columns", file, len(rec), len(cols))
			}
			row := []string{m.Experiment}
			for _, p := range m.Params {
				row = append(row, p.Value)
			}
			bin := ""
			for _, i := range keyIdx {
				v := rec[i]
				if cols[i] == o.X && o.Bin > 0 {
					if x, err := strconv.ParseFloat(v, 64); err == nil {
						v = strconv.FormatFloat(math.Floor(x/o.Bin)*o.Bin, 'g', -1, 64)
					}
				}
				row = append(row, v)
				bin += v + ","
			}
			row = append(row, strconv.Itoa(m.Trial), strconv.FormatUint(m.Seed, 10))
			for _, i := range metIdx {
				row = append(row, rec[i])
			}
			// Within a bin a run keeps its latest row.
			if o.Bin > 0 && len(rows) > 0 && bin == lastBin {
				rows[len(rows)-1] = row
			} else {
				rows = append(rows, row)
			}
			lastBin = bin
		}
		if err := w.WriteAll(rows); err != nil {
			return nil, err
		}
	}
	w.Flush()
	if runs == 0 {
		return nil, fmt.Errorf("%s holds no series %q (write one with sweep --series-dir)", dir, o.Name)
	}
	return ReadCSV(&buf, filepath.Join(dir, "*_"+o.Name+".csv"))
}
