package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeLines writes a file of lines in dir and returns its path.
func writeLines(t *testing.T, dir, name string, lines ...string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// multipliers is a multipliers file of n workers, the first first and the
// others 1.
func multipliers(t *testing.T, dir string, n int, first string) string {
	lines := []string{first}
	for i := 1; i < n; i++ {
		lines = append(lines, "1")
	}
	return writeLines(t, dir, fmt.Sprintf("mult%d.txt", n), lines...)
}

// checkRefusal fails unless a command exited non-zero with one
// "syncsim: " line on stderr that holds every want, no stack and no
// parameter point spelt out in full.
func checkRefusal(t *testing.T, stdout, stderr string, code int, want []string) {
	t.Helper()
	if code == 0 {
		t.Fatalf("exit 0, stdout %q", stdout)
	}
	if !strings.HasPrefix(stderr, "syncsim: ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr is not one 'syncsim: ' line: %q", stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr %q lacks %q", stderr, w)
		}
	}
	for _, bad := range []string{"goroutine ", "panic", ".go:"} {
		if strings.Contains(stderr+stdout, bad) {
			t.Errorf("output mentions %q: %s", bad, stderr)
		}
	}
	// The message names the parameter at fault, not the whole point
	// (sr-cluster's was about 900 characters).
	if len(stderr) > 400 {
		t.Errorf("message of %d characters: %s", len(stderr), stderr)
	}
}

// refusalCase is a command line the CLI must refuse, and what its one
// line must say.
type refusalCase struct {
	name string
	args []string
	want []string
}

// checkRefusals runs tc once per mode, in the order given (false: the
// run itself; true: with --dry-run), and checks each refusal.
func checkRefusals(t *testing.T, tc refusalCase, modes ...bool) {
	t.Helper()
	for _, dry := range modes {
		name := tc.name
		args := tc.args
		if dry {
			name += " dry-run"
			args = append(append([]string(nil), args...), "--dry-run")
		}
		t.Run(name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, args...)
			checkRefusal(t, stdout, stderr, code, tc.want)
		})
	}
}

// TestValuesPastTheClock: values inside the declared ranges, or files
// that pass validation, whose times do not fit the simulated clock
// (2^63 ps, 106 days) are refused before anything runs, with one line
// naming the parameter or the file and line; each of these panicked with
// "event scheduled in the past". --dry-run refuses them the same way.
func TestValuesPastTheClock(t *testing.T) {
	dir := t.TempDir()
	t1e10 := writeLines(t, dir, "t1e10.txt", "1e10")
	t1e308 := writeLines(t, dir, "t1e308.txt", "0.3", "1e308")
	for _, tc := range []refusalCase{
		{"sr-cluster trace_file 1e10", []string{"run", "sr-cluster", "--set", "trace=file", "--set", "trace_file=" + t1e10},
			[]string{"trace_file", "t1e10.txt", "line 1", "1e+10 s is beyond the 9.22e+06 s"}},
		{"sr-cluster trace_file 1e308", []string{"run", "sr-cluster", "--set", "trace=file", "--set", "trace_file=" + t1e308},
			[]string{"trace_file", "t1e308.txt", "line 2", "1e+308 s is beyond"}},
		{"sr-cluster straggler past the clock", []string{"run", "sr-cluster", "--set", "trace=constant", "--set", "compute_ms=1e7",
			"--set", "stragglers=1", "--set", "straggler_slowdown=10000"},
			[]string{"straggler_slowdown = 10000", "compute_ms = 1e+07", "1e+08 s is beyond"}},
		{"sr-cluster multipliers 1e308", []string{"run", "sr-cluster", "--set", "worker_multipliers_file=" + multipliers(t, dir, 40, "1e308")},
			[]string{"worker_multipliers_file", "line 1", "multiplier 1e+308", "beyond"}},
		{"dssync multipliers 1e308", []string{"run", "dssync", "--set", "worker_multipliers_file=" + multipliers(t, dir, 8, "1e308")},
			[]string{"worker_multipliers_file", "line 1", "multiplier 1e+308", "beyond"}},
		{"dssync iterations past the clock", []string{"run", "dssync", "--set", "compute_ms=1e7", "--set", "iterations=10000"},
			[]string{"iterations = 10000", "compute_ms = 1e+07", "beyond"}},
		// Not the clock but memory: bandwidth epochs kept for the run.
		{"sr-cluster bandwidth epochs past memory", []string{"run", "sr-cluster", "--set", "bw_model=redraw", "--set", "bw_period_s=0.001",
			"--set", "duration_s=494117"}, []string{"bw_period_s = 0.001", "duration_s = 494117", "4.94e+08 bandwidth epochs"}},
		{"crew-training trace 1e308", []string{"run", "crew-training", "--set", "trace=file", "--set", "trace_file=" + t1e308},
			[]string{"trace_file", "line 2", "beyond"}},
		{"crew-training multipliers 1e308", []string{"run", "crew-training", "--set", "worker_multipliers_file=" + multipliers(t, dir, 60, "1e308")},
			[]string{"worker_multipliers_file", "line 1", "beyond"}},
	} {
		checkRefusals(t, tc, false, true)
	}
}

