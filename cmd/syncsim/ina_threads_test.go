package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// inaPartitionedSweeps are small INA sweeps on the parallel engine
// (engine=partitioned): every protocol that runs partitioned, a small
// switch memory on the leaf-spine (overflows to the PS, collisions) and
// background traffic crossing partitions.
var inaPartitionedSweeps = map[string][]string{
	"ina-leafspine": {"--vary", "protocol=pa-atp,strawasyn,strawasyn-pc,strawasyn-al,atp,switchml,byteps", "--set", "engine=partitioned",
		"--set", "spines=2", "--set", "leaves=3", "--set", "hosts_per_leaf=4", "--set", "jobs=3", "--set", "workers=4",
		"--set", "model=custom", "--set", "gradient_mb=0.2", "--set", "iterations=2", "--set", "skip_iters=0",
		"--set", "load=0.3", "--set", "bg_warmup_ms=0.2", "--set", "switch_mem_mib=0.05", "--set", "eta=0.2"},
	"ina-testbed": {"--vary", "protocol=pa-atp,atp", "--set", "engine=partitioned", "--set", "model=custom",
		"--set", "gradient_mb=0.2", "--set", "iterations=2", "--set", "skip_iters=0", "--set", "load=0.4", "--set", "bg_warmup_ms=0.2"},
}

// TestGoldenINAPartitioned: the INA experiments with engine=partitioned
// write byte-identical CSVs at 1, 2, 3 and 8 threads, with the books
// checked (--check: every job's results exactly right, switch + PS
// contributions = workers x packets x iterations, no aggregator left
// held, packets conserved) and every job finished; the CSV is the golden
// one under testdata/golden/partitioned (refreshed with -update, as the
// other goldens, only by a change that means to change results).
func TestGoldenINAPartitioned(t *testing.T) {
	if testing.Short() {
		t.Skip("INA sweeps take CPU")
	}
	for _, name := range []string{"ina-leafspine", "ina-testbed"} {
		sweepSameAtThreads(t, name, inaPartitionedSweeps[name], func(got []byte) { checkAllJobsDone(t, name, got) })
	}
}

// checkAllJobsDone fails unless every row of the CSV has jobs_done = jobs
// and engine=partitioned.
func checkAllJobsDone(t *testing.T, name string, data []byte) {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("%s: bad CSV (%v):\n%s", name, err, data)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, r := range rows[1:] {
		jobs, _ := strconv.Atoi(r[col["jobs"]])
		done, _ := strconv.ParseFloat(r[col["jobs_done"]], 64)
		if r[col["engine"]] != "partitioned" || done != float64(jobs) || jobs < 1 {
			t.Fatalf("%s: row %v: engine %s, %g of %d jobs done", name, r[:col["trial"]], r[col["engine"]], done, jobs)
		}
	}
}

// TestINAPartitionedBooks: a run prints the same results and books at 1
// and 8 threads, the books balance, and the engine profile names the
// partitions.
func TestINAPartitionedBooks(t *testing.T) {
	args := []string{"run", "ina-leafspine", "--check", "-q", "--set", "engine=partitioned", "--set", "spines=2", "--set", "leaves=3",
		"--set", "hosts_per_leaf=4", "--set", "jobs=2", "--set", "workers=5", "--set", "model=custom", "--set", "gradient_mb=0.1",
		"--set", "iterations=2", "--set", "skip_iters=0", "--set", "load=0.3", "--set", "bg_warmup_ms=0.1"}
	out1, _, code1 := runCLI(t, append(args, "--threads", "1")...)
	out8, stderr, code8 := runCLI(t, append(args, "--threads", "8", "--engine-profile")...)
	if code1 != 0 || code8 != 0 || out1 != out8 {
		t.Fatalf("threads 1 and 8 differ (exit %d, %d):\n%s\n---\n%s\n%s", code1, code8, out1, out8, stderr)
	}
	if !strings.Contains(out1, "aggregation (switch + ps") || !strings.Contains(out1, "held 0") || !strings.Contains(stderr, "partitions, 8 threads") {
		t.Fatalf("books or engine profile missing:\n%s\n%s", out1, stderr)
	}
}

