package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The hand-written ASTRA-sim workload and its model_file twin
// (workloads/layers/testdata: the same three layers).
const (
	astraTxt = "../../workloads/layers/testdata/astra_data.txt"
	astraCSV = "../../workloads/layers/testdata/astra_data.csv"
)

// TestWorkloadFileEqualsModelFile: every experiment that takes
// model_file runs an ASTRA-sim workload given as workload_file exactly as
// the same table given as model_file: the CSVs are byte-identical but for
// the two parameters' own columns. dssync under every host scheme,
// mixed-fabric's ring jobs, and INA jobs on the testbed and the
// leaf-spine.
func TestWorkloadFileEqualsModelFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs small simulations")
	}
	for _, tc := range []struct {
		exp  string
		args []string
	}{
		{"dssync", []string{"--vary", everyChoice("dssync", "scheme"), "--vary", "overlap=layer,none",
			"--set", "iterations=6", "--set", "adjust_every=3", "--set", "warmup_iters=2", "--set", "fidelity=flow"}},
		{"mixed-fabric", []string{"--set", "ina_jobs=0", "--set", "pr_jobs=0", "--set", "ring_jobs=1", "--set", "ring_workers=2",
			"--set", "load=0", "--set", "iterations=2", "--vary", "bucket_mib=0,25", "--set", "spines=1", "--set", "leaves=2",
			"--set", "hosts_per_leaf=2"}},
		{"ina-testbed", []string{"--vary", "protocol=atp,pa-atp", "--set", "model=custom", "--set", "gradient_mb=0.3",
			"--set", "iterations=2", "--set", "compute_ms=0.5", "--set", "load=0"}},
		{"ina-leafspine", []string{"--set", "protocol=switchml", "--set", "spines=1", "--set", "leaves=2", "--set", "hosts_per_leaf=3",
			"--set", "jobs=1", "--set", "workers=2", "--set", "model=custom", "--set", "gradient_mb=0.2", "--set", "load=0",
			"--set", "compute_ms=0.5"}},
	} {
		t.Run(tc.exp, func(t *testing.T) {
			dir := t.TempDir()
			var got [2]string
			for i, set := range []string{"model_file=" + astraCSV, "workload_file=" + astraTxt} {
				out := filepath.Join(dir, tc.exp+set[:5]+".csv")
				args := append([]string{"sweep", tc.exp, "--trials", "1", "--quiet", "--csv", out, "--set", set}, tc.args...)
				if _, stderr, code := runCLI(t, args...); code != 0 {
					t.Fatalf("%v: exit %d: %s", args, code, stderr)
				}
				got[i] = withoutColumns(t, out, "model_file", "workload_file")
			}
			if got[0] != got[1] {
				t.Errorf("workload_file's CSV differs from model_file's:\n%s\nvs\n%s", got[1], got[0])
			}
		})
	}
}

// withoutColumns is the CSV at path with the named columns dropped.
func withoutColumns(t *testing.T, path string, drop ...string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("%s: %d rows, %v", path, len(rows), err)
	}
	keep := []int{}
	for i, h := range rows[0] {
		if !strings.Contains(","+strings.Join(drop, ",")+",", ","+h+",") {
			keep = append(keep, i)
		}
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	for _, r := range rows {
		var out []string
		for _, i := range keep {
			out = append(out, r[i])
		}
		_ = w.Write(out)
	}
	w.Flush()
	return b.String()
}

// TestWorkloadFileRefusals: a bad workload file is refused in one line
// naming the file and the line, before anything runs, by every
// experiment that takes one; so is a point setting both files.
func TestWorkloadFileRefusals(t *testing.T) {
	dir := t.TempDir()
	count := writeLines(t, dir, "count.txt", "DATA", "2", "l -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 8 1")
	hybrid := writeLines(t, dir, "hybrid.txt", "HYBRID_DLRM 3", "1", "l -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 8 1")
	negative := writeLines(t, dir, "negative.txt", "DATA", "1", "l -1 1 NONE 0 1 NONE 0 -1 ALLREDUCE 8 1")
	fields := writeLines(t, dir, "fields.txt", "DATA", "1", "l -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 8")
	for _, exp := range [][]string{
		{"dssync"},
		{"mixed-fabric"},
		{"ina-testbed", "--set", "compute_ms=1"},
		{"ina-leafspine", "--set", "compute_ms=1"},
	} {
		run := append([]string{"run"}, exp...)
		for _, tc := range []refusalCase{
			{exp[0] + " layer count", append(run, "--set", "workload_file="+count), []string{"workload_file", "count.txt:3", "1 layer lines, but line 2 counts 2"}},
			{exp[0] + " parallelism", append(run, "--set", "workload_file="+hybrid), []string{"workload_file", "hybrid.txt:1", "HYBRID_DLRM is not read"}},
			{exp[0] + " negative", append(run, "--set", "workload_file="+negative), []string{"workload_file", "negative.txt:3", `weight-gradient compute "-1" is negative`}},
			{exp[0] + " fields", append(run, "--set", "workload_file="+fields), []string{"workload_file", "fields.txt:3", "11 fields, want 12"}},
			{exp[0] + " both", append(run, "--set", "workload_file="+astraTxt, "--set", "model_file="+astraCSV), []string{"model_file and workload_file both"}},
		} {
			checkRefusals(t, tc, false, true)
		}
	}
}
