package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Sweep is one build's runs of one point: the metrics of every seed, as
// its CSV has them, and what the sweep cost.
type Sweep struct {
	Metrics []string            // metric columns, in the CSV's order
	Values  map[int64][]float64 // seed -> value of each metric
	Seeds   []int64             // the seeds, ascending
	CPU     time.Duration       // user + system CPU of the sweep's process
	CSV     string              // the CSV written
	byName  map[string]int      // metric -> column in Values
}

// runSweep runs bin's sweep of point p over seeds 1..seeds with parallel
// runs at a time, writing dir/<point>.csv, and reads the result.
func runSweep(bin string, p Point, seeds, parallel int, dir string) (*Sweep, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, p.Name+".csv")
	cmd := exec.Command(bin, p.args(seeds, parallel, path)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s: %v: %s", bin, strings.Join(p.args(seeds, parallel, path), " "), err,
			strings.TrimSpace(lastLines(stderr.String(), 5)))
	}
	sw, err := readSweep(path)
	if err != nil {
		return nil, err
	}
	sw.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if len(sw.Seeds) != seeds {
		return nil, fmt.Errorf("%s: %d seeds in %s, want %d", bin, len(sw.Seeds), path, seeds)
	}
	return sw, nil
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}

// readSweep reads a sweep's tidy CSV: the columns after trial and seed
// are the metrics (the sweep writes experiment, every parameter, trial,
// seed, every metric); each row is one seed.
func readSweep(path string) (*Sweep, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(rows) < 2 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	head := rows[0]
	seedCol := -1
	for i := 1; i < len(head); i++ {
		if head[i-1] == "trial" && head[i] == "seed" {
			seedCol = i
		}
	}
	if seedCol < 0 {
		return nil, fmt.Errorf("%s: no trial and seed columns", path)
	}
	sw := &Sweep{Metrics: slices.Clone(head[seedCol+1:]), Values: map[int64][]float64{}, CSV: path,
		byName: map[string]int{}}
	for i, m := range sw.Metrics {
		sw.byName[m] = i
	}
	for _, r := range rows[1:] {
		seed, err := strconv.ParseInt(r[seedCol], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: seed %q: %v", path, r[seedCol], err)
		}
		if _, dup := sw.Values[seed]; dup {
			return nil, fmt.Errorf("%s: seed %d twice", path, seed)
		}
		vals := make([]float64, len(sw.Metrics))
		for j, cell := range r[seedCol+1:] {
			if vals[j], err = strconv.ParseFloat(cell, 64); err != nil {
				return nil, fmt.Errorf("%s: seed %d, %s = %q: %v", path, seed, sw.Metrics[j], cell, err)
			}
		}
		sw.Values[seed] = vals
		sw.Seeds = append(sw.Seeds, seed)
	}
	slices.Sort(sw.Seeds)
	return sw, nil
}

// column is metric m's value for each of seeds (NaN where the sweep has
// no such metric).
func (sw *Sweep) column(m string, seeds []int64) []float64 {
	out := make([]float64, len(seeds))
	j, ok := sw.byName[m]
	for i, s := range seeds {
		if ok {
			out[i] = sw.Values[s][j]
		} else {
			out[i] = math.NaN()
		}
	}
	return out
}
