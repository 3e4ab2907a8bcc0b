package main

import (
	"strings"
	"testing"

	"syncsim/internal/fuzzcheck"
)

// FuzzScenario: any file given to --scenario is refused with a one-line
// message that names the file, or decoded into settings of the form key=value.
func FuzzScenario(f *testing.F) {
	fuzzcheck.Seeds(f,
		"experiment = \"toy-cli\"\nseed = 3\ntrials = 2\n[set]\nload = 0.25\nmode = \"slow\"\n[vary]\nn = [1, 2]\n",
		"experiment = \"toy-cli\"\n[vary]\nload = \"0.1:0.5:0.2\"\n",
		"set.load = 0.5\nvary.n = [3]\n",
		"seed = \"18446744073709551615\"\n",
		"[set]\nload = nan\n",
		"[set]\n[set.x]\ny = 1\n",
		"experiment = 1\n",
		"trials = -1\n",
		"[vary]\nn = []\n",
		"bogus = 1\n",
		"[set]\nload = 1\nload = 2\n",
		"[set]\nwhen = 1979-05-27T07:32:00Z\n",
		"x = \"\n",
	)
	reg := testRegistry()
	toy, _ := reg.Lookup("toy-cli")
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := parseScenario("s.toml", data)
		if fuzzcheck.Refused(t, err, "s.toml") {
			return
		}
		for _, s := range append(append([]string(nil), sc.sets...), sc.varies...) {
			if k, _, ok := strings.Cut(s, "="); !ok || k == "" {
				t.Fatalf("setting %q is not key=value", s)
			}
		}
		if sc.trials != nil && *sc.trials < 1 {
			t.Fatalf("trials %d accepted", *sc.trials)
		}
		// Checked against an experiment, every entry is accepted or
		// refused with the file's name.
		_, _, err = mergeSettings(toy, sc, nil, nil)
		fuzzcheck.Refused(t, err, "s.toml")
	})
}

// FuzzCommandLine: any command line is reordered (or refused) without a
// panic, keeps every argument, and completion and help requests are
// answered from it.
func FuzzCommandLine(f *testing.F) {
	for _, s := range []string{
		"run incast --seed 9 --set senders=4 --timing",
		"sweep toy-cli --vary n=1,2 --csv a.csv --csv b.csv",
		"run -- -odd --help",
		"describe incast -h",
		"help sweep incast",
		"run incast --trials",
		"sweep --shard 2/3 --shards 3 toy-cli",
		"run toy-cli --set mode=",
		"merge -o out.csv a.csv b.csv",
		"--version",
	} {
		f.Add(s)
	}
	reg := testRegistry()
	app := newApp(reg, nil, nil)
	f.Fuzz(func(t *testing.T, line string) {
		args := append([]string{"syncsim"}, strings.Fields(line)...)
		out, err := hoistFlags(app, args)
		if err == nil {
			count := func(ss []string) map[string]int {
				m := map[string]int{}
				for _, s := range ss {
					if s != "--" {
						m[s]++
					}
				}
				return m
			}
			a, b := count(args), count(out)
			for k, n := range b {
				if a[k] < n {
					t.Fatalf("hoistFlags(%q) = %q invents %q", args, out, k)
				}
			}
		}
		helpRequest(app, args)
		for _, c := range candidates(app, reg, line) {
			if c == "" {
				t.Fatalf("empty completion for %q", line)
			}
		}
	})
}
