package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"syncsim/experiments"
)

// readFile returns a file's contents, failing the test if it cannot.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestScenarioFileEqualsFlags: a scenario file and the equivalent flags
// give byte-identical CSV; flags override the file entry by entry.
func TestScenarioFileEqualsFlags(t *testing.T) {
	dir := t.TempDir()
	sc := writeFile(t, dir, "study.toml", `# a study
experiment = "toy-cli"
seed = 7
trials = 2

[set]
load = 0.25
mode = "slow"

[vary]
n = [1, 3, 2]
fail_n = "0:0:1"
`)
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	if _, stderr, code := runCLI(t, "sweep", "--scenario", sc, "--csv", a); code != 0 {
		t.Fatalf("scenario: exit %d %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "sweep", "toy-cli", "--seed", "7", "--trials", "2", "--set", "load=0.25", "--set", "mode=slow",
		"--vary", "n=1,3,2", "--vary", "fail_n=0", "--csv", b); code != 0 {
		t.Fatalf("flags: exit %d %s", code, stderr)
	}
	if x, y := readFile(t, a), readFile(t, b); x != y {
		t.Errorf("scenario file and flags differ:\n%s\n%s", x, y)
	}
	// Flags win: --set replaces the file's set, --vary its axis, --seed
	// and --trials its values.
	c, d := filepath.Join(dir, "c.csv"), filepath.Join(dir, "d.csv")
	if _, stderr, code := runCLI(t, "sweep", "--scenario", sc, "--set", "mode=fast", "--vary", "n=4", "--trials", "1", "--seed", "2", "--csv", c); code != 0 {
		t.Fatalf("override: exit %d %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "sweep", "toy-cli", "--seed", "2", "--set", "load=0.25", "--set", "mode=fast", "--vary", "fail_n=0", "--vary", "n=4", "--csv", d); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if x, y := readFile(t, c), readFile(t, d); x != y {
		t.Errorf("overridden scenario differs from the flags:\n%s\n%s", x, y)
	}
	// run takes a scenario without [vary] and refuses one with a grid.
	if _, stderr, code := runCLI(t, "run", "--scenario", sc); code == 0 || !strings.Contains(stderr, "use sweep") {
		t.Errorf("run with a grid: exit %d %s", code, stderr)
	}
}

// TestScenarioFileIsStrict: an unknown key, a value of the wrong type or
// a value the experiment refuses is an error naming the file and line.
func TestScenarioFileIsStrict(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text, want string
	}{
		{"unknown top key", "experiment = \"toy-cli\"\nseeds = 3\n", "x.toml line 2: unknown key \"seeds\""},
		{"unknown table", "experiment = \"toy-cli\"\n[sets]\nn = 2\n", "x.toml line 2: unknown key \"sets\""},
		{"unknown parameter", "experiment = \"toy-cli\"\n[set]\nnn = 2\n", "x.toml line 3: experiment toy-cli has no parameter \"nn\""},
		{"out of range", "experiment = \"toy-cli\"\n\n[set]\nload = 2.5\n", "x.toml line 4: load=\"2.5\": out of range"},
		{"wrong type", "experiment = \"toy-cli\"\n[set]\nn = [1, 2]\n", "x.toml line 3: set.n: want a number, a string or true/false, got an array"},
		{"bad vary", "experiment = \"toy-cli\"\n[vary]\nmode = [\"fast\", \"warp\"]\n", "x.toml line 3: mode=\"warp\": unknown value"},
		{"trials type", "experiment = \"toy-cli\"\ntrials = 1.5\n", "x.toml line 2: trials must be an integer"},
		{"syntax", "experiment = \"toy-cli\n", "x.toml line 1:"},
		{"no experiment", "[set]\nn = 2\n", "names no experiment"},
		{"other experiment", "experiment = \"incast\"\n", "the command names experiment toy-cli but the scenario file incast"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, dir, "x.toml", tc.text)
			args := []string{"run", "--scenario", p}
			if tc.name == "other experiment" {
				args = append(args, "toy-cli")
			}
			_, stderr, code := runCLI(t, args...)
			if code == 0 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q, want %q", code, stderr, tc.want)
			}
		})
	}
	if _, stderr, code := runCLI(t, "run", "--scenario", filepath.Join(dir, "missing.toml")); code == 0 || !strings.Contains(stderr, "--scenario: open") {
		t.Errorf("missing file: exit %d %s", code, stderr)
	}
}

// TestDescribeTOMLTemplateRuns: for every experiment the template that
// describe --format toml prints decodes to exactly the defaults, and for
// cheap ones running it gives the CSV of the defaults.
func TestDescribeTOMLTemplateRuns(t *testing.T) {
	reg := testRegistry()
	dir := t.TempDir()
	for _, e := range reg.All() {
		out, stderr, code := runCLI(t, "describe", e.Name, "--format", "toml")
		if code != 0 {
			t.Fatalf("%s: exit %d %s", e.Name, code, stderr)
		}
		sc, err := parseScenario(e.Name+".toml", []byte(out))
		if err != nil {
			t.Fatalf("%s: the template does not decode: %v\n%s", e.Name, err, out)
		}
		sets, varies, err := mergeSettings(e, sc, nil, nil)
		if err != nil || len(varies) != 0 || sc.experiment != e.Name || *sc.seed != 1 || *sc.trials != 1 {
			t.Fatalf("%s: %v %v", e.Name, err, varies)
		}
		g, err := experiments.Expand(e, sets, nil)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if got, want := g.Point(0).Values(), e.Defaults().Values(); !slices.Equal(got, want) {
			t.Errorf("%s: template point %v, defaults %v", e.Name, got, want)
		}
		if len(sets) != len(e.Params) {
			t.Errorf("%s: the template sets %d of %d parameters", e.Name, len(sets), len(e.Params))
		}
	}
	for _, name := range []string{"toy-cli", "sr-example", "incast"} {
		out, _, _ := runCLI(t, "describe", name, "--format", "toml")
		tmpl := writeFile(t, dir, name+".toml", out)
		a, b := filepath.Join(dir, name+"-a.csv"), filepath.Join(dir, name+"-b.csv")
		if _, stderr, code := runCLI(t, "run", "--scenario", tmpl, "--csv", a); code != 0 {
			t.Fatalf("%s template: exit %d %s", name, code, stderr)
		}
		if _, stderr, code := runCLI(t, "run", name, "--csv", b); code != 0 {
			t.Fatalf("%s: exit %d %s", name, code, stderr)
		}
		if x, y := readFile(t, a), readFile(t, b); x != y {
			t.Errorf("%s: the template's CSV differs from the defaults':\n%s\n%s", name, x, y)
		}
	}
}

