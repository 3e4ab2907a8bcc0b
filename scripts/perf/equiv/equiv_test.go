package main

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// plantedFile, plantedFrom and plantedTo are the one-line model change
// the check must catch: the switch's step marking at K + 1 packets
// instead of K (DCTCP marks a packet that finds at least K waiting,
// Alizadeh et al. 2010, Sec. 3.1).
const (
	plantedFile = "switchmodel/queue.go"
	plantedFrom = "q.data.n >= q.ecnPkts"
	plantedTo   = "q.data.n > q.ecnPkts"
)

// TestCatchesPlantedChangePassesReordering builds syncsim three ways
// and runs the reduced panel (-panel ci: the incast at 100 ms and the
// 128-host permutation at 0.5 ms) over 6 seeds, the fewest for which the
// U test can reach p < 0.01 with room (complete separation gives p =
// 2/924):
//
//   - the planted build, whose switches mark at K + 1 packets (a
//     one-line change, given to the compiler with -overlay), must
//     FAIL, naming the incast's queue metrics;
//   - the reordered build (tag syncsim_reversedrain: every partition
//     drains its inboxes from the last source partition, so packets
//     from different partitions arriving at one instant fire in the
//     reverse order) must pass, and must have moved some rows, or the
//     test would prove nothing;
//   - the ordinary build against itself must pass with every shift 0.
//
// About 25 CPU-seconds on a 2-core machine with the build cache warm
// (three links and two package compiles, then 6 sweeps of about a
// CPU-second each).
func TestCatchesPlantedChangePassesReordering(t *testing.T) {
	if testing.Short() {
		t.Skip("builds syncsim three times and runs 6 sweeps")
	}
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no module at %s: %v", root, err)
	}
	dir := t.TempDir()
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	build := func(out string, flags ...string) string {
		t.Helper()
		path := filepath.Join(dir, out)
		cmd := exec.Command(goTool, append(append([]string{"build"}, flags...), "-o", path, "./cmd/syncsim")...)
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", flags, err, b)
		}
		return path
	}
	src, err := os.ReadFile(filepath.Join(root, plantedFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(src), plantedFrom); n != 1 {
		t.Fatalf("%s holds %q %d times, want once: move the planted change to the line that marks now", plantedFile, plantedFrom, n)
	}
	edited := filepath.Join(dir, "queue.go")
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(edited, []byte(strings.Replace(string(src), plantedFrom, plantedTo, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	js := fmt.Sprintf(`{"Replace": {%q: %q}}`, filepath.Join(root, plantedFile), edited)
	if err := os.WriteFile(overlay, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	old := build("old")
	planted := build("planted", "-overlay", overlay)
	reordered := build("reordered", "-tags", "syncsim_reversedrain")

	// The planted change: exit status 1, the failing metrics in the
	// table and in the CSV.
	out := filepath.Join(dir, "planted-out")
	var stdout, stderr strings.Builder
	code := run([]string{"-panel", "ci", "-seeds", "6", "-parallel", "2", "-out", out, old, planted}, &stdout, &stderr)
	t.Logf("planted:\n%s", stdout.String())
	if code != 1 || !strings.Contains(stdout.String(), "FAIL:") {
		t.Fatalf("the planted change passed (exit %d):\n%s\n%s", code, stdout.String(), stderr.String())
	}
	failed := failing(t, filepath.Join(out, "equivalence.csv"))
	for _, m := range []string{"incast/queue_mean_pkts", "incast/queue_max_pkts"} {
		if !slices.Contains(failed, m) {
			t.Errorf("%s not among the failing metrics %v", m, failed)
		}
		if !strings.Contains(stdout.String(), strings.Replace(m, "/", "  ", 1)) {
			t.Errorf("%s not in the table of failing metrics", m)
		}
	}

	// The reordering and the build against itself, against the old
	// build's sweeps of the run above.
	rule := Rule{Alpha: 0.01, ConstTol: 1e-9, Ignore: map[string]bool{"events": true}}
	moved := 0
	for _, p := range ciPanel() {
		o, err := readSweep(filepath.Join(out, "old", p.Name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		r, err := runSweep(reordered, p, 6, 2, filepath.Join(dir, "reordered-out"))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range o.Seeds {
			if !slices.EqualFunc(o.Values[s], r.Values[s], func(a, b float64) bool {
				return a == b || math.IsNaN(a) && math.IsNaN(b)
			}) {
				moved++
			}
		}
		vs, err := rule.comparePoint(p, o, r)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			if v.Verdict == verdictFail {
				t.Errorf("the reordering failed %s/%s: %s", v.Point, v.Metric, v.Reason)
			}
		}
		same, err := rule.comparePoint(p, o, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range same {
			if v.Verdict == verdictFail || v.Seeds > 0 && v.Shift != 0 {
				t.Errorf("the build against itself: %+v", v)
			}
		}
	}
	if moved == 0 {
		t.Fatal("the reordered build gave the same rows as the old one: the test shows nothing")
	}
	t.Logf("the reordering moved %d of %d rows", moved, 6*len(ciPanel()))
}

// failing reads the verdicts' CSV and returns point/metric of every
// failing row.
func failing(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	var out []string
	for _, r := range rows[1:] {
		if len(r) != len(rows[0]) {
			t.Fatalf("%s: a row of %d cells under %d columns", path, len(r), len(rows[0]))
		}
		if r[col["verdict"]] == verdictFail {
			out = append(out, r[col["point"]]+"/"+r[col["metric"]])
		}
	}
	return out
}
