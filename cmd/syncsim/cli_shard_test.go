package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shardSweep runs shard i/n of a sweep into dir and returns its path.
func shardSweep(t *testing.T, dir string, i, n int, args ...string) string {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("s%d-%d.csv", i, n))
	if _, stderr, code := runCLI(t, append(append([]string{"sweep", "--shard", fmt.Sprintf("%d/%d", i, n), "--csv", path}, args...), "--quiet")...); code != 0 {
		t.Fatalf("shard %d/%d: exit %d %s", i, n, code, stderr)
	}
	return path
}

// TestShardsMergeToTheUnshardedSweep: the shards of a sweep merged give
// the unsharded sweep's CSV byte for byte, for 1, 2, 3 and 4 shards of a
// grid of 5 points x 2 trials (which 3 and 4 do not divide) and for one
// shard per job; more shards than jobs are refused, since some would have
// nothing to run.
func TestShardsMergeToTheUnshardedSweep(t *testing.T) {
	args := []string{"toy-cli", "--vary", "n=1,2,3,4,5", "--set", "mode=slow", "--trials", "2", "--seed", "4"}
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.csv")
	if _, stderr, code := runCLI(t, append([]string{"sweep", "--csv", whole}, args...)...); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	want := readFile(t, whole)
	if _, stderr, code := runCLI(t, append([]string{"sweep", "--shard", "1/11", "--csv", filepath.Join(dir, "x.csv")}, args...)...); code != 1 ||
		!strings.Contains(stderr, "11 shards: the sweep has only 10 runs (5 points x 2 trials)") {
		t.Errorf("11 shards of 10 runs: exit %d %s", code, stderr)
	}
	for _, n := range []int{1, 2, 3, 4, 10} {
		sub := filepath.Join(dir, fmt.Sprint(n))
		os.Mkdir(sub, 0o755)
		var shards []string
		for i := n; i >= 1; i-- { // any order
			shards = append(shards, shardSweep(t, sub, i, n, args...))
		}
		out := filepath.Join(sub, "merged.csv")
		_, stderr, code := runCLI(t, append([]string{"merge", "-o", out}, shards...)...)
		if code != 0 {
			t.Fatalf("%d shards: merge exit %d %s", n, code, stderr)
		}
		if got := readFile(t, out); got != want {
			t.Errorf("%d shards merged differ from the whole sweep:\n%s\nwant\n%s", n, got, want)
		}
		if !strings.Contains(stderr, fmt.Sprintf("merged %d shards of toy-cli (10 rows)", n)) {
			t.Errorf("stderr %q", stderr)
		}
	}
}

// TestMergeRejectsBadShards: a missing, duplicated, foreign or
// incomplete shard is refused and nothing is written.
func TestMergeRejectsBadShards(t *testing.T) {
	args := []string{"toy-cli", "--vary", "n=1,2,3"}
	dir := t.TempDir()
	s1, s2, s3 := shardSweep(t, dir, 1, 3, args...), shardSweep(t, dir, 2, 3, args...), shardSweep(t, dir, 3, 3, args...)
	other := filepath.Join(dir, "other")
	os.Mkdir(other, 0o755)
	foreign := shardSweep(t, other, 2, 3, "toy-cli", "--vary", "n=1,2,3", "--set", "load=0.75")
	split2 := shardSweep(t, other, 1, 2, args...)
	whole := filepath.Join(dir, "whole.csv")
	if _, stderr, code := runCLI(t, append([]string{"sweep", "--csv", whole}, args...)...); code != 0 {
		t.Fatal(stderr)
	}
	cut := writeFile(t, dir, "cut.csv", strings.Join(strings.SplitAfter(readFile(t, s3), "\n")[:1], ""))
	os.WriteFile(cut+".json", []byte(readFile(t, s3+".json")), 0o644)
	out := filepath.Join(dir, "out.csv")
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"missing", []string{s1, s3}, "shard 2/3 missing"},
		{"duplicated", []string{s1, s2, s2, s3}, "are both shard 2/3"},
		{"foreign", []string{s1, foreign, s3}, "is from another sweep than"},
		{"split differently", []string{s1, split2, s3}, "the shards come from sweeps split differently"},
		{"incomplete", []string{s1, s2, cut}, "ends after 0 of its 1 rows: complete it with the same sweep and --resume"},
		{"not a shard", []string{whole}, "is not a shard"},
		{"no sidecar", []string{s1, s2, writeFile(t, dir, "bare.csv", readFile(t, s3))}, "has no sidecar"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, append([]string{"merge", "-o", out}, tc.files...)...)
			if code == 0 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q, want %q", code, stderr, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("an output was written")
			}
		})
	}
	if _, stderr, code := runCLI(t, "merge", "-o", whole, s1, s2, s3); code == 0 || !strings.Contains(stderr, "replace it with --force") {
		t.Errorf("existing output: exit %d %s", code, stderr)
	}
}

