package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLearningDeterministicAtAnyParallel: a sweep that trains models
// writes byte-identical CSV and learning series at --parallel 1 and 2,
// and plot draws the series.
func TestLearningDeterministicAtAnyParallel(t *testing.T) {
	if testing.Short() {
		t.Skip("trains models")
	}
	dir := t.TempDir()
	sweep := func(par string) (string, string) {
		csv, series := filepath.Join(dir, "p"+par+".csv"), filepath.Join(dir, "s"+par)
		args := []string{"sweep", "dssync", "--trials", "2", "--parallel", par, "--quiet", "--csv", csv, "--series-dir", series,
			"--vary", "scheme=dssync,gossip,asp", "--set", "model=custom", "--set", "model_mb=16", "--set", "compute_ms=20",
			"--set", "iterations=30", "--set", "bg_model=bert-base", "--set", "layers=2",
			"--set", "learn_model=mlp", "--set", "hidden=8", "--set", "dataset=synthetic", "--set", "synth_samples=2000",
			"--set", "target_acc=0.5", "--set", "eval_every=3"}
		if _, stderr, code := runCLI(t, args...); code != 0 {
			t.Fatalf("sweep at --parallel %s: exit %d: %s", par, code, stderr)
		}
		return csv, series
	}
	c1, s1 := sweep("1")
	c2, s2 := sweep("2")
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if read(c1) != read(c2) {
		t.Errorf("CSV differs between --parallel 1 and 2")
	}
	files, _ := filepath.Glob(filepath.Join(s1, "*_learning.csv"))
	if len(files) != 6 {
		t.Fatalf("%d learning series, want 6", len(files))
	}
	for _, f := range files {
		if read(f) != read(filepath.Join(s2, filepath.Base(f))) {
			t.Errorf("%s differs between --parallel 1 and 2", filepath.Base(f))
		}
	}
	if !strings.Contains(read(c1), "dssync,dssync,") || strings.Contains(strings.Split(read(c1), "\n")[1], ",NaN,NaN,NaN,NaN,NaN,NaN,NaN") {
		t.Errorf("the sweep reported no learning metrics:\n%s", read(c1))
	}
	png := filepath.Join(dir, "acc.png")
	if _, stderr, code := runCLI(t, "plot", s1, "--from-series", "learning", "--x", "t_s", "--bin", "0.5", "--y", "test_acc",
		"--series", "scheme", "--y-range", "0.2:1", "-o", png); code != 0 {
		t.Fatalf("plot: exit %d: %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "plot", s1, "--from-series", "learning", "--x", "t_s", "--y", "test_acc", "--y-range", "1:0",
		"--series", "scheme", "-o", png, "--force"); code == 0 || !strings.Contains(stderr, "want LO:HI with LO < HI") {
		t.Errorf("plot with an empty y range: exit %d: %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "plot", s1, "--from-series", "nothing", "--x", "t_s", "--y", "test_acc", "-o", png, "--force"); code == 0 ||
		!strings.Contains(stderr, "holds no series \"nothing\"") {
		t.Errorf("plot of a missing series: exit %d: %s", code, stderr)
	}
}

// TestLearningOptimiserDeterministic: the CNN and the three-layer MLP
// under Nesterov momentum, weight decay, warm-up and a cosine decay, with
// DS-Sync's groups and ASP's server, write byte-identical CSV at
// --parallel 1 and 2, and the optimiser moves the results (so its
// parameters reach the learner).
func TestLearningOptimiserDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("trains models")
	}
	dir := t.TempDir()
	sweep := func(name string, extra ...string) string {
		csv := filepath.Join(dir, name+".csv")
		args := append([]string{"sweep", "dssync", "--trials", "2", "--quiet", "--csv", csv,
			"--vary", "scheme=dssync,asp", "--vary", "learn_model=cnn,mlp3", "--set", "model=custom", "--set", "model_mb=16",
			"--set", "compute_ms=20", "--set", "iterations=12", "--set", "bg_model=bert-base", "--set", "layers=2",
			"--set", "hidden=8", "--set", "dataset=synthetic", "--set", "synth_dim=144", "--set", "synth_samples=1500",
			"--set", "target_acc=0.5", "--set", "eval_every=3"}, extra...)
		if _, stderr, code := runCLI(t, args...); code != 0 {
			t.Fatalf("sweep %s: exit %d: %s", name, code, stderr)
		}
		b, err := os.ReadFile(csv)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	opt := []string{"--set", "momentum=0.9", "--set", "nesterov=true", "--set", "weight_decay=0.001",
		"--set", "lr_schedule=cosine", "--set", "lr_warmup_iters=3", "--set", "lr_cosine_iters=20"}
	one := sweep("p1", append(opt, "--parallel", "1")...)
	two := sweep("p2", append(opt, "--parallel", "2")...)
	if one != two {
		t.Errorf("CSV differs between --parallel 1 and 2")
	}
	plain := sweep("plain", "--parallel", "2")
	col := func(csv string) []string { // final_acc of every row
		lines := strings.Split(strings.TrimSpace(csv), "\n")
		k := slices.Index(strings.Split(lines[0], ","), "final_acc")
		var out []string
		for _, l := range lines[1:] {
			out = append(out, strings.Split(l, ",")[k])
		}
		return out
	}
	if a, b := col(one), col(plain); len(a) != 8 || slices.Equal(a, b) {
		t.Errorf("final accuracies with the optimiser %v, without %v: want 8 rows that differ", a, b)
	}
}
