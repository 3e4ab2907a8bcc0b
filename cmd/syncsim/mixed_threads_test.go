package main

import (
	"bytes"
	"encoding/csv"
	"testing"
)

// mixedPartitionedSweep is a small mixed-fabric sweep on the parallel
// engine: INA jobs of two protocols, ring jobs whose hosts lie on
// different leaves, a partial-reduce job (its controller on one
// partition, its groups' rings across several), background traffic
// crossing partitions, and a compute time both above and below the
// lookahead (2 us), which decides whether a ring iteration's all-reduce
// starts exactly or at a barrier.
var mixedPartitionedSweep = []string{"--vary", "protocol=pa-atp,atp", "--vary", "compute_ms=0.05,0.001", "--set", "engine=partitioned",
	"--set", "spines=2", "--set", "leaves=3", "--set", "hosts_per_leaf=5", "--set", "ina_jobs=1", "--set", "workers=3",
	"--set", "pr_jobs=1", "--set", "pr_workers=3", "--set", "pr_p=2", "--set", "pr_mb=0.3", "--set", "pr_compute_ms=0.05",
	"--set", "gradient_mb=0.2", "--set", "ring_jobs=2", "--set", "ring_workers=3", "--set", "ring_mb=0.5", "--set", "iterations=2",
	"--set", "load=0.3", "--set", "bg_warmup_ms=0.2"}

// TestGoldenMixedPartitioned: mixed-fabric with engine=partitioned writes
// byte-identical CSVs at 1, 2, 3 and 8 threads, with the books checked
// (--check: the INA jobs' exact sums and contributions, no aggregator
// held, every ring and partial-reduce transfer delivered once, the
// partial-reduce cluster's books, packets conserved) and every job
// finished; the CSV is the golden one under
// testdata/golden/partitioned (refreshed with -update).
func TestGoldenMixedPartitioned(t *testing.T) {
	if testing.Short() {
		t.Skip("mixed-fabric sweeps take CPU")
	}
	sweepSameAtThreads(t, "mixed-fabric", mixedPartitionedSweep, func(got []byte) { checkMixedJobsDone(t, got) })
}

// checkMixedJobsDone fails unless every row ran partitioned, finished
// every job, and has INA and ring iterations and background flows.
func checkMixedJobsDone(t *testing.T, data []byte) {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("bad CSV (%v):\n%s", err, data)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, r := range rows[1:] {
		if r[col["engine"]] != "partitioned" || r[col["jobs_done_frac"]] != "1" || r[col["ina_iter_ms"]] == "NaN" ||
			r[col["ring_iter_ms"]] == "NaN" || r[col["pr_jct_ms"]] == "NaN" || r[col["flows_done"]] == "0" {
			t.Fatalf("row %v: engine %s, jobs done %s, ina_iter_ms %s, ring_iter_ms %s, flows done %s", r[:col["trial"]], r[col["engine"]],
				r[col["jobs_done_frac"]], r[col["ina_iter_ms"]], r[col["ring_iter_ms"]], r[col["flows_done"]])
		}
	}
}