// TestShardFromEnvironment: --shard auto and --shards N take the index
// from a Slurm job array or a Kubernetes Indexed Job.
func TestShardFromEnvironment(t *testing.T) {
	for _, tc := range []struct {
		name   string
		env    map[string]string
		args   []string
		shard  int
		shards int
		want   string
	}{
		{"slurm", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, []string{"--shard", "auto"}, 2, 4, ""},
		{"slurm from 0", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2"}, []string{"--shard", "auto"}, 0, 2, ""},
		{"kubernetes", map[string]string{"JOB_COMPLETION_INDEX": "4"}, []string{"--shards", "5"}, 4, 5, ""},
		{"kubernetes without count", map[string]string{"JOB_COMPLETION_INDEX": "1"}, []string{"--shard", "auto"}, 0, 0, "give --shards N"},
		{"index too large", map[string]string{"JOB_COMPLETION_INDEX": "5"}, []string{"--shards", "5"}, 0, 0, "not an index in [0, 5)"},
		{"slurm count disagrees", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, []string{"--shards", "3"}, 0, 0, "the Slurm array has 4 tasks"},
		{"slurm step", map[string]string{"SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "3"}, []string{"--shard", "auto"}, 0, 0, "no step"},
		{"no scheduler", nil, []string{"--shard", "auto"}, 0, 0, "neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX"},
		{"explicit", nil, []string{"--shard", "2/3"}, 1, 3, ""},
		{"explicit bad", nil, []string{"--shard", "0/3"}, 0, 0, "want I/N with 1 <= I <= N"},
		{"explicit and shards", nil, []string{"--shard", "1/3", "--shards", "3"}, 0, 0, "drop --shards"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			for _, k := range []string{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX"} {
				if _, ok := tc.env[k]; !ok {
					t.Setenv(k, "")
				}
			}
			path := filepath.Join(t.TempDir(), "x{shard}of{shards}.csv")
			_, stderr, code := runCLI(t, append([]string{"sweep", "toy-cli", "--vary", "n=1,2,3,4,5", "--csv", path}, tc.args...)...)
			if tc.want != "" {
				if code == 0 || !strings.Contains(stderr, tc.want) {
					t.Errorf("exit %d, stderr %q, want %q", code, stderr, tc.want)
				}
				return
			}
			if code != 0 || !strings.Contains(stderr, fmt.Sprintf("shard %d/%d", tc.shard+1, tc.shards)) {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			got := filepath.Join(filepath.Dir(path), fmt.Sprintf("x%dof%d.csv", tc.shard+1, tc.shards))
			if _, err := os.Stat(got); err != nil {
				t.Errorf("{shard} not replaced: %v", err)
			}
		})
	}
}

// TestOversizeArrayMerges: a Slurm array with more tasks than the sweep
// has runs completes (the spare tasks write empty shards) and its shards
// merge into the unsharded sweep byte for byte; the same count given by
// hand is refused.
func TestOversizeArrayMerges(t *testing.T) {
	args := []string{"toy-cli", "--vary", "n=1,2", "--trials", "2", "--seed", "4", "--quiet"}
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.csv")
	if _, stderr, code := runCLI(t, append([]string{"sweep", "--csv", whole}, args...)...); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	const tasks = 6 // 4 runs
	var shards []string
	for id := 0; id < tasks; id++ {
		t.Setenv("SLURM_ARRAY_TASK_ID", fmt.Sprint(id))
		t.Setenv("SLURM_ARRAY_TASK_COUNT", fmt.Sprint(tasks))
		path := filepath.Join(dir, fmt.Sprintf("s%d.csv", id))
		if _, stderr, code := runCLI(t, append([]string{"sweep", "--shard", "auto", "--csv", path}, args...)...); code != 0 {
			t.Fatalf("array task %d: exit %d %s", id, code, stderr)
		}
		shards = append(shards, path)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "")
	out := filepath.Join(dir, "merged.csv")
	if _, stderr, code := runCLI(t, append([]string{"merge", "-o", out}, shards...)...); code != 0 {
		t.Fatalf("merge: exit %d %s", code, stderr)
	}
	if got, want := readFile(t, out), readFile(t, whole); got != want {
		t.Errorf("merged array differs from the whole sweep:\n%s\nwant\n%s", got, want)
	}
	if _, stderr, code := runCLI(t, append([]string{"sweep", "--shard", "5/6", "--csv", filepath.Join(dir, "x.csv")}, args...)...); code != 1 ||
		!strings.Contains(stderr, "6 shards: the sweep has only 4 runs") {
		t.Errorf("--shard 5/6 of 4 runs: exit %d %s", code, stderr)
	}
}