// TestLongTailPastTheClock: a lognormal whose median fits the clock but
// whose tail reaches past it (compute_ms=1e7, compute_spread=5, about one
// draw in 1,000 past 106 days) runs: a draw past the clock's end is a
// computation that does not end within the run. It panicked with "event
// scheduled in the past". A 1e4 s median in a 100 s run leaves some
// workers finishing an iteration (P(T < 100 s) = Phi(ln(0.01)/5) = 18 %)
// and no synchronisation of p = 12.
func TestLongTailPastTheClock(t *testing.T) {
	csvPath := filepath.Join(t.TempDir(), "tail.csv")
	_, stderr, code := runCLI(t, "run", "sr-cluster", "--set", "trace=lognormal", "--set", "compute_ms=1e7",
		"--set", "compute_spread=5", "--csv", csvPath, "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("%d rows, err %v", len(rows), err)
	}
	col := func(name string) string {
		for i, h := range rows[0] {
			if h == name {
				return rows[1][i]
			}
		}
		t.Fatalf("no column %s", name)
		return ""
	}
	if it := col("total_iteration"); it == "0" || it == "40" {
		t.Errorf("total_iteration = %s, want some of the 40 workers", it)
	}
	if s := col("total_sync"); s != "0" {
		t.Errorf("total_sync = %s, want 0", s)
	}
}

// TestLPBeyondTheClock: crew-single with a 1e9 MB model over links at a
// thousandth of N1's bandwidth (values in range) panicked in gonum's
// simplex ("subcolumns of A for supplied initial basic singular"); the LP
// is now solved and the run refused in one line: the plan takes longer
// than the clock holds.
func TestLPBeyondTheClock(t *testing.T) {
	stdout, stderr, code := runCLI(t, "run", "crew-single", "--set", "model_mb=1e6", "--set", "model_scale=1000", "--set", "bw_scale=0.001")
	checkRefusal(t, stdout, stderr, code, []string{"crew-single", "did not complete", "LP's objective", "beyond the 9.22e+06 s",
		"model_mb x model_scale = 1e+09 MB"})
}

