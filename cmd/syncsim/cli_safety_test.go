package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile writes text to a new file under dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExistingCSVIsNeverOverwritten: a non-empty CSV is refused unless
// --force or --resume (the old program truncated it without a word).
func TestExistingCSVIsNeverOverwritten(t *testing.T) {
	dir := t.TempDir()
	const precious = "experiment,n\nearlier,results\n"
	keep := writeFile(t, dir, "keep.csv", precious)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"run", []string{"run", "toy-cli", "--csv", keep}, "keep.csv exists (29 bytes); continue it with --resume or replace it with --force"},
		{"sweep", []string{"sweep", "toy-cli", "--vary", "n=1,2", "--csv", keep}, "continue it with --resume or replace it with --force"},
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
	if _, stderr, code := runCLI(t, "run", "toy-cli", "--csv", keep, "--force"); code != 0 {
		t.Fatalf("--force: exit %d %s", code, stderr)
	}
	if data, _ := os.ReadFile(keep); !strings.HasPrefix(string(data), "experiment,n,load,mode") {
		t.Errorf("--force did not replace the file: %q", data)
	}
}

// TestResumeRefusesOtherConfiguration: --resume with other --set, --vary,
// --seed or --trials than the sweep that wrote the file is refused,
// naming what differs, from the sidecar or (without one) from the rows;
// the old program appended another configuration's rows and exited 0.
func TestResumeRefusesOtherConfiguration(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.csv")
	base := []string{"sweep", "toy-cli", "--vary", "n=1,2", "--set", "load=0.2", "--trials", "2", "--csv", path}
	if _, stderr, code := runCLI(t, base...); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	orig, _ := os.ReadFile(path)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"other set", []string{"sweep", "toy-cli", "--vary", "n=1,2", "--set", "load=0.3", "--trials", "2"}, "load=0.2, not load=0.3"},
		{"other vary", []string{"sweep", "toy-cli", "--vary", "n=1,3", "--set", "load=0.2", "--trials", "2"}, "--vary n=1,2, not --vary n=1,3"},
		{"other seed", []string{"sweep", "toy-cli", "--vary", "n=1,2", "--set", "load=0.2", "--trials", "2", "--seed", "5"}, "--seed 1, not 5"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, append(tc.args, "--csv", path, "--resume")...)
			if code == 0 || !strings.Contains(stderr, "cannot resume") || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q, want %q", code, stderr, tc.want)
			}
		})
	}
	// Without the sidecar the rows themselves tell.
	os.Remove(path + ".json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{cases[0].args, "load=0.2 where this sweep has load=0.3"},
		{cases[1].args, "n=2, which this sweep does not vary over (--vary n=1,3)"},
		{cases[2].args, "has seed 1 for trial 0, where this sweep (--seed 5) has 5"},
	} {
		_, stderr, code := runCLI(t, append(tc.args, "--csv", path, "--resume")...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
	}
	if data, _ := os.ReadFile(path); string(data) != string(orig) {
		t.Errorf("refused resumes changed the file")
	}
	// The same sweep resumes (nothing left to run).
	if _, stderr, code := runCLI(t, append(base, "--resume")...); code != 0 || !strings.Contains(stderr, "wrote 0 rows") {
		t.Errorf("same sweep: exit %d %s", code, stderr)
	}
}

// TestResumeRerunsIncompleteSeries: series are written before their row,
// each file atomically with a manifest last; a row whose series are
// incomplete (as an older version left them when killed) is run again on
// --resume, and the result equals an uninterrupted sweep.
func TestResumeRerunsIncompleteSeries(t *testing.T) {
	dir := t.TempDir()
	full := func(name string) (string, string) {
		csv, series := filepath.Join(dir, name+".csv"), filepath.Join(dir, name)
		if _, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2,3", "--series-dir", series, "--csv", csv); code != 0 {
			t.Fatalf("exit %d %s", code, stderr)
		}
		return csv, series
	}
	refCSV, refDir := full("ref")
	csv, series := full("cut")
	// Cut the series of point 1 short, as a kill while writing it would.
	cut := filepath.Join(series, "toy-cli_1_0_events.csv")
	data, _ := os.ReadFile(cut)
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2,3", "--series-dir", series, "--csv", csv, "--resume")
	if code != 0 || !strings.Contains(stderr, "the series of point 1 trial 0 are incomplete") || !strings.Contains(stderr, "2 rows from line 3 are run again") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	a, _ := os.ReadFile(refCSV)
	b, _ := os.ReadFile(csv)
	if string(a) != string(b) {
		t.Errorf("resumed CSV differs from the uninterrupted one:\n%s\n%s", b, a)
	}
	for _, name := range []string{"toy-cli_1_0_events.csv", "toy-cli_2_0_events.csv", "toy-cli_1_0.json"} {
		x, _ := os.ReadFile(filepath.Join(refDir, name))
		y, _ := os.ReadFile(filepath.Join(series, name))
		if string(x) != string(y) || len(x) == 0 {
			t.Errorf("%s differs after resume", name)
		}
	}
	man, _ := os.ReadFile(filepath.Join(series, "toy-cli_2_0.json"))
	for _, w := range []string{`"experiment": "toy-cli"`, `"point": 2`, `"seed": 1`, `"name": "n",` + "\n" + `      "value": "3"`, `"rows": 24`} {
		if !strings.Contains(string(man), w) {
			t.Errorf("manifest lacks %q:\n%s", w, man)
		}
	}
	// A series directory holding this experiment's files is not
	// overwritten by a new sweep without --resume or --force.
	_, stderr, code = runCLI(t, "sweep", "toy-cli", "--vary", "n=1,2,3", "--series-dir", series, "--csv", filepath.Join(dir, "new.csv"))
	if code == 0 || !strings.Contains(stderr, "already holds 6 files of toy-cli") {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
}

// TestNoSeriesIsSaid: an experiment that collects no series says so
// instead of leaving the directory silently empty.
func TestNoSeriesIsSaid(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "series")
	_, stderr, code := runCLI(t, "run", "sr-example", "--series-dir", dir)
	if code != 0 || !strings.Contains(stderr, "sr-example collected no time series for these parameters") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestRunResume: an interrupted run continues with --resume, and its
// table covers every trial, those kept and those run.
func TestRunResume(t *testing.T) {
	dir := t.TempDir()
	full, part := filepath.Join(dir, "full.csv"), filepath.Join(dir, "part.csv")
	want, _, code := runCLI(t, "run", "toy-cli", "--trials", "4", "--csv", full)
	if code != 0 {
		t.Fatal("run failed")
	}
	lines := strings.SplitAfter(readFile(t, full), "\n")
	os.WriteFile(part, []byte(strings.Join(lines[:3], "")), 0o644) // header and two trials
	got, stderr, code := runCLI(t, "run", "toy-cli", "--trials", "4", "--csv", part, "--resume")
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if readFile(t, part) != readFile(t, full) {
		t.Errorf("resumed CSV differs")
	}
	if got != want {
		t.Errorf("table after resume\n%s\nwant\n%s", got, want)
	}
}
