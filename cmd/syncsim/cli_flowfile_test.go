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
