package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"syncsim/inagg"
)

// TestGridCheckedBeforeFilesAreTouched: every point of the grid is
// checked (the experiment's own rules, files to read) before any file is
// opened, so a bad point leaves every file alone, even with --force; the
// old program truncated the CSV first, or failed only when it reached the
// point.
func TestGridCheckedBeforeFilesAreTouched(t *testing.T) {
	dir := t.TempDir()
	const precious = "experiment,n\nearlier,results\n"
	keep := writeFile(t, dir, "keep.csv", precious)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing trace file", []string{"run", "sr-cluster", "--set", "trace=file", "--set", "trace_file=" + filepath.Join(dir, "missing.txt"), "--csv", keep, "--force"},
			"sr-cluster: trace_file: open "},
		{"bad later point", []string{"sweep", "incast", "--vary", "duration_ms=300,50", "--set", "warmup_ms=100", "--csv", keep, "--force"},
			"incast: point 1 (duration_ms=50): warmup_ms=100 must be below duration_ms=50"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, tc.args...)
			if code == 0 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q, want %q", code, stderr, tc.want)
			}
			if data, _ := os.ReadFile(keep); string(data) != precious {
				t.Errorf("keep.csv now %q", data)
			}
			if _, err := os.Stat(keep + ".json"); err == nil {
				t.Error("a sidecar was written for a refused command")
			}
		})
	}
}