// TestEngineRefusals: --threads above 1 on the default engine and
// zero-delay cables on the partitioned one end in one line each, in every
// experiment that takes engine=.
func TestEngineRefusals(t *testing.T) {
	type refusal struct {
		args []string
		want string
	}
	var cases []refusal
	for _, e := range [][2]string{{"ina-leafspine", "ina-testbed"}, {"ina-testbed", "ina-leafspine"}, {"mixed-fabric", "mixed-fabric"}} {
		exp, other := e[0], e[1]
		cases = append(cases,
			refusal{[]string{"run", exp, "--threads", "2"}, exp + " runs on the parallel engine only with --set engine=partitioned"},
			refusal{[]string{"sweep", other, "--threads", "3", "--vary", "engine=partitioned,sequential", "--csv", "x.csv"},
				other + " runs on the parallel engine only with --set engine=partitioned"},
			refusal{[]string{"run", exp, "--set", "engine=partitioned", "--set", "delay_us=0"}, "engine=partitioned needs delay_us > 0"})
	}
	for _, c := range cases {
		_, stderr, code := runCLI(t, c.args...)
		if code != 1 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("syncsim %s: exit %d, stderr %q; want exit 1 and one line with %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}

// checkGolden compares got with the golden file at path, or rewrites it
// with -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("CSV differs from %s (refresh with -update only if the change means to change results)", path)
	}
}

// TestINAPartitionedTwoLevel: ATP's two-level aggregation (every rack
// switch sums its rack's workers, the PS's switch the racks' aggregates)
// on the parallel engine prints the same results and books at 1 and 3
// threads, with every book balanced and the first-level switches
// summing.
func TestINAPartitionedTwoLevel(t *testing.T) {
	args := []string{"run", "ina-leafspine", "--check", "-q", "--set", "engine=partitioned", "--set", "protocol=atp",
		"--set", "agg_placement=two-level", "--set", "spines=2", "--set", "leaves=3", "--set", "hosts_per_leaf=4",
		"--set", "jobs=2", "--set", "workers=5", "--set", "model=custom", "--set", "gradient_mb=0.1", "--set", "iterations=2",
		"--set", "skip_iters=0", "--set", "load=0.3", "--set", "bg_warmup_ms=0.1", "--set", "switch_mem_mib=0.05"}
	sameBooksAtThreads(t, args, "1", "3")
}

// sameBooksAtThreads runs args at threads a and b and fails unless both
// exit 0 with the same output, which --check's aggregation books (every
// aggregator released at the end) are part of.
func sameBooksAtThreads(t *testing.T, args []string, a, b string) {
	t.Helper()
	outA, stderrA, codeA := runCLI(t, append(args, "--threads", a)...)
	outB, stderrB, codeB := runCLI(t, append(args, "--threads", b)...)
	if codeA != 0 || codeB != 0 || outA != outB {
		t.Fatalf("threads %s and %s differ (exit %d, %d):\n%s\n---\n%s\n%s%s", a, b, codeA, codeB, outA, outB, stderrA, stderrB)
	}
	if !strings.Contains(outA, "aggregation (switch + ps") || !strings.Contains(outA, "held 0") {
		t.Fatalf("books missing:\n%s", outA)
	}
}

// sweepSameAtThreads runs the sweep of experiment name with args, --check
// and --seed 5 at 1, 2, 3 and 8 threads: the CSVs must be byte-identical
// and equal to the golden one under testdata/golden/partitioned; check
// looks at the first.
func sweepSameAtThreads(t *testing.T, name string, args []string, check func([]byte)) {
	t.Helper()
	var first []byte
	for _, threads := range []string{"1", "2", "3", "8"} {
		path := filepath.Join(t.TempDir(), name+".csv")
		cmd := append([]string{"sweep", name, "--seed", "5", "--parallel", "1", "--check", "--threads", threads, "--csv", path}, args...)
		if _, stderr, code := runCLI(t, cmd...); code != 0 {
			t.Fatalf("syncsim %s: exit %d: %s", strings.Join(cmd, " "), code, stderr)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = got
			check(got)
			checkGolden(t, filepath.Join("testdata", "golden", "partitioned", name+".csv"), got)
			continue
		}
		if !bytes.Equal(got, first) {
			t.Fatalf("%s: --threads %s differs from --threads 1:\n%s\n---\n%s", name, threads, got, first)
		}
	}
}