// TestSchemaJSON: describe --format json and list --format json give
// every parameter with its type, default, range and unit, and every
// metric with its unit, as JSON other tools can read.
func TestSchemaJSON(t *testing.T) {
	reg := testRegistry()
	out, _, code := runCLI(t, "list", "--format", "json")
	var all []experimentSchema
	if code != 0 || json.Unmarshal([]byte(out), &all) != nil || len(all) != len(reg.Names()) {
		t.Fatalf("list --format json: exit %d, %d experiments\n%s", code, len(all), out)
	}
	for i, e := range reg.All() {
		out, _, code := runCLI(t, "describe", e.Name, "--format", "json")
		var s map[string]any
		if code != 0 || json.Unmarshal([]byte(out), &s) != nil {
			t.Fatalf("%s: exit %d\n%s", e.Name, code, out)
		}
		if all[i].Name != e.Name || s["name"] != e.Name {
			t.Errorf("%s: names %q %v", e.Name, all[i].Name, s["name"])
		}
		ps := s["parameters"].([]any)
		if len(ps) != len(e.Params) {
			t.Fatalf("%s: %d parameters in JSON", e.Name, len(ps))
		}
		for j, raw := range ps {
			p, want := raw.(map[string]any), e.Params[j]
			if p["name"] != want.Name || p["type"] != want.Kind.String() {
				t.Errorf("%s: parameter %v, want %s %s", e.Name, p, want.Name, want.Kind)
			}
			switch want.Kind {
			case experiments.Int, experiments.Float:
				if _, ok := p["default"].(float64); !ok || p["min"] == nil || p["max"] == nil {
					t.Errorf("%s.%s: default %v min %v max %v", e.Name, want.Name, p["default"], p["min"], p["max"])
				}
			case experiments.Enum:
				if len(p["choices"].([]any)) != len(want.Choices) {
					t.Errorf("%s.%s: choices %v", e.Name, want.Name, p["choices"])
				}
			}
			if u, ok := experiments.UnitOf(want.Name); ok && u != "" && p["unit"] != u {
				t.Errorf("%s.%s: unit %v, want %s", e.Name, want.Name, p["unit"], u)
			}
		}
		ms := s["metrics"].([]any)
		for j, raw := range ms {
			m := raw.(map[string]any)
			if m["name"] != e.Metrics[j].Name || m["unit"] != e.Metrics[j].Unit {
				t.Errorf("%s: metric %v", e.Name, m)
			}
		}
	}
	if _, stderr, code := runCLI(t, "describe", "toy-cli", "--format", "yaml"); code == 0 || !strings.Contains(stderr, "want text, toml or json") {
		t.Errorf("bad format: exit %d %s", code, stderr)
	}
}

// TestProvenanceSidecar: every CSV gets FILE.json with the program, the
// command, the experiment, the parameters, the grid, the seed and the
// trials; the CSV itself is unchanged by it.
func TestProvenanceSidecar(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.csv")
	args := []string{"sweep", "toy-cli", "--vary", "n=1,2", "--set", "load=0.25", "--trials", "2", "--seed", "5", "--csv", path}
	if _, stderr, code := runCLI(t, args...); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	pv, err := experiments.ReadSidecar(path)
	if err != nil {
		t.Fatal(err)
	}
	if pv.Program.Name != "syncsim" || pv.Program.Version != version || pv.Program.Commit == "" || pv.Program.Go == "" ||
		pv.Experiment != "toy-cli" || pv.Seed != 5 || pv.Trials != 2 || pv.Points != 2 || pv.Shard != nil ||
		!slices.Equal(pv.Command, append([]string{"syncsim"}, args...)) ||
		len(pv.Grid) != 1 || pv.Grid[0].Name != "n" || !slices.Equal(pv.Grid[0].Values, []string{"1", "2"}) {
		t.Errorf("provenance %+v", pv)
	}
	if pv.Params[1].Name != "load" || pv.Params[1].Value != "0.25" {
		t.Errorf("params %v", pv.Params)
	}
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`).MatchString(pv.Created) {
		t.Errorf("created %q", pv.Created)
	}
	if h := strings.SplitN(readFile(t, path), "\n", 2)[0]; !strings.HasPrefix(h, "experiment,n,load") {
		t.Errorf("CSV header %q", h)
	}
	// A resume records itself.
	if _, stderr, code := runCLI(t, append(args, "--resume")...); code != 0 {
		t.Fatalf("resume: exit %d %s", code, stderr)
	}
	if pv, _ := experiments.ReadSidecar(path); len(pv.Resumed) != 1 || pv.Resumed[0].Command[len(args)+1] != "--resume" {
		t.Errorf("resumed %+v", pv.Resumed)
	}
}
