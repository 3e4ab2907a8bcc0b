package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInput checks that every kind of bad input exits non-zero with a
// single line on stderr that names the problem, without a panic or a
// stack trace.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	okCSV := filepath.Join(dir, "ok.csv")
	aFile := filepath.Join(dir, "file")
	if err := os.WriteFile(aFile, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string // substrings of the message
	}{
		{"unknown experiment", []string{"run", "nosuch"}, []string{`unknown experiment "nosuch"`, "toy-cli"}},
		{"unknown experiment sweep", []string{"sweep", "--csv", okCSV, "nosuch"}, []string{`unknown experiment "nosuch"`}},
		{"unknown experiment describe", []string{"describe", "nosuch"}, []string{`unknown experiment "nosuch"`}},
		{"missing experiment", []string{"run"}, []string{"missing experiment name", "toy-cli"}},
		{"two experiments", []string{"run", "toy-cli", "toy-cli"}, []string{"expected one experiment name"}},
		{"unknown set key", []string{"run", "--set", "nope=1", "toy-cli"}, []string{`"nope"`, "n, load, mode"}},
		{"unknown vary key", []string{"sweep", "--csv", okCSV, "--vary", "nope=1,2", "toy-cli"}, []string{`"nope"`, "parameters:"}},
		{"malformed set", []string{"run", "--set", "n", "toy-cli"}, []string{`malformed setting "n"`, "key=value"}},
		{"malformed value", []string{"run", "--set", "n=abc", "toy-cli"}, []string{"not an integer", "integer in [1, 64]"}},
		{"malformed vary", []string{"sweep", "--csv", okCSV, "--vary", "n", "toy-cli"}, []string{"malformed --vary", "key=v1,v2"}},
		{"malformed vary value", []string{"sweep", "--csv", okCSV, "--vary", "load=0.1,x", "toy-cli"}, []string{"load=", "not a finite number"}},
		{"out of range", []string{"run", "--set", "n=0", "toy-cli"}, []string{"out of range", "[1, 64]"}},
		{"out of range vary", []string{"sweep", "--csv", okCSV, "--vary", "load=0.5,2", "toy-cli"}, []string{"out of range", "[0, 1]"}},
		{"bad enum", []string{"run", "--set", "mode=warp", "toy-cli"}, []string{"fast|slow|undef"}},
		{"missing flag value", []string{"run", "toy-cli", "--set"}, []string{"flag needs an argument", "-set", "syncsim run --help"}},
		{"missing vary value", []string{"sweep", "--csv", okCSV, "--vary", "n=", "toy-cli"}, []string{"malformed --vary"}},
		{"set twice", []string{"run", "--set", "n=2", "--set", "n=3", "toy-cli"}, []string{"n set twice"}},
		{"set and vary", []string{"sweep", "--csv", okCSV, "--set", "n=2", "--vary", "n=1,3", "toy-cli"}, []string{"both set and varied"}},
		{"vary twice", []string{"sweep", "--csv", okCSV, "--vary", "n=2", "--vary", "n=1,3", "toy-cli"}, []string{"varied twice"}},
		{"trials 0", []string{"run", "--trials", "0", "toy-cli"}, []string{"--trials must be at least 1, got 0"}},
		{"trials negative", []string{"sweep", "--csv", okCSV, "--trials", "-2", "toy-cli"}, []string{"--trials must be at least 1, got -2"}},
		{"trials not a number", []string{"run", "--trials", "many", "toy-cli"}, []string{`--trials "many": want a whole number`}},
		{"parallel 0", []string{"run", "--parallel", "0", "toy-cli"}, []string{"--parallel must be at least 1, got 0"}},
		{"seed negative", []string{"run", "--seed", "-1", "toy-cli"}, []string{`--seed "-1": want a whole number in [0, 18446744073709551615]`}},
		{"unknown flag", []string{"run", "--speed", "9", "toy-cli"}, []string{"flag provided but not defined", "speed"}},
		{"unknown command", []string{"walk"}, []string{`unknown command "walk"`}},
		{"sweep without csv", []string{"sweep", "--vary", "n=1,2", "toy-cli"}, []string{"sweep needs --csv"}},
		{"empty csv name", []string{"run", "--csv", "", "toy-cli"}, []string{"--csv needs a file name"}},
		{"csv in missing dir", []string{"run", "--csv", filepath.Join(dir, "no", "x.csv"), "toy-cli"}, []string{"cannot write CSV", "no such file or directory"}},
		{"csv is a directory", []string{"sweep", "--csv", dir, "toy-cli"}, []string{"is a directory; --csv names a file"}},
		{"series dir parent missing", []string{"run", "--series-dir", filepath.Join(dir, "a", "b"), "toy-cli"}, []string{"--series-dir", "no such file or directory"}},
		{"series dir is a file", []string{"run", "--series-dir", aFile, "toy-cli"}, []string{"--series-dir", "not a directory"}},
		{"resume headerless file", []string{"sweep", "--resume", "--csv", aFile, "toy-cli"}, []string{"cannot resume", "no complete header line"}},
		{"list with arguments", []string{"list", "x"}, []string{"list takes no arguments"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tc.args...)
			if code == 0 {
				t.Fatalf("exit 0, stdout %q", stdout)
			}
			if !strings.HasPrefix(stderr, "syncsim: ") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr is not one 'syncsim: ' line: %q", stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			for _, bad := range []string{"goroutine ", "panic:", "panicked", ".go:"} {
				if strings.Contains(stderr+stdout, bad) {
					t.Errorf("output mentions %q:\n%s%s", bad, stdout, stderr)
				}
			}
			if strings.Contains(stdout, "USAGE") {
				t.Errorf("help text printed on error:\n%s", stdout)
			}
		})
	}
}

// TestBadInputLeavesCSVAlone: parameters are checked before the CSV is
// opened, so a typo does not truncate the results of an earlier sweep.
func TestBadInputLeavesCSVAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "precious.csv")
	if err := os.WriteFile(path, []byte("earlier results\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, code := runCLI(t, "sweep", "--csv", path, "--vary", "n=1,x", "toy-cli")
	data, _ := os.ReadFile(path)
	if code == 0 || string(data) != "earlier results\n" {
		t.Errorf("exit %d, file now %q", code, data)
	}
}
