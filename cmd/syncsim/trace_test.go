package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"syncsim/internal/timeline"
)

// traceCases are small runs whose workers compute layer by layer: ring
// all-reduce and INA jobs side by side on the mixed fabric (the ring jobs
// on the ASTRA-sim workload), INA jobs on the testbed, and dssync's host
// schemes; two points each, so a sweep has several runs.
var traceCases = []struct {
	exp  string
	args []string
}{
	{"mixed-fabric", []string{"--set", "ina_jobs=1", "--set", "ina_overlap=layer", "--set", "workers=2", "--set", "ring_jobs=1",
		"--set", "ring_workers=2", "--set", "pr_jobs=0", "--set", "load=0", "--set", "iterations=2", "--set", "compute_ms=1",
		"--set", "workload_file=" + astraTxt, "--vary", "bucket_mib=0,25", "--set", "spines=1", "--set", "leaves=2", "--set", "hosts_per_leaf=3"}},
	{"ina-testbed", []string{"--vary", "protocol=atp,pa-atp", "--set", "model=custom", "--set", "gradient_mb=0.3",
		"--set", "iterations=2", "--set", "compute_ms=0.5", "--set", "load=0.3", "--set", "workload_file=" + astraTxt}},
	{"dssync", []string{"--vary", "scheme=dssync,allreduce,gossip", "--set", "workload_file=" + astraTxt, "--set", "iterations=6",
		"--set", "adjust_every=3", "--set", "warmup_iters=2", "--set", "fidelity=packet"}},
}

// runTrace runs a sweep of tc with --trace and the CSV, at parallel,
// and returns the trace, the exposed-time CSV and the results CSV.
func runTrace(t *testing.T, dir, exp string, args []string, parallel int, trace bool) (js, comm, res []byte) {
	t.Helper()
	tag := exp + "-p" + strconv.Itoa(parallel) + "-" + strconv.FormatBool(trace)
	out := filepath.Join(dir, tag+".csv")
	full := append([]string{"sweep", exp, "--trials", "2", "--quiet", "--parallel", strconv.Itoa(parallel), "--csv", out}, args...)
	tr := filepath.Join(dir, tag+".json")
	if trace {
		full = append(full, "--trace", tr)
	}
	if _, stderr, code := runCLI(t, full...); code != 0 {
		t.Fatalf("%v: exit %d: %s", full, code, stderr)
	}
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	res = read(out)
	if trace {
		js, comm = read(tr), read(filepath.Join(dir, tag+".comm.csv"))
	}
	return js, comm, res
}

// TestTrace: the trace parses with the schema the viewers need (every
// span named, a worker's compute never overlapping itself: Validate),
// holds compute and synchronisation spans of every job, has the same
// bytes at --parallel 1 and 2, and leaves the results CSV as it is
// without --trace; the exposed-time CSV is pandas-readable (one header,
// numbers where numbers belong) and no collective exposes more than its
// own length.
func TestTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("runs small simulations")
	}
	for _, tc := range traceCases {
		t.Run(tc.exp, func(t *testing.T) {
			dir := t.TempDir()
			js1, comm1, res1 := runTrace(t, dir, tc.exp, tc.args, 1, true)
			js2, comm2, res2 := runTrace(t, dir, tc.exp, tc.args, 2, true)
			_, _, plain := runTrace(t, dir, tc.exp, tc.args, 2, false)
			if !bytes.Equal(js1, js2) || !bytes.Equal(comm1, comm2) {
				t.Error("the trace differs between --parallel 1 and 2")
			}
			if !bytes.Equal(res1, plain) || !bytes.Equal(res2, plain) {
				t.Error("--trace changed the results CSV")
			}
			evs, err := timeline.Validate(js1)
			if err != nil {
				t.Fatal(err)
			}
			cats := map[string]int{}
			pids := map[int]bool{}
			for _, e := range evs {
				if e.Ph == "X" {
					cats[e.Cat]++
					pids[*e.Pid] = true
				}
			}
			if cats["compute"] == 0 || cats["sync"] == 0 {
				t.Errorf("spans by category %v", cats)
			}
			if len(pids) < 4 { // 2 points x 2 trials, one job or more each
				t.Errorf("%d processes with spans, want at least 4", len(pids))
			}
			rows, err := csv.NewReader(bytes.NewReader(comm1)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if got := rows[0]; len(got) != 12 || got[11] != "exposed_us" {
				t.Fatalf("header %v", got)
			}
			if len(rows) < 2 {
				t.Fatal("no collectives")
			}
			for _, r := range rows[1:] {
				var v [4]float64
				for k := range v {
					if v[k], err = strconv.ParseFloat(r[8+k], 64); err != nil {
						t.Fatalf("row %v: %v", r, err)
					}
				}
				if v[1] < v[0] || v[3] < 0 || v[3] > v[2] || v[2] != v[1]-v[0] && abs(v[2]-(v[1]-v[0])) > 1e-6 {
					t.Errorf("row %v: start, end, comm, exposed inconsistent", r)
				}
			}
		})
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestTraceRefusals: --trace refuses an empty name, --resume, and an
// existing file without --force; an experiment without layer-by-layer
// jobs says it recorded nothing.
func TestTraceRefusals(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []refusalCase{
		{"empty", []string{"run", "ina-basic", "--trace", ""}, []string{"--trace needs a file name"}},
		{"resume", []string{"run", "ina-basic", "--csv", filepath.Join(dir, "r.csv"), "--resume", "--trace", filepath.Join(dir, "r.json")},
			[]string{"--trace records the runs of one command"}},
		{"exists", []string{"run", "ina-basic", "--trace", old}, []string{"--trace", "old.json exists", "--force"}},
	} {
		checkRefusals(t, tc, false)
	}
	_, stderr, code := runCLI(t, "run", "ina-model", "--set", "jobs=1", "--quiet", "--trace", filepath.Join(dir, "none.json"))
	if code != 0 || !bytes.Contains([]byte(stderr), []byte("recorded no timeline")) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestTraceThreads: on the parallel engine, where each host's events run
// in its own partition, the trace has the same bytes at --threads 1 and
// 2.
func TestTraceThreads(t *testing.T) {
	if testing.Short() {
		t.Skip("runs small simulations")
	}
	dir := t.TempDir()
	var got [2][]byte
	for i, th := range []string{"1", "2"} {
		p := filepath.Join(dir, "t"+th+".json")
		args := []string{"run", "mixed-fabric", "--quiet", "--threads", th, "--trace", p, "--set", "engine=partitioned",
			"--set", "ina_jobs=1", "--set", "ina_overlap=layer", "--set", "bucket_mib=0", "--set", "workers=2", "--set", "ring_jobs=1",
			"--set", "ring_workers=2", "--set", "pr_jobs=0", "--set", "load=0", "--set", "iterations=2", "--set", "compute_ms=1"}
		if _, stderr, code := runCLI(t, args...); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got[i] = b
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Error("the trace differs between --threads 1 and 2")
	}
	if _, err := timeline.Validate(got[0]); err != nil {
		t.Error(err)
	}
}
