package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"syncsim/experiments"
)

// TestINASeriesFiles: `run ina-leafspine --series-dir D` writes the jobs
// and job_summary series of each trial with the documented headers, one
// summary row per job, the jobs series in whole samples of every job,
// and a manifest that lists both with their row counts.
func TestINASeriesFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "series")
	_, stderr, code := runCLI(t, "run", "--trials", "2", "--series-dir", dir, "--quiet",
		"--set", "spines=2", "--set", "leaves=2", "--set", "hosts_per_leaf=4", "--set", "jobs=3", "--set", "workers=2",
		"--set", "model=custom", "--set", "gradient_mb=0.05", "--set", "load=0.3", "--set", "series_us=20", "ina-leafspine")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for trial := range 2 {
		var man experiments.Manifest
		if err := json.Unmarshal([]byte(readFile(t, experiments.ManifestPath(dir, "ina-leafspine", 0, trial))), &man); err != nil {
			t.Fatal(err)
		}
		rows := map[string]int{}
		for _, s := range man.Series {
			rows[s.Name] = s.Rows
		}
		jobs := readFile(t, experiments.SeriesPath(dir, "ina-leafspine", 0, trial, "jobs"))
		lines := strings.Split(strings.TrimSuffix(jobs, "\n"), "\n")
		if !strings.HasPrefix(lines[0], "t_ms,job,protocol,progress,") {
			t.Errorf("trial %d jobs header %q", trial, lines[0])
		}
		if n := len(lines) - 1; n != rows["jobs"] || n == 0 || n%3 != 0 {
			t.Errorf("trial %d: %d jobs rows, manifest %d, want whole samples of 3 jobs", trial, n, rows["jobs"])
		}
		summary := readFile(t, experiments.SeriesPath(dir, "ina-leafspine", 0, trial, "job_summary"))
		lines = strings.Split(strings.TrimSuffix(summary, "\n"), "\n")
		if !strings.HasPrefix(lines[0], "job,protocol,model,workers,ps_leaf,mean_iter_ms,") || len(lines) != 4 || rows["job_summary"] != 3 {
			t.Errorf("trial %d job_summary (manifest %d rows):\n%s", trial, rows["job_summary"], summary)
		}
	}
}
