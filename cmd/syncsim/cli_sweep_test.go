package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sweepFile runs a sweep into a fresh CSV and returns its contents.
func sweepFile(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out.csv")
	_, stderr, code := runCLI(t, append([]string{"sweep", "--csv", path}, args...)...)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading CSV: %v (stderr %s)", err, stderr)
	}
	return string(data), stderr, code
}

// TestSweepRealExperimentsIdenticalForAnyParallel sweeps small points of
// the packet-level experiments (incast, background traffic on a leaf-spine,
// INA jobs with background, the mixed fabric and its partial-reduce
// tenants with and without overlap), of sr-cluster (with and without
// overlap),
// crew-single and crew-training (with and without overlap) at flow fidelity
// and of dssync at both:
// the CSV is byte-identical at --parallel 1 and 2, and another seed
// changes it.
func TestSweepRealExperimentsIdenticalForAnyParallel(t *testing.T) {
	cases := [][]string{
		{"--vary", "senders=2,4", "--set", "duration_ms=5", "incast"},
		{"--vary", "load=0.3,0.6", "--set", "duration_ms=1", "--set", "leaves=2", "--set", "hosts_per_leaf=4", "background"},
		{"--vary", "protocol=atp,pa-atp", "--set", "spines=2", "--set", "leaves=2", "--set", "hosts_per_leaf=4", "--set", "jobs=2",
			"--set", "workers=3", "--set", "model=custom", "--set", "gradient_mb=0.2", "--set", "load=0.3", "ina-leafspine"},
		{"--vary", "ina_jobs=1,2", "--set", "iterations=1", "mixed-fabric"},
		{"--vary", "pr_overlap=none,layer", "--set", "ina_jobs=0", "--set", "ring_jobs=0", "--set", "pr_jobs=2", "--set", "pr_scheme=selective-reduce",
			"--set", "pr_workers=4", "--set", "pr_p=2", "--set", "iterations=2", "mixed-fabric"},
		{"--vary", "scheme=partial-reduce,selective-reduce", "--vary", "overlap=none,layer", "--set", "n=12", "--set", "duration_s=10", "--set", "fidelity=flow", "sr-cluster"},
		{"--vary", "fidelity=flow,packet", "--vary", "scheme=dssync,gossip", "--set", "model=custom", "--set", "model_mb=4",
			"--set", "compute_ms=10", "--set", "background=flows", "--set", "iterations=3", "--set", "adjust_every=2", "dssync"},
		{"--vary", "scheme=crew,blink,toa", "--set", "n=12", "--set", "p=4", "crew-single"},
		{"--vary", "scatter=blocking,non-blocking", "--set", "n=12", "--set", "p=4", "--set", "duration_s=5", "--set", "faulty_links=3", "crew-training"},
		{"--vary", "overlap=none,layer", "--vary", "scheme=crew,opr", "--set", "n=12", "--set", "p=4", "--set", "duration_s=5", "--set", "model_mb=40",
			"--set", "compute_scale=10", "crew-training"},
	}
	for _, c := range cases {
		name := c[len(c)-1]
		t.Run(name, func(t *testing.T) {
			args := append([]string{"--trials", "2"}, c...)
			want, stderr, code := sweepFile(t, append([]string{"--parallel", "1", "--seed", "5"}, args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got, stderr, code := sweepFile(t, append([]string{"--parallel", "2", "--seed", "5"}, args...)...)
			if code != 0 || got != want {
				t.Fatalf("--parallel 2: exit %d (%s), CSV differs:\n%s\nwant\n%s", code, stderr, got, want)
			}
			other, _, _ := sweepFile(t, append([]string{"--parallel", "2", "--seed", "6"}, args...)...)
			a, err := csv.NewReader(strings.NewReader(want)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			b, err := csv.NewReader(strings.NewReader(other)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			// Rows are (point, trial) in grid order; trial 1 of --seed 5
			// runs seed 6, as trial 0 of --seed 6 does: every column but
			// trial agrees. Trial 0 of each runs a different seed: some
			// metric differs.
			trial := slices.Index(a[0], "trial")
			for r := 1; r+1 < len(a); r += 2 {
				x, y, z := slices.Clone(a[r+1]), slices.Clone(b[r]), a[r]
				x[trial], y[trial] = "", ""
				if !slices.Equal(x, y) {
					t.Errorf("seed 6 as trial 1 of --seed 5 gives %v, as trial 0 of --seed 6 %v", a[r+1], b[r])
				}
				if slices.Equal(z[trial+2:], b[r][trial+2:]) {
					t.Errorf("seeds 5 and 6 give the same metrics %v", z[trial+2:])
				}
			}
		})
	}
}

func TestSweepCSVIdenticalForAnyParallel(t *testing.T) {
	args := []string{"--vary", "n=1,3,2", "--vary", "mode=fast,slow,undef", "--set", "load=0.2", "--trials", "3", "--seed", "11", "toy-cli"}
	want, stderr, code := sweepFile(t, append([]string{"--parallel", "1"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(want)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if h := strings.Join(recs[0], ","); h != "experiment,n,load,mode,fail_n,panic_n,trial,seed,end_us,maybe" {
		t.Errorf("header %s", h)
	}
	if len(recs)-1 != 3*3*3 {
		t.Fatalf("%d rows, want points*trials = 27", len(recs)-1)
	}
	for i, rec := range recs[1:] {
		point, trial := i/3, i%3
		wantN := []string{"1", "3", "2"}[point/3]
		wantMode := []string{"fast", "slow", "undef"}[point%3]
		if rec[0] != "toy-cli" || rec[1] != wantN || rec[2] != "0.2" || rec[3] != wantMode ||
			rec[6] != strconv.Itoa(trial) || rec[7] != strconv.Itoa(11+trial) {
			t.Errorf("row %d = %v, want n=%s mode=%s trial %d seed %d", i, rec, wantN, wantMode, trial, 11+trial)
		}
		if (rec[9] == "NaN") != (wantMode == "undef") {
			t.Errorf("row %d: maybe = %s in mode %s", i, rec[9], wantMode)
		}
	}
	if !strings.Contains(stderr, "wrote 27 rows (9 points x 3 trials)") {
		t.Errorf("stderr lacks the summary line:\n%s", stderr)
	}
	if !strings.Contains(stderr, "27/27 runs (100%)") {
		t.Errorf("stderr lacks the final progress line:\n%s", stderr)
	}
	for _, p := range []string{"2", "4"} {
		got, _, code := sweepFile(t, append([]string{"--parallel", p}, args...)...)
		if code != 0 || got != want {
			t.Errorf("--parallel %s: exit %d, CSV differs:\n%s\nwant\n%s", p, code, got, want)
		}
	}
}

func TestSweepSeeds(t *testing.T) {
	base := []string{"--vary", "n=2,5", "--trials", "2", "--parallel", "2", "toy-cli"}
	a, _, _ := sweepFile(t, append([]string{"--seed", "3"}, base...)...)
	b, _, _ := sweepFile(t, append([]string{"--seed", "3"}, base...)...)
	c, _, _ := sweepFile(t, append([]string{"--seed", "4"}, base...)...)
	if a != b {
		t.Error("same seed, different CSV")
	}
	endA := column(t, a, "end_us")
	endC := column(t, c, "end_us")
	if endA[0] == endC[0] || endA[2] == endC[2] {
		t.Errorf("seeds 3 and 4 gave equal end_us: %v vs %v", endA, endC)
	}
	// Seed 4 is trial 1 of base 3 and trial 0 of base 4.
	if endA[1] != endC[0] {
		t.Errorf("seed 4 gave %s and %s", endA[1], endC[0])
	}
}

// column returns the named column of a CSV text.
func column(t *testing.T, text, name string) []string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	idx := -1
	for i, h := range recs[0] {
		if h == name {
			idx = i
		}
	}
	if idx < 0 {
		t.Fatalf("no column %s in %v", name, recs[0])
	}
	var out []string
	for _, r := range recs[1:] {
		out = append(out, r[idx])
	}
	return out
}

func TestSweepFlagsAfterExperimentName(t *testing.T) {
	a, _, c1 := sweepFile(t, "--vary", "n=1,2", "--trials", "2", "--check", "toy-cli")
	b, _, c2 := sweepFile(t, "toy-cli", "--vary", "n=1,2", "--check", "--trials", "2")
	if c1 != 0 || c2 != 0 || a != b {
		t.Errorf("exit %d/%d; flags before and after EXP gave different CSV:\n%s\n%s", c1, c2, a, b)
	}
}

func TestSweepFailureKeepsEarlierRows(t *testing.T) {
	ref, _, code := sweepFile(t, "--vary", "n=1,2,3", "--set", "fail_n=4", "--trials", "2", "toy-cli")
	if code != 0 {
		t.Fatal("reference sweep failed")
	}
	for _, p := range []string{"1", "3"} {
		got, stderr, code := sweepFile(t, "--vary", "n=1,2,3,4,5,6", "--set", "fail_n=4", "--trials", "2", "--parallel", p, "toy-cli")
		if code == 0 {
			t.Fatalf("--parallel %s: failing sweep exited 0", p)
		}
		if got != ref {
			t.Errorf("--parallel %s: CSV after failure\n%s\nwant the rows before it\n%s", p, got, ref)
		}
		for _, w := range []string{"syncsim: toy-cli point 3 (n=4) trial 0 seed 1 failed: toy failure", "keeps the 6 rows"} {
			if !strings.Contains(stderr, w) {
				t.Errorf("--parallel %s: stderr lacks %q:\n%s", p, w, stderr)
			}
		}
	}
}

func TestSweepPanicIsReportedWithoutCrashing(t *testing.T) {
	_, stderr, code := sweepFile(t, "--vary", "n=1,2", "--set", "panic_n=2", "toy-cli")
	if code != 1 || !strings.Contains(stderr, "panicked: toy invariant broken") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

func TestSweepResume(t *testing.T) {
	args := []string{"--vary", "n=1,2,3", "--trials", "2", "toy-cli"}
	full, _, _ := sweepFile(t, args...)
	path := filepath.Join(t.TempDir(), "part.csv")
	lines := strings.SplitAfter(full, "\n")
	// Header, two rows, and a row cut short by an interruption.
	if err := os.WriteFile(path, []byte(strings.Join(lines[:3], "")+"toy-cli,2,0."), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, append([]string{"sweep", "--resume", "--csv", path}, args...)...)
	got, _ := os.ReadFile(path)
	if code != 0 || string(got) != full {
		t.Errorf("exit %d (%s); resumed CSV\n%s\nwant\n%s", code, stderr, got, full)
	}
	if !strings.Contains(stderr, "wrote 4 rows") || !strings.Contains(stderr, "after the 2 rows already there") {
		t.Errorf("stderr: %s", stderr)
	}
	// A file of another shape is refused, not overwritten.
	_, stderr, code = runCLI(t, "sweep", "--resume", "--timing", "--csv", path, "--vary", "n=1,2", "toy-cli")
	again, _ := os.ReadFile(path)
	if code == 0 || !strings.Contains(stderr, "cannot resume") || !strings.Contains(stderr, "--trials 2, not 1") || string(again) != full {
		t.Errorf("resume with a different header: exit %d, stderr %s", code, stderr)
	}
}

func TestSweepSeriesAndTiming(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "series")
	out, stderr, code := sweepFile(t, "--vary", "n=1,2", "--series-dir", dir, "--timing", "toy-cli")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasSuffix(strings.SplitN(out, "\n", 2)[0], ",end_us,maybe,wall_s,events_per_s") {
		t.Errorf("timing header: %s", strings.SplitN(out, "\n", 2)[0])
	}
	for _, v := range column(t, out, "events_per_s") {
		if f, err := strconv.ParseFloat(v, 64); err != nil || !(f > 0) {
			t.Errorf("events_per_s = %q", v)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "toy-cli_1_0_events.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 1+16 || !strings.HasPrefix(string(data), "index,time_us\n") {
		t.Errorf("series file has %d lines:\n%s", n, data)
	}
}

func TestSweepRangeEqualsList(t *testing.T) {
	a, _, c1 := sweepFile(t, "--vary", "load=0.1:0.5:0.2", "toy-cli")
	b, _, c2 := sweepFile(t, "--vary", "load=0.1,0.3,0.5", "toy-cli")
	if c1 != 0 || c2 != 0 || a != b || strings.Count(a, "\n") != 4 {
		t.Errorf("range and list differ:\n%s\n%s", a, b)
	}
}
