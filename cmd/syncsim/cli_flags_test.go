package main

import (
	"strings"
	"testing"
)

// TestHelpWhereverTyped: help works after the experiment name and on
// every command, shows the command's examples and, when an experiment is
// named, its parameters; the old program answered "No help topic for
// 'incast'" with exit 1.
func TestHelpWhereverTyped(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		wants []string
	}{
		{[]string{"run", "incast", "--help"}, []string{"syncsim run", "EXAMPLES:", "--trials", "EXPERIMENT incast", "senders"}},
		{[]string{"sweep", "incast", "--help"}, []string{"--vary", "--shard", "EXAMPLES:", "EXPERIMENT incast", "ecn_k_pkts"}},
		{[]string{"describe", "incast", "-h"}, []string{"--format", "EXPERIMENT incast"}},
		{[]string{"run", "--set", "senders=4", "incast", "-h"}, []string{"EXPERIMENT incast"}},
		{[]string{"help", "sweep", "incast"}, []string{"--vary", "EXPERIMENT incast"}},
		{[]string{"sweep", "--help"}, []string{"--vary", "--resume", "EXAMPLES:"}},
		{[]string{"merge", "-h"}, []string{"-o", "EXAMPLES:"}},
		{[]string{"--help"}, []string{"EXAMPLES:", "merge"}},
	} {
		out, stderr, code := runCLI(t, tc.args...)
		if code != 0 {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr)
			continue
		}
		for _, w := range tc.wants {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", tc.args, w, out)
			}
		}
	}
	if _, stderr, code := runCLI(t, "run", "nosuch", "--help"); code == 0 || !strings.Contains(stderr, `unknown experiment "nosuch"`) {
		t.Errorf("help for an unknown experiment: exit %d %q", code, stderr)
	}
}

// TestFlagsAreStrict: a single-valued flag given twice, Go-only number
// syntax, duplicate values after canonicalisation and seeds that would
// wrap are errors, and flags are named as typed.
func TestFlagsAreStrict(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "toy-cli", "--csv", "a.csv", "--csv", "b.csv"}, "--csv given twice"},
		{[]string{"run", "toy-cli", "--seed", "1", "--seed=2"}, "--seed given twice"},
		{[]string{"sweep", "toy-cli", "--csv", "x.csv", "--trials", "2", "--trials", "3"}, "--trials given twice"},
		{[]string{"run", "toy-cli", "--check", "--check"}, "--check given twice"},
		{[]string{"run", "toy-cli", "--set", "load=1_0"}, `load="1_0": not a finite number`},
		{[]string{"run", "toy-cli", "--set", "load=0x1p-1"}, "not a finite number"},
		{[]string{"sweep", "toy-cli", "--csv", "x.csv", "--vary", "load=0,-0"}, "lists the value 0 twice"},
		{[]string{"run", "toy-cli", "--seed", "18446744073709551615", "--trials", "3"}, "passes the largest seed"},
		{[]string{"run", "toy-cli", "--bogus"}, "flag provided but not defined: --bogus"},
		{[]string{"run", "toy-cli", "--trials"}, "flag needs an argument: --trials"},
		{[]string{"run", "toy-cli", "--trials", "x"}, `--trials "x": want a whole number`},
		{[]string{"run", "toy-cli", "--parallel", "9223372036854775807"}, "--parallel must be at most 1024"},
		{[]string{"run", "toy-cli", "--trials", "1000000000"}, "--trials must be at most 1000000"},
		{[]string{"run", "toy-cli", "--stall-ms", "-1"}, "--stall-ms must be at least 0"},
		{[]string{"run", "toy-cli", "--resume"}, "--resume continues the file given with --csv"},
		{[]string{"run", "toy-cli", "--csv", "x.csv", "--resume", "--force"}, "give one"},
	} {
		_, stderr, code := runCLI(t, tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q, want one line with %q", tc.args, code, stderr, tc.want)
		}
	}
	// The largest seed itself is fine for one trial, and for as many as fit.
	if out, stderr, code := runCLI(t, "run", "toy-cli", "--seed", "18446744073709551614", "--trials", "2"); code != 0 ||
		!strings.Contains(out, "seeds 18446744073709551614..18446744073709551615") {
		t.Errorf("exit %d %s\n%s", code, stderr, out)
	}
}
