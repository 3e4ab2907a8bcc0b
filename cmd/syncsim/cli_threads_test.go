package main

import (
	"strings"
	"testing"

	"syncsim/experiments"
)

// TestThreadsFlag: --threads out of range and --threads above 1 for an
// experiment on the sequential engine end in one clear line and exit 1.
func TestThreadsFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "permutation", "--threads", "0"}, "--threads must be in [1, 256], got 0"},
		{[]string{"run", "permutation", "--threads", "257"}, "--threads must be in [1, 256], got 257"},
		{[]string{"run", "ina-basic", "--threads", "2"}, "ina-basic runs on the sequential engine only"},
		{[]string{"sweep", "dssync", "--threads", "4", "--csv", "x.csv"}, "dssync runs on the sequential engine only"},
		{[]string{"sweep", "mixed-fabric", "--threads", "4", "--csv", "x.csv"}, "mixed-fabric runs on the parallel engine only with --set engine=partitioned"},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code != 1 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("syncsim %s: exit %d, stderr %q; want exit 1 and one line with %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}

// TestThreadedHint: the refusal names exactly the experiments that run
// on the parallel engine.
func TestThreadedHint(t *testing.T) {
	var names, opt []string
	for _, e := range newRegistry().All() {
		if e.Threads {
			names = append(names, e.Name)
		}
		if e.Engine != "" {
			opt = append(opt, e.Name)
		}
	}
	list := func(ns []string) string {
		if len(ns) == 1 {
			return ns[0]
		}
		return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
	}
	got := list(names)
	if len(opt) > 0 {
		got += ", and with engine=partitioned " + list(opt)
	}
	if got != experiments.ThreadedHint {
		t.Fatalf("experiments on the parallel engine: %q; ThreadedHint says %q", got, experiments.ThreadedHint)
	}
}

// TestThreadsChecksAndProfile: a run at 3 threads prints the same
// books as at 1 with --check, and --engine-profile reports the windows.
func TestThreadsChecksAndProfile(t *testing.T) {
	args := []string{"run", "permutation", "--check", "-q", "--set", "duration_ms=0.2", "--set", "leaves=3", "--set", "spines=2", "--set", "hosts_per_leaf=4"}
	out1, _, code1 := runCLI(t, append(args, "--threads", "1")...)
	out3, stderr, code3 := runCLI(t, append(args, "--threads", "3", "--engine-profile")...)
	if code1 != 0 || code3 != 0 || out1 != out3 {
		t.Fatalf("threads 1 and 3 differ (exit %d, %d):\n%s\n---\n%s", code1, code3, out1, out3)
	}
	if !strings.Contains(out1, "injected") || !strings.Contains(stderr, "5 partitions, 3 threads, lookahead 2us") ||
		!strings.Contains(stderr, "N=16") {
		t.Fatalf("books or engine profile missing:\n%s\n%s", out1, stderr)
	}
}

// TestThreadsBackgroundChecks: background prints the same results and
// books at 1 and 8 threads with --check, with flows opened inside the
// windows between partitions.
func TestThreadsBackgroundChecks(t *testing.T) {
	args := []string{"run", "background", "--check", "-q", "--set", "duration_ms=0.3", "--set", "leaves=3", "--set", "spines=2",
		"--set", "hosts_per_leaf=3", "--set", "load=0.7", "--set", "workload=cachefollower"}
	out1, _, code1 := runCLI(t, append(args, "--threads", "1")...)
	out8, _, code8 := runCLI(t, append(args, "--threads", "8")...)
	if code1 != 0 || code8 != 0 || out1 != out8 {
		t.Fatalf("threads 1 and 8 differ (exit %d, %d):\n%s\n---\n%s", code1, code8, out1, out8)
	}
	if !strings.Contains(out1, "injected") || strings.Contains(out1, "flows_done               │ 0 ") {
		t.Fatalf("books missing or no flow done:\n%s", out1)
	}
}