// TestDryRunChecksFiles: --dry-run refuses what the run would refuse
// (layouts parsed, compute traces and bandwidth traces read and checked),
// for every point of a sweep, before any output is opened; each of these
// passed --dry-run before.
func TestDryRunChecksFiles(t *testing.T) {
	dir := t.TempDir()
	empty := writeLines(t, dir, "empty.txt", "# no samples")
	negative := writeLines(t, dir, "negative.txt", "-1")
	bw := writeLines(t, dir, "bw.csv", "time_s,worker,gbps", "0,0,1e308")
	bwInf := writeLines(t, dir, "bwinf.csv", "0,1e308", "1,0")
	bwHuge := writeLines(t, dir, "bwhuge.csv", "0,1e300", "1,0")
	latency := writeLines(t, dir, "latency.csv", "0,1e12", "1e12,0")
	fewRows := writeLines(t, dir, "few.csv", "0,1", "1,2", "0,3", "1,4")
	sparse := writeLines(t, dir, "sparse.csv", "0,1", "2,2", "0,3", "2,4", "0,5", "2,6", "0,7", "2,8", "0,9", "2,10")
	for _, tc := range []refusalCase{
		{"dssync layout 0+0", []string{"run", "dssync", "--set", "layout=0+0"}, []string{"dssync", `layout "0+0"`, "rack 0"}},
		{"dssync empty compute_trace", []string{"run", "dssync", "--set", "compute_trace=" + empty}, []string{"compute_trace", "no samples"}},
		{"dssync negative compute_trace", []string{"run", "dssync", "--set", "compute_trace=" + negative},
			[]string{"compute_trace", "line 1", `"-1" is not a positive number`}},
		{"sr-cluster bw_trace_file 1e308", []string{"run", "sr-cluster", "--set", "bw_model=trace", "--set", "bw_trace_file=" + bw},
			[]string{"bw_trace_file", "bw.csv line 2", "1e+308 Gbps is beyond"}},
		// crew's matrices: an entry that overflows its unit, a rate past
		// what a Rate holds (a run-time failure before), a latency past
		// the clock (a wrapped delay and a wrong result before).
		{"crew-single bw_file 1e308", []string{"run", "crew-single", "--set", "network=file", "--set", "bw_file=" + bwInf, "--set", "n=2", "--set", "p=2"},
			[]string{"bw_file", "line 1, column 2", "1e+308 is too large"}},
		{"crew-single bw_file 1e300", []string{"run", "crew-single", "--set", "network=file", "--set", "bw_file=" + bwHuge, "--set", "n=2", "--set", "p=2"},
			[]string{"bw_file", "row 1, column 2", "1e+300 Mbps is beyond"}},
		{"crew-single latency_file 1e12", []string{"run", "crew-single", "--set", "latency=file", "--set", "latency_file=" + latency, "--set", "n=2", "--set", "p=2"},
			[]string{"latency_file", "row 1, column 2", "1e+09 s is beyond"}},
		// A learning data file with fewer training rows than workers (a
		// run-time failure before) or labels that leave a class empty
		// (a silent empty class before).
		{"sr-cluster data_file of 4 rows for 8 workers", []string{"run", "sr-cluster", "--set", "n=8", "--set", "learn_model=softmax",
			"--set", "dataset=file", "--set", "data_file=" + fewRows}, []string{"data_file " + fewRows, "3 training rows cannot give each of 8 workers one"}},
		{"dssync data_file without label 1", []string{"run", "dssync", "--set", "learn_model=softmax",
			"--set", "dataset=file", "--set", "data_file=" + sparse}, []string{"data_file " + sparse, "labels run to 2 but no row has label 1"}},
	} {
		checkRefusals(t, tc, true, false)
	}
	// Rules between parameters that only the run checked, found by
	// random points of FuzzParamPoints' generator that passed --dry-run
	// and failed at run time.
	for _, tc := range []refusalCase{
		{"sr-cluster topology at analytic fidelity", []string{"sweep", "sr-cluster", "--vary", "fidelity=flow,analytic", "--set", "topology=racks"},
			[]string{"point 1 (fidelity=analytic)", "topology=racks needs fidelity=flow or packet"}},
		{"sr-cluster more racks than workers", []string{"sweep", "sr-cluster", "--vary", "n=8,2", "--set", "fidelity=flow", "--set", "topology=racks"},
			[]string{"point 1 (n=2)", "racks=4 exceeds n=2 workers"}},
		{"dssync warm-up of every iteration", []string{"sweep", "dssync", "--vary", "iterations=4,3", "--set", "warmup_iters=3"},
			[]string{"point 1 (iterations=3)", "warmup_iters = 3 leaves nothing of iterations = 3"}},
		{"crew-single more chunks than bytes", []string{"sweep", "crew-single", "--vary", "model_scale=1,0.001", "--set", "model_mb=0.001"},
			[]string{"point 1 (model_scale=0.001)", "chunks = 1000 exceed the model's 1 bytes"}},
		{"crew-training empty fault window", []string{"sweep", "crew-training", "--vary", "fault_from_s=10,100", "--set", "faulty_links=2"},
			[]string{"point 1 (fault_from_s=100)", "fault_from_s = 100 is after duration_s"}},
	} {
		for _, dry := range []bool{true, false} {
			name := tc.name
			csv := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".csv")
			args := append(append([]string(nil), tc.args...), "--csv", csv)
			if dry {
				name += " dry-run"
				args = append(args, "--dry-run")
			}
			t.Run(name, func(t *testing.T) {
				stdout, stderr, code := runCLI(t, args...)
				checkRefusal(t, stdout, stderr, code, tc.want)
				if _, err := os.Stat(csv); !os.IsNotExist(err) {
					t.Errorf("%s exists (err %v)", csv, err)
				}
			})
		}
	}
	// A sweep whose second point is bad runs nothing and writes nothing
	// (it wrote the first point's row, then exited 1).
	for _, dry := range []bool{false, true} {
		csv := filepath.Join(dir, "sweep.csv")
		args := []string{"sweep", "dssync", "--vary", "layout=4+4,0+0", "--set", "iterations=2", "--set", "warmup_iters=1", "--csv", csv}
		if dry {
			args = append(args, "--dry-run")
		}
		stdout, stderr, code := runCLI(t, args...)
		checkRefusal(t, stdout, stderr, code, []string{"point 1 (layout=0+0)", `layout "0+0"`})
		if _, err := os.Stat(csv); !os.IsNotExist(err) {
			t.Errorf("dry-run %v: %s exists (err %v)", dry, csv, err)
		}
	}
}
