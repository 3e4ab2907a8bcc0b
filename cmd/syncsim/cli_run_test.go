package main

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"syncsim/experiments"
)

func TestRunTableShowsMedianAndRange(t *testing.T) {
	csvPath := filepath.Join(t.TempDir(), "run.csv")
	out, stderr, code := runCLI(t, "run", "toy-cli", "--set", "mode=undef", "--trials", "5", "--seed", "7", "--csv", csvPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	t.Logf("\n%s", out)
	data, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	// The table must agree with the CSV: median and [min-max] of end_us.
	var vals []float64
	for _, v := range column(t, string(data), "end_us") {
		f, _ := strconv.ParseFloat(v, 64)
		vals = append(vals, f)
	}
	if len(vals) != 5 {
		t.Fatalf("CSV has %d rows, want 5", len(vals))
	}
	sorted := append([]float64(nil), vals...)
	for i := range sorted { // insertion sort, to avoid re-using the code under test
		for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	row := regexp.MustCompile(`end_us\s*│\s*(\S+)\s*│\s*\[(\S+), (\S+)\]\s*│\s*us\s*│\s*5/5`).FindStringSubmatch(out)
	if row == nil {
		t.Fatalf("no end_us row with median [min, max] us 5/5 in\n%s", out)
	}
	for i, want := range []float64{sorted[2], sorted[0], sorted[4]} {
		if row[i+1] != num(want) {
			t.Errorf("column %d = %s, want %s (from CSV %v)", i, row[i+1], num(want), vals)
		}
	}
	if !regexp.MustCompile(`maybe\s*│\s*NaN\s*│\s*-\s*│\s*│\s*0/5`).MatchString(out) {
		t.Errorf("undefined metric not shown as NaN, 0/5:\n%s", out)
	}
	for _, w := range []string{"toy-cli: n=4 load=0.5 mode=undef fail_n=0 panic_n=0", "seeds 7..11, 5 trials", "median", "[min, max]"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q", w)
		}
	}
}

func TestRunTimingRows(t *testing.T) {
	out, _, code := runCLI(t, "run", "--timing", "toy-cli")
	if code != 0 || !strings.Contains(out, "wall_s") || !strings.Contains(out, "events_per_s") || !strings.Contains(out, "seed 1, 1 trial") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestListAndDescribe(t *testing.T) {
	out, _, code := runCLI(t, "list")
	if code != 0 || !regexp.MustCompile(`(?m)^toy-cli\s+a tiny deterministic test experiment$`).MatchString(out) {
		t.Errorf("list: exit %d\n%s", code, out)
	}
	// toy-cli names no common parameters or headline metrics, so its
	// summary lists them all, without the type column --full adds.
	out, _, code = runCLI(t, "describe", "toy-cli")
	t.Logf("\n%s", out)
	if code != 0 {
		t.Fatalf("describe: exit %d", code)
	}
	for _, re := range []string{
		`Schedules 8n events`,
		`Parameters \(--set`,
		`load\s*│\s*0.5\s*│\s*number in \[0, 1\]\s*│\s*scales the gaps`,
		`mode\s*│\s*fast\s*│\s*one of fast\|slow\|undef`,
		`end_us\s*│\s*us\s*│\s*time of the last event`,
		`fail_n`,
		`panic_n`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("describe output lacks %s", re)
		}
	}
	out, _, code = runCLI(t, "describe", "toy-cli", "--full")
	if code != 0 {
		t.Fatalf("describe --full: exit %d", code)
	}
	for _, re := range []string{
		`Schedules 8n events`,
		`load\s*│\s*float\s*│\s*0.5\s*│\s*number in \[0, 1\]\s*│\s*scales the gaps`,
		`mode\s*│\s*enum\s*│\s*fast\s*│\s*one of\s`,
		`fast\|slow\|undef`,
		`n\s*│\s*int\s*│\s*4\s*│\s*integer in \[1, 64\]`,
		`end_us\s*│\s*us\s*│\s*time of the last event`,
		`fail_n`, // snake_case names are printed as written
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("describe output lacks %s", re)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	out, _, code := runCLI(t)
	if code != 0 || !strings.Contains(out, "sweep") || !strings.Contains(out, "describe") {
		t.Errorf("no-argument help: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "--version")
	if code != 0 || !strings.Contains(out, version) {
		t.Errorf("--version: exit %d %q", code, out)
	}
	out, _, code = runCLI(t, "help", "run")
	if code != 0 || !strings.Contains(out, "--trials") {
		t.Errorf("help run: exit %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "sweep", "--help")
	if code != 0 || !strings.Contains(out, "--vary") || !strings.Contains(out, "--resume") {
		t.Errorf("sweep --help: exit %d\n%s", code, out)
	}
}

func TestHoistFlags(t *testing.T) {
	app := newApp(experiments.NewRegistry(), nil, nil)
	for _, tc := range []struct{ in, want string }{
		{"syncsim run toy --seed 9 --timing --set a=1", "syncsim run --seed 9 --timing --set a=1 toy"},
		{"syncsim run --seed=9 toy --check", "syncsim run --seed=9 --check toy"},
		{"syncsim sweep toy --vary n=1,2 --resume --csv f.csv", "syncsim sweep --vary n=1,2 --resume --csv f.csv toy"},
		{"syncsim run --set x=-1 toy", "syncsim run --set x=-1 toy"},
		{"syncsim run toy -- -odd", "syncsim run -- toy -odd"},
		{"syncsim --help", "syncsim --help"},
		{"syncsim nosuch toy --x", "syncsim nosuch toy --x"},
		{"syncsim run toy --trials 2 --set", "syncsim run --trials 2 --set"},
	} {
		out, err := hoistFlags(app, strings.Fields(tc.in))
		if err != nil {
			t.Fatalf("hoistFlags(%s): %v", tc.in, err)
		}
		got := strings.Join(out, " ")
		if got != tc.want {
			t.Errorf("hoistFlags(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestNum(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{677480, "677480"}, {-3, "-3"}, {59.71666, "59.717"}, {0.997441, "0.99744"},
		{123456.78, "123457"}, {9.73333, "9.7333"}, {0.0012345, "0.0012345"},
		{1.5e-7, "1.5e-07"}, {2.5e13, "25000000000000"}, {2.5e15, "2.5e+15"}, {1.25e12 + 0.5, "1.25e+12"}, {math.NaN(), "NaN"}, {math.Inf(-1), "-Inf"},
	} {
		if got := num(tc.v); got != tc.want {
			t.Errorf("num(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestCheckFlagReachesRuns(t *testing.T) {
	if _, stderr, code := runCLI(t, "run", "--set", "n=13", "toy-cli"); code != 0 {
		t.Fatalf("without --check: exit %d %s", code, stderr)
	}
	_, stderr, code := runCLI(t, "run", "--check", "--set", "n=13", "toy-cli")
	if code == 0 || !strings.Contains(stderr, "toy books do not balance") {
		t.Errorf("with --check: exit %d %s", code, stderr)
	}
}