// TestCheckPrintsBooks: --check prints the books it verified with their
// totals, and says when an experiment keeps none.
func TestCheckPrintsBooks(t *testing.T) {
	out, _, code := runCLI(t, "run", "toy-cli", "--check", "--trials", "2")
	if code != 0 || !regexp.MustCompile(`--check: every run's books balance \(totals over 2 runs\):\n  toy events \(fired = scheduled\): fired \d+, scheduled \d+`).MatchString(out) {
		t.Errorf("exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "run", "sr-example", "--check")
	if code != 0 || !strings.Contains(out, "--check: sr-example keeps no conservation books; nothing was checked") {
		t.Errorf("exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "run", "incast", "--check", "--set", "duration_ms=2")
	if code != 0 || !regexp.MustCompile(`packets \(injected = delivered \+ dropped \+ in_flight\): injected (\d+), delivered \d+, dropped 0, in_flight \d+`).MatchString(out) {
		t.Errorf("exit %d\n%s", code, out)
	}
	_, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2", "--check", "--csv", filepath.Join(t.TempDir(), "c.csv"))
	if code != 0 || !strings.Contains(stderr, "totals over 2 runs") {
		t.Errorf("sweep --check: exit %d\n%s", code, stderr)
	}
}

// TestResolvedValuesAreShown: an automatic value (warmup_ms=-1) is shown
// in the CSV and the run table as what it resolved to.
func TestResolvedValuesAreShown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.csv")
	out, stderr, code := runCLI(t, "run", "incast", "--set", "duration_ms=4", "--csv", path)
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if !regexp.MustCompile(`duration_ms=4 warmup_ms=0.4\s`).MatchString(out) {
		t.Errorf("run table header does not show the resolved warm-up:\n%s", out)
	}
	data, _ := os.ReadFile(path)
	if got := column(t, string(data), "warmup_ms"); len(got) != 1 || got[0] != "0.4" {
		t.Errorf("warmup_ms column %v, want [0.4]", got)
	}
}

// TestIrrelevantParameterIsAnError: a parameter that the chosen options
// make irrelevant is refused, naming the option it needs; the old
// program ignored it.
func TestIrrelevantParameterIsAnError(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "sr-cluster", "--set", "trace_file=times.txt"}, "trace_file has no effect unless trace=file (here trace=cnn)"},
		{[]string{"run", "sr-cluster", "--set", "scheme=allreduce", "--set", "theta=2"}, "theta has no effect unless scheme=selective-reduce"},
		{[]string{"run", "ina-leafspine", "--set", "gradient_mb=3"}, "gradient_mb has no effect unless model=custom (here model=mix)"},
		// rto_us sets ATP's timer, which the hashed protocols run.
		{[]string{"run", "ina-testbed", "--set", "protocol=switchml", "--set", "rto_us=100"}, "rto_us has no effect unless protocol=" +
			strings.Join(inagg.ProtocolNamesWhere(inagg.Protocol.Hashed), "|") + " (here protocol=switchml)"},
		{[]string{"run", "mixed-fabric", "--set", "load=0", "--set", "workload=websearch"}, "workload has no effect unless load>0 (here load=0)"},
		{[]string{"run", "ina-motivation", "--set", "duration_ms=9"}, "duration_ms has no effect unless example=progress|async-limit"},
	} {
		_, stderr, code := runCLI(t, tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
	}
	// Where the condition holds at some point of the grid the setting is
	// kept, and a setting equal to the default is no error.
	path := filepath.Join(t.TempDir(), "t.csv")
	for _, args := range [][]string{
		{"sweep", "sr-cluster", "--vary", "scheme=allreduce,selective-reduce", "--set", "theta=2", "--set", "duration_s=1", "--csv", path},
		{"run", "sr-cluster", "--set", "trace_file=", "--set", "duration_s=1"},
	} {
		if _, stderr, code := runCLI(t, append(args, "--force")...); code != 0 {
			t.Errorf("%v: exit %d %s", args, code, stderr)
		}
	}
}

// TestUnlaunchableSelectiveReduceRefused: selective reduce launches a
// group only when more than p workers are ready (Alg. 3, line 8), so a p
// of n or more would run without ever synchronising; every experiment
// that takes it refuses it in one line, --dry-run included, and takes the
// neighbouring settings that can launch.
func TestUnlaunchableSelectiveReduceRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" for an accepted setting
	}{
		{[]string{"run", "sr-cluster", "--set", "n=40", "--set", "p_frac=1"},
			"sr-cluster: p_frac = 1 gives p = 40 of n = 40 workers, and selective reduce launches a group only when more than p workers are ready (Alg. 3, line 8), so it would never launch one; want p_frac below 0.9875 (or c = 1)"},
		{[]string{"run", "sr-cluster", "--set", "n=40", "--set", "p_frac=0.99"}, "gives p = 40 of n = 40 workers"},
		{[]string{"sweep", "sr-cluster", "--vary", "n=40,4", "--set", "p_frac=0.9", "--csv", "x.csv"},
			"sr-cluster: point 1 (n=4): p_frac = 0.9 gives p = 4 of n = 4 workers"},
		{[]string{"run", "sr-cluster", "--set", "n=40", "--set", "p_frac=1", "--set", "c=2"}, "gives p = 40 of n = 40 workers"},
		{[]string{"run", "sr-cluster", "--set", "n=40", "--set", "p_frac=0.98"}, ""},
		{[]string{"run", "sr-cluster", "--set", "n=40", "--set", "p_frac=1", "--set", "c=1"}, ""},
		{[]string{"run", "sr-cluster", "--set", "n=40", "--set", "p_frac=1", "--set", "scheme=partial-reduce"}, ""},
		{[]string{"run", "mixed-fabric", "--set", "pr_jobs=1", "--set", "leaves=6", "--set", "pr_scheme=selective-reduce", "--set", "pr_p=8"},
			"mixed-fabric: pr_p = 8 with pr_workers = 8: selective reduce launches a group only when more than pr_p workers are ready (Alg. 3, line 8), so it would never launch one; want pr_p <= 7"},
		{[]string{"run", "mixed-fabric", "--set", "pr_jobs=1", "--set", "leaves=6", "--set", "pr_scheme=selective-reduce", "--set", "pr_p=7"}, ""},
		{[]string{"run", "mixed-fabric", "--set", "pr_jobs=1", "--set", "leaves=6", "--set", "pr_p=8"}, ""},
		{[]string{"run", "mixed-fabric", "--set", "pr_jobs=1", "--set", "leaves=6", "--set", "pr_p=9"}, "mixed-fabric: pr_p = 9 exceeds pr_workers = 8"},
		{[]string{"run", "sr-example", "--set", "scheme=selective-reduce", "--set", "p=5"},
			"sr-example: selective reduce: p = 5 with 5 workers never launches a group (Alg. 3, line 8 launches only when more than p workers are ready); want p <= 4"},
		{[]string{"run", "sr-example", "--set", "scheme=selective-reduce", "--set", "p=4"}, ""},
		{[]string{"run", "sr-example", "--set", "scheme=partial-reduce", "--set", "p=5"}, ""},
	} {
		args := append(append([]string(nil), tc.args...), "--dry-run")
		if tc.args[0] == "sweep" {
			args[len(args)-2] = filepath.Join(t.TempDir(), "x.csv")
		}
		_, stderr, code := runCLI(t, args...)
		if tc.want == "" {
			if code != 0 {
				t.Errorf("%v: exit %d %s", tc.args, code, stderr)
			}
			continue
		}
		if code != 1 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q, want one line with %q", tc.args, code, stderr, tc.want)
		}
	}
}
