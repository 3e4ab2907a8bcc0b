package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestINAEveryTierSameEverywhere: a sweep of ATP's three placements on a
// k = 4 fat-tree (with background, a small switch memory so that
// contributions collide, two trials) writes byte-identical CSVs at
// --parallel 1 and 2, with the books checked; and every-tier on the
// parallel engine prints the same results and books at 1 and 2 threads.
func TestINAEveryTierSameEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("INA sweeps take CPU")
	}
	common := []string{"--set", "protocol=atp", "--set", "topology=fattree", "--set", "k=4", "--set", "jobs=3", "--set", "workers=5",
		"--set", "model=custom", "--set", "gradient_mb=0.1", "--set", "iterations=2", "--set", "skip_iters=0", "--set", "load=0.3",
		"--set", "bg_warmup_ms=0.1", "--set", "switch_mem_mib=0.05"}
	var first []byte
	for _, par := range []string{"1", "2"} {
		path := filepath.Join(t.TempDir(), "tiers.csv")
		args := append([]string{"sweep", "ina-leafspine", "--seed", "3", "--trials", "2", "--parallel", par, "--check", "-q", "--csv", path,
			"--vary", "agg_placement=ps-leaf,two-level,every-tier"}, common...)
		if _, stderr, code := runCLI(t, args...); code != 0 {
			t.Fatalf("--parallel %s: exit %d: %s", par, code, stderr)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if first != nil && !bytes.Equal(got, first) {
			t.Fatalf("--parallel 2 differs from --parallel 1:\n%s\n---\n%s", got, first)
		}
		first = got
	}
	if n := strings.Count(string(first), ",every-tier,"); n != 2 {
		t.Fatalf("%d every-tier rows, want 2:\n%s", n, first)
	}
	rows, err := csv.NewReader(bytes.NewReader(first)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, r := range rows[1:] {
		if r[col["jobs_done"]] != "3" || r[col["core_mb"]] == "NaN" {
			t.Fatalf("row %v: %s jobs done, core_mb %s", r[:col["trial"]], r[col["jobs_done"]], r[col["core_mb"]])
		}
	}
	run := append([]string{"run", "ina-leafspine", "--check", "-q", "--set", "engine=partitioned", "--set", "agg_placement=every-tier"}, common...)
	sameBooksAtThreads(t, run, "1", "2")
}
