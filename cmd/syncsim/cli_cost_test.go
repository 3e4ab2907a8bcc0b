package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestDryRunCost: --dry-run prints each point's expected events and CPU
// and the sweep's total from the experiment's cost model, worked by hand
// here from incast's constants (5.1 events per line-rate segment of 1500
// B, 92 ns per event): 10 Gbps for 1 ms is 833.3 segments, 4,250 events,
// 0.000391 s; for 2 ms twice that; 2 trials of both, 25,500 events,
// 0.00235 s. A single run prints one line; an experiment without a model
// says so, and a point where the model is known to miss says why; a long
// sweep lists the first points and its costliest.
func TestDryRunCost(t *testing.T) {
	csv := filepath.Join(t.TempDir(), "c.csv")
	_, stderr, code := runCLI(t, "sweep", "incast", "--vary", "duration_ms=1,2", "--set", "sample_us=0", "--trials", "2", "--csv", csv, "--dry-run")
	want := "cost (incast's model, 92 ns of CPU per event on one thread):\n" +
		"  duration_ms=1: 4.25 k events, 0.000391 s of CPU per run\n" +
		"  duration_ms=2: 8.5 k events, 0.000782 s of CPU per run\n" +
		"  25.5 k events, 0.00235 s of CPU in all (2 points x 2 trials)\n"
	if code != 0 || !strings.HasSuffix(stderr, want) {
		t.Errorf("exit %d\n%s\nwant it to end\n%s", code, stderr, want)
	}
	// One point: 1,000 ms at 10 Gbps, 833,333 segments and 100,000 samples
	// (sample_us=10): 4.35 M events, 0.4 s.
	_, stderr, code = runCLI(t, "run", "incast", "--set", "duration_ms=1000", "--dry-run")
	want = "cost: 4.35 M events, 0.4 s of CPU per run (incast's model, 92 ns of CPU per event on one thread)\n"
	if code != 0 || !strings.HasSuffix(stderr, want) {
		t.Errorf("exit %d\n%s\nwant it to end\n%s", code, stderr, want)
	}
	_, stderr, code = runCLI(t, "run", "toy-cli", "--dry-run")
	if code != 0 || !strings.HasSuffix(stderr, "cost: no estimate (toy-cli has no cost model)\n") {
		t.Errorf("exit %d %s", code, stderr)
	}
	// A point where the model is known to miss says why, and a sweep
	// counts such points in its total.
	_, stderr, code = runCLI(t, "sweep", "ina-leafspine", "--vary", "protocol=pa-atp,atp", "--csv", csv, "--dry-run")
	if code != 0 || strings.Contains(stderr, "protocol=pa-atp: rough") ||
		!strings.Contains(stderr, "protocol=atp: ") || !strings.Contains(stderr, " (rough: atp under background loses packets") ||
		!strings.Contains(stderr, "; rough at 1 point of 2\n") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	// 30 points: the first 20 one by one, then the costliest (the
	// longest, 30 ms: 127,500 events, printed as 127 k) and the total.
	var ms []string
	for i := 1; i <= 30; i++ {
		ms = append(ms, fmt.Sprint(i))
	}
	_, stderr, code = runCLI(t, "sweep", "incast", "--vary", "duration_ms="+strings.Join(ms, ","), "--set", "sample_us=0", "--csv", csv, "--dry-run")
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != 0 || len(lines) != 1+1+20+2 || lines[21] != "  duration_ms=20: 85 k events, 0.00782 s of CPU per run" ||
		lines[22] != "  ... 10 more points; the costliest: duration_ms=30, 127 k events per run" ||
		lines[23] != "  1.98 M events, 0.182 s of CPU in all (30 points x 1 trial)" {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}
