package main

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"syncsim/experiments"
)

// settled is the vocabulary of the names several experiments share, as
// the table of docs/manual.md (Names and units) states it: each name has
// one meaning everywhere. A name listed here must match its entry in every
// experiment that uses it (kind, unit, special values, choices, words of
// its help), and former names are used by none. A new value of a name
// whose choices are listed (bg_hosts, topology, trace) is a decision about
// the shared vocabulary: it goes into the manual's table and here
// (docs/extending.md says so); schemes and models are each paper's own.
var settled = []struct {
	name    string
	kind    string            // parameter kind, "" for a metric
	unit    string            // metric unit
	special map[string]string // value -> meaning, when the range admits the value
	choices []string          // the enum's choices are among these
	helpHas string            // a phrase every help of the name contains
	former  []string          // names no experiment may use any more
	// perPaper: each experiment offers its paper's own choices, and a
	// choice several offer is spelled alike in all (respellings): a new
	// scheme or model needs no entry here.
	perPaper bool
}{
	{name: "ecn_k_pkts", kind: "int", special: map[string]string{"0": "no marking"}, helpHas: "ECN marking threshold"},
	{name: "ecn_k_kb", kind: "float", special: map[string]string{"0": "no marking", "-1": "DCTCP's guideline K"}, helpHas: "ECN marking threshold", former: []string{"ecn_kb"}},
	{name: "warmup_ms", kind: "float", special: map[string]string{"-1": "10% of the run's simulated time, or the jobs' start where the run ends with its jobs"}},
	{name: "bg_hosts", kind: "enum", choices: []string{"all", "idle"}},
	{name: "bg_hosts_per_rack", kind: "int"},
	{name: "topology", kind: "enum", choices: []string{"star", "dumbbell", "leaf-spine", "racks", "fattree"}},
	{name: "model", kind: "enum", perPaper: true},
	{name: "scheme", kind: "enum", perPaper: true},
	{name: "trace", kind: "enum", choices: []string{"cnn", "transformer", "constant", "uniform", "lognormal", "file", "t1", "t2", "lstm"}},
	{name: "load", kind: "float", special: map[string]string{"0": "no background traffic"}, helpHas: "load"},
	{name: "switch_mem_mib", kind: "float", helpHas: "MiB", former: []string{"switch_mem_mb"}},
	{name: "init_cwd_pkts", kind: "float", helpHas: "packets", former: []string{"init_cwd"}},
	{name: "gradient_mb", kind: "float", helpHas: "MB"},
	{name: "eta", kind: "float", helpHas: "AECN"},
	{name: "bag_eta", kind: "float", helpHas: "BAG"},
	{name: "compute_ms", kind: "float", special: map[string]string{"0": "communication only", "-1": "the model's estimate"}},
	{name: "ajct_ms", unit: "ms", helpHas: "mean over jobs"},
	{name: "agg_tput_gbps", unit: "Gbit/s", helpHas: "aggregation completed"},
	{name: "agg_mem_peak_frac", unit: "", former: []string{"agg_mem_peak"}},
	{name: "jobs_done", unit: "jobs", helpHas: "jobs that finished"},
	{name: "jobs_done_frac", unit: "", helpHas: "fraction of jobs"},
	{name: "timeouts", unit: "", helpHas: "TCP"},
	{name: "worker_timeouts", unit: "", helpHas: "worker"},
	{name: "aecn_marks", unit: "packets", former: []string{"aecn_marked"}},
	{name: "drops", unit: "packets"},
	{name: "events", unit: ""},
}

// physical units must show in a name (as its suffix); counts of things
// (packets, flows, workers) may be named by what they count.
var physical = []string{"ms", "us", "s", "Gbit/s", "KB", "MB", "MiB", "1/s"}

type use struct {
	exp string
	p   *experiments.Param
	m   *experiments.Metric
}

