package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestTraceRingExposedIsPeriodLess: a ring job's host runs one
// all-reduce at a time and its compute waits only for them, so in every
// iteration but the last the exposed times of its collectives add up to
// the iteration (from one forward of bucket 0 to the next) less its
// compute: 8.9 ms of the ASTRA-sim workload's forward and backward.
func TestTraceRingExposedIsPeriodLess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a small simulation")
	}
	p := filepath.Join(t.TempDir(), "ring.json")
	args := []string{"run", "mixed-fabric", "--quiet", "--trace", p, "--set", "ina_jobs=0", "--set", "ring_jobs=1", "--set", "ring_workers=3",
		"--set", "pr_jobs=0", "--set", "load=0", "--set", "iterations=4", "--set", "workload_file=" + astraTxt, "--set", "bucket_mib=0"}
	if _, stderr, code := runCLI(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		TraceEvents []struct {
			Name, Cat, Ph string
			Ts, Dur       float64
			Tid           int
			Args          struct{ Iteration int }
		}
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	compute := map[int]float64{}
	start := map[int]float64{}
	for _, e := range f.TraceEvents {
		if e.Ph != "X" || e.Tid != 0 { // worker 0's compute thread
			continue
		}
		compute[e.Args.Iteration] += e.Dur
		if e.Name == "forward b0" {
			start[e.Args.Iteration] = e.Ts
		}
	}
	comm, err := os.ReadFile(filepath.Join(filepath.Dir(p), "ring.comm.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(comm)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	exposed := map[int]float64{}
	for _, r := range rows[1:] {
		if r[5] != "0" {
			continue
		}
		it, _ := strconv.Atoi(r[6])
		x, _ := strconv.ParseFloat(r[11], 64)
		exposed[it] += x
	}
	for it := range 3 {
		if math.Abs(compute[it]-8900) > 1e-6 {
			t.Errorf("iteration %d computes %.6f us, want 8900", it, compute[it])
		}
		period := start[it+1] - start[it]
		if want := period - compute[it]; math.Abs(exposed[it]-want) > 1e-5 || want <= 0 {
			t.Errorf("iteration %d exposes %.6f us, period %.6f less compute %.6f = %.6f", it, exposed[it], period, compute[it], want)
		}
	}
}
