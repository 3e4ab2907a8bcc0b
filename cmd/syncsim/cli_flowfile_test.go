package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlowFileCLI: a flow file replayed over two trials writes fct.txt and
// fct.t1.txt, the same bytes at --parallel 1 and 2 (the CSVs too, but for
// the fct_out column, which names each run's directory); a bad
// file is refused in one line on stderr naming the file and the line,
// with exit status 1.
func TestFlowFileCLI(t *testing.T) {
	dir := t.TempDir()
	flows := filepath.Join(dir, "flow.txt")
	text := "6\n0 5 3 100 30000 0.0001\n1 4 3 100 200000 0.0001\n2 7 3 200 5000 0.00012\n" +
		"5 0 3 100 60000 0.0002\n7 3 3 100 1000 0.0002\n6 2 3 100 90000 0.0003\n"
	if err := os.WriteFile(flows, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := map[string][3]string{}
	for _, par := range []string{"1", "2"} {
		d := filepath.Join(dir, "p"+par)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runCLI(t, "run", "background", "--quiet", "--trials", "2", "--parallel", par, "--csv", filepath.Join(d, "r.csv"),
			"--set", "spines=2", "--set", "leaves=2", "--set", "hosts_per_leaf=4", "--set", "duration_ms=2", "--set", "warmup_ms=0",
			"--set", "flows_file="+flows, "--set", "fct_out="+filepath.Join(d, "fct.txt"))
		if code != 0 {
			t.Fatalf("--parallel %s: exit %d: %s", par, code, stderr)
		}
		out[par] = [3]string{readFile(t, filepath.Join(d, "fct.txt")), readFile(t, filepath.Join(d, "fct.t1.txt")), strings.ReplaceAll(readFile(t, filepath.Join(d, "r.csv")), d, "DIR")}
	}
	for i, what := range []string{"fct.txt", "fct.t1.txt", "the CSV"} {
		if out["1"][i] != out["2"][i] {
			t.Errorf("%s differs between --parallel 1 and 2", what)
		}
	}
	if n := strings.Count(out["1"][0], "\n"); n != 6 {
		t.Errorf("fct.txt has %d lines, want 6:\n%s", n, out["1"][0])
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("2\n0 1 3 100 10 0\n0 99 3 100 10 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, "run", "background", "--quiet", "--set", "spines=2", "--set", "leaves=2", "--set", "hosts_per_leaf=4",
		"--set", "duration_ms=1", "--set", "flows_file="+bad)
	if code != 1 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, `flows_file "`+bad+`" line 3: dst 99 is not a host`) {
		t.Errorf("bad file: exit %d, stderr %q", code, stderr)
	}
}

// TestFCTBesideCSV: with --csv DIR/r.csv and a flow file, a run writes
// its flows to DIR/r.fct.txt and DIR/r.fct.t1.txt, byte for byte what
// fct_out writes for the same runs; a second run refuses to replace them
// without --force; fct_out, when given, is written instead; a sweep of
// two points writes r.p0.fct.txt and r.p1.fct.txt; runs without a flow
// file, and sr-cluster at flow fidelity (no acknowledgements to end a
// flow at), write none; one fct_out at two points of a sweep is refused.
func TestFCTBesideCSV(t *testing.T) {
	dir := t.TempDir()
	flows := filepath.Join(dir, "flow.txt")
	text := "4\n0 5 3 100 30000 0.0001\n1 4 3 100 200000 0.0001\n2 7 3 200 5000 0.00012\n5 0 3 100 60000 0.0002\n"
	if err := os.WriteFile(flows, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	fabric := []string{"--set", "spines=2", "--set", "leaves=2", "--set", "hosts_per_leaf=4", "--set", "duration_ms=1", "--set", "warmup_ms=0"}
	run := func(args ...string) (string, int) {
		t.Helper()
		_, stderr, code := runCLI(t, append(append([]string{"run", "background", "--quiet", "--trials", "2"}, fabric...), args...)...)
		return stderr, code
	}
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if stderr, code := run("--csv", filepath.Join(a, "r.csv"), "--set", "flows_file="+flows); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stderr, code := run("--csv", filepath.Join(b, "r.csv"), "--set", "flows_file="+flows, "--set", "fct_out="+filepath.Join(b, "own.txt")); code != 0 {
		t.Fatalf("with fct_out: exit %d: %s", code, stderr)
	}
	for i, pair := range [][2]string{{"r.fct.txt", "own.txt"}, {"r.fct.t1.txt", "own.t1.txt"}} {
		beside, own := readFile(t, filepath.Join(a, pair[0])), readFile(t, filepath.Join(b, pair[1]))
		if beside != own || strings.Count(beside, "\n") != 4 {
			t.Errorf("trial %d: %s (%d lines) differs from fct_out's %s:\n%s\n%s", i, pair[0], strings.Count(beside, "\n"), pair[1], beside, own)
		}
	}
	if exists(filepath.Join(b, "r.fct.txt")) {
		t.Error("fct_out given, and r.fct.txt was written beside the CSV too")
	}
	stderr, code := run("--csv", filepath.Join(a, "s.csv"), "--set", "flows_file="+flows) // s.fct.txt is new
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if err := os.Remove(filepath.Join(a, "s.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(a, "s.csv.json")); err != nil {
		t.Fatal(err)
	}
	stderr, code = run("--csv", filepath.Join(a, "s.csv"), "--set", "flows_file="+flows)
	if want := filepath.Join(a, "s.fct.txt") + " exists"; code != 1 || !strings.Contains(stderr, want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("an existing fct.txt: exit %d, stderr %q, want one line with %q", code, stderr, want)
	}
	if stderr, code = run("--csv", filepath.Join(a, "s.csv"), "--set", "flows_file="+flows, "--force"); code != 0 {
		t.Errorf("--force: exit %d: %s", code, stderr)
	}

	_, stderr, code = runCLI(t, append(append([]string{"sweep", "background", "--quiet", "--csv", filepath.Join(dir, "w.csv"),
		"--set", "flows_file=" + flows, "--vary", "duration_ms=1,2"}, fabric[:6]...), "--set", "warmup_ms=0")...)
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"w.p0.fct.txt", "w.p1.fct.txt"} {
		if !exists(filepath.Join(dir, f)) {
			t.Errorf("the sweep wrote no %s", f)
		}
	}
	if exists(filepath.Join(dir, "w.fct.txt")) {
		t.Error("a sweep of two points wrote w.fct.txt")
	}
	_, stderr, code = runCLI(t, append(append([]string{"sweep", "background", "--quiet", "--csv", filepath.Join(dir, "x.csv"),
		"--set", "flows_file=" + flows, "--set", "fct_out=" + filepath.Join(dir, "one.txt"), "--vary", "duration_ms=1,2"}, fabric[:6]...), "--set", "warmup_ms=0")...)
	if code != 1 || !strings.Contains(stderr, "at points 0 and 1 of the grid: their runs would write the same files") {
		t.Errorf("one fct_out at two points: exit %d, stderr %q", code, stderr)
	}

	if stderr, code = run("--csv", filepath.Join(dir, "none.csv")); code != 0 || exists(filepath.Join(dir, "none.fct.txt")) {
		t.Errorf("no flow file: exit %d (%s), none.fct.txt written: %v", code, stderr, exists(filepath.Join(dir, "none.fct.txt")))
	}
	for fid, want := range map[string]bool{"flow": false, "packet": true} {
		stdout, stderr, code := runCLI(t, "run", "sr-cluster", "--dry-run", "--csv", filepath.Join(dir, "sr.csv"), "--set", "fidelity="+fid,
			"--set", "topology=leaf-spine", "--set", "n=6", "--set", "model_mb=1", "--set", "duration_s=2", "--set", "flows_file="+flows)
		if code != 0 {
			t.Fatalf("sr-cluster fidelity=%s: exit %d: %s", fid, code, stderr)
		}
		if got := strings.Contains(stdout+stderr, filepath.Join(dir, "sr.fct.txt")); got != want {
			t.Errorf("sr-cluster fidelity=%s: dry run names sr.fct.txt: %v, want %v:\n%s", fid, got, want, stdout)
		}
	}
}