// uses collects every parameter and metric of every registered experiment
// by name.
func uses() (map[string][]use, []string) {
	byName := map[string][]use{}
	for _, e := range newRegistry().All() {
		for i := range e.Params {
			byName[e.Params[i].Name] = append(byName[e.Params[i].Name], use{exp: e.Name, p: &e.Params[i]})
		}
		for i := range e.Metrics {
			byName[e.Metrics[i].Name] = append(byName[e.Metrics[i].Name], use{exp: e.Name, m: &e.Metrics[i]})
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return byName, names
}

// settledChoices reports whether the settled vocabulary settles the
// choices of name (a list, or each paper its own): experiments may then
// offer different sets of them.
func settledChoices(name string) bool {
	for _, s := range settled {
		if s.name == name && (s.choices != nil || s.perPaper) {
			return true
		}
	}
	return false
}

// respellings lists the choices of the enum uses us that spell one value
// two ways (equal once case, '-', '_' and spaces are dropped: allreduce
// and all-reduce), each with where the other spelling is offered.
func respellings(us []use) []string {
	type first struct{ exp, spelling string }
	seen := map[string]first{}
	var out []string
	for _, u := range us {
		if u.p == nil {
			continue
		}
		for _, c := range u.p.Choices {
			key := strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToLower(c))
			f, ok := seen[key]
			switch {
			case !ok:
				seen[key] = first{u.exp, c}
			case f.spelling != c:
				out = append(out, fmt.Sprintf("%s: %s=%s is spelled %s in %s", u.exp, u.p.Name, c, f.spelling, f.exp))
			}
		}
	}
	return out
}

// accepts reports whether p accepts the canonical value v.
func accepts(p *experiments.Param, v string) bool {
	if _, ok := specialOf(p, v); ok {
		return true
	}
	switch p.Kind {
	case experiments.Int, experiments.Float:
		f, err := strconv.ParseFloat(v, 64)
		return err == nil && f >= p.Min && f <= p.Max
	case experiments.Enum:
		return slices.Contains(p.Choices, v)
	}
	return false
}

func specialOf(p *experiments.Param, v string) (experiments.Special, bool) {
	for _, s := range p.Special {
		if s.Value == v {
			return s, true
		}
	}
	return experiments.Special{}, false
}

// TestVocabulary walks every registered experiment (new ones included)
// and rejects a name used with two meanings: a parameter of two kinds, an
// enum whose choice sets differ other than by one containing the other, a
// value special in one experiment and not (or otherwise) in another, a
// metric with two units, a unit suffix the declared unit contradicts, a
// physical unit missing from the name, a MiB quantity named _mb, and any
// departure from the settled vocabulary.
func TestVocabulary(t *testing.T) {
	byName, names := uses()
	for _, name := range names {
		us := byName[name]
		t.Run(name, func(t *testing.T) {
			var params []use
			var metrics []use
			for _, u := range us {
				if u.p != nil {
					params = append(params, u)
				} else {
					metrics = append(metrics, u)
				}
			}
			if len(params) > 0 && len(metrics) > 0 {
				t.Errorf("%s is a parameter in %s and a metric in %s", name, params[0].exp, metrics[0].exp)
			}
			for _, a := range params {
				for _, b := range params {
					if a.exp >= b.exp {
						continue
					}
					checkParamPair(t, name, a, b)
				}
				checkParamUnit(t, name, a)
			}
			for _, a := range metrics {
				if u, ok := experiments.UnitOf(name); ok && a.m.Unit != u {
					t.Errorf("%s: metric %s is in %q but its name reads %q", a.exp, name, a.m.Unit, u)
				}
				if slices.Contains(physical, a.m.Unit) {
					if u, _ := experiments.UnitOf(name); u != a.m.Unit {
						t.Errorf("%s: metric %s is in %s, which its name does not end with", a.exp, name, a.m.Unit)
					}
				}
				if strings.HasPrefix(a.m.Help, "fraction") || strings.HasPrefix(a.m.Help, "largest fraction") {
					if !strings.HasSuffix(name, "_frac") {
						t.Errorf("%s: metric %s is a fraction (%q) but is not named _frac", a.exp, name, a.m.Help)
					}
				}
				for _, b := range metrics {
					if a.exp < b.exp && a.m.Unit != b.m.Unit {
						t.Errorf("metric %s is in %q in %s but in %q in %s", name, a.m.Unit, a.exp, b.m.Unit, b.exp)
					}
				}
			}
		})
	}
	t.Run("settled", func(t *testing.T) {
		for _, s := range settled {
			for _, f := range s.former {
				for _, u := range byName[f] {
					t.Errorf("%s uses %s, now called %s", u.exp, f, s.name)
				}
			}
			for _, u := range byName[s.name] {
				checkSettled(t, s.name, s.kind, s.unit, s.special, s.choices, s.helpHas, u)
			}
			if s.perPaper {
				for _, e := range respellings(byName[s.name]) {
					t.Error(e)
				}
			}
		}
	})
}

func checkParamPair(t *testing.T, name string, a, b use) {
	t.Helper()
	if a.p.Kind != b.p.Kind {
		t.Errorf("parameter %s is %v in %s but %v in %s", name, a.p.Kind, a.exp, b.p.Kind, b.exp)
		return
	}
	if a.p.Kind == experiments.Enum && !settledChoices(name) {
		sub := func(x, y []string) bool {
			for _, c := range x {
				if !slices.Contains(y, c) {
					return false
				}
			}
			return true
		}
		if !sub(a.p.Choices, b.p.Choices) && !sub(b.p.Choices, a.p.Choices) {
			t.Errorf("parameter %s takes %s in %s but %s in %s", name, strings.Join(a.p.Choices, "|"), a.exp, strings.Join(b.p.Choices, "|"), b.exp)
		}
	}
	// A value both accept means the same in both.
	var values []string
	for _, s := range append(append([]experiments.Special(nil), a.p.Special...), b.p.Special...) {
		values = append(values, s.Value)
	}
	if a.p.Kind == experiments.Int || a.p.Kind == experiments.Float {
		values = append(values, "0", "-1")
	}
	for _, v := range values {
		if !accepts(a.p, v) || !accepts(b.p, v) {
			continue
		}
		x, okx := specialOf(a.p, v)
		y, oky := specialOf(b.p, v)
		switch {
		case okx != oky:
			t.Errorf("parameter %s=%s means %q in %s but %q in %s", name, v, x.Meaning, a.exp, y.Meaning, b.exp)
		case okx && (x.Meaning != y.Meaning || x.Auto != y.Auto):
			t.Errorf("parameter %s=%s means %q in %s but %q in %s", name, v, x.Meaning, a.exp, y.Meaning, b.exp)
		}
	}
}

func checkParamUnit(t *testing.T, name string, a use) {
	t.Helper()
	u, _ := experiments.UnitOf(name)
	if strings.Contains(a.p.Help, "MiB") && u != "MiB" {
		t.Errorf("%s: parameter %s is in MiB (%q) but is not named _mib", a.exp, name, a.p.Help)
	}
	if u == "MiB" && !strings.Contains(a.p.Help, "MiB") {
		t.Errorf("%s: parameter %s is named _mib but its help does not say MiB", a.exp, name)
	}
}

func checkSettled(t *testing.T, name, kind, unit string, special map[string]string, choices []string, helpHas string, u use) {
	t.Helper()
	where := fmt.Sprintf("%s: %s", u.exp, name)
	if u.p != nil {
		if kind != "" && u.p.Kind.String() != kind {
			t.Errorf("%s is %v, settled as %s", where, u.p.Kind, kind)
		}
		for v, meaning := range special {
			if !accepts(u.p, v) {
				continue
			}
			if s, ok := specialOf(u.p, v); !ok || s.Meaning != meaning {
				t.Errorf("%s=%s means %q, settled as %q", where, v, s.Meaning, meaning)
			}
		}
		for _, c := range u.p.Choices {
			if choices != nil && !slices.Contains(choices, c) {
				t.Errorf("%s takes %s, not among the settled %s", where, c, strings.Join(choices, "|"))
			}
		}
		if helpHas != "" && !strings.Contains(u.p.Help, helpHas) {
			t.Errorf("%s: help %q lacks %q", where, u.p.Help, helpHas)
		}
		return
	}
	if kind != "" {
		t.Errorf("%s is a metric, settled as a parameter", where)
	}
	if u.m.Unit != unit {
		t.Errorf("%s is in %q, settled as %q", where, u.m.Unit, unit)
	}
	if helpHas != "" && !strings.Contains(u.m.Help, helpHas) {
		t.Errorf("%s: help %q lacks %q", where, u.m.Help, helpHas)
	}
}

// TestRespellings: a scheme two experiments spell differently is caught,
// one spelled alike or offered by one experiment alone is not.
func TestRespellings(t *testing.T) {
	enum := func(exp string, choices ...string) use {
		p := experiments.EnumParam("scheme", choices[0], choices, "synchronisation scheme")
		return use{exp: exp, p: &p}
	}
	got := respellings([]use{enum("a", "allreduce", "ring"), enum("b", "ring", "paired-reduce"), enum("c", "All-Reduce")})
	want := []string{"c: scheme=All-Reduce is spelled allreduce in a"}
	if !slices.Equal(got, want) {
		t.Errorf("respellings = %q, want %q", got, want)
	}
}

// TestFormerNamesAreRefused: every former parameter name and enum value
// an experiment declares is refused on the command line with a message
// naming what to write instead.
func TestFormerNamesAreRefused(t *testing.T) {
	n := 0
	for _, e := range newRegistry().All() {
		for _, p := range e.Params {
			for _, old := range p.Old {
				n++
				_, stderr, code := runCLI(t, "run", e.Name, "--set", old+"="+p.Default)
				if code == 0 || !strings.Contains(stderr, "parameter "+old+" of "+e.Name+" was renamed "+p.Name) {
					t.Errorf("%s --set %s: exit %d, stderr %q", e.Name, old, code, stderr)
				}
			}
			for old, now := range p.OldValues {
				n++
				_, stderr, code := runCLI(t, "run", e.Name, "--set", p.Name+"="+old)
				if code == 0 || !strings.Contains(stderr, p.Name+"="+old+" was renamed "+p.Name+"="+now) {
					t.Errorf("%s --set %s=%s: exit %d, stderr %q", e.Name, p.Name, old, code, stderr)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no experiment declares a former name")
	}
}
