package experiments

import (
	"bytes"
	"strings"
	"testing"
)

func testExp() *Experiment {
	return &Experiment{
		Name: "param-test", Summary: "s",
		Params: []Param{
			IntParam("senders", 8, 1, 64, "h"),
			FloatParam("load", 0.5, 0, 1, "h"),
			EnumParam("transport", "dctcp", []string{"dctcp", "newreno"}, "h"),
			BoolParam("ecn", true, "h"),
		},
		Run: func(*Run) (*Result, error) { return nil, nil },
	}
}

func TestResolve(t *testing.T) {
	e := testExp()
	if err := e.validate(); err != nil {
		t.Fatal(err)
	}
	ps, err := e.Resolve([]string{"senders=16", "load=0.25", "transport=newreno", "ecn=false"})
	if err != nil {
		t.Fatal(err)
	}
	if ps.Int("senders") != 16 || ps.Float("load") != 0.25 || ps.String("transport") != "newreno" || ps.Bool("ecn") {
		t.Fatalf("got %v", ps.Values())
	}
	d := e.Defaults()
	if d.Int("senders") != 8 || d.Text("load") != "0.5" || !d.Bool("ecn") {
		t.Fatalf("defaults %v", d.Values())
	}
}

func TestResolveErrors(t *testing.T) {
	e := testExp()
	cases := []struct{ set, want string }{
		{"bogus=1", "no parameter"},
		{"senders", "malformed"},
		{"senders=abc", "not an integer"},
		{"senders=0", "out of range"},
		{"senders=65", "out of range"},
		{"load=1.5", "out of range"},
		{"load=NaN", "not a finite"},
		{"transport=udp", "dctcp|newreno"},
		{"ecn=maybe", "not a boolean"},
	}
	for _, c := range cases {
		t.Run(c.set, func(t *testing.T) {
			_, err := e.Resolve([]string{c.set})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want mention of %q", err, c.want)
			}
		})
	}
	if _, err := e.Resolve([]string{"senders=2", "senders=3"}); err == nil {
		t.Fatal("duplicate key accepted")
	}
}

func TestRegistryRejectsBadDeclarations(t *testing.T) {
	bad := []*Experiment{
		{Name: "Bad_Name", Summary: "s", Run: testExp().Run},
		{Name: "ok", Summary: "s", Run: testExp().Run, Params: []Param{IntParam("x", 5, 0, 3, "h")}},
		{Name: "ok", Summary: "s", Run: testExp().Run, Params: []Param{IntParam("seed", 1, 0, 3, "h")}},
	}
	for _, e := range bad {
		if e.validate() == nil {
			t.Errorf("%s: ill-formed declaration accepted", e.Name)
		}
	}
	r := NewRegistry()
	if _, err := r.Lookup("no-such-experiment"); err == nil || !strings.Contains(err.Error(), "none registered") {
		t.Fatalf("lookup in an empty registry: %v", err)
	}
	r.Register(testExp())
	if _, err := r.Lookup("param-test"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Lookup("no-such-experiment"); err == nil || !strings.Contains(err.Error(), "param-test") {
		t.Fatalf("unknown experiment: %v (want the known names listed)", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("a duplicate name was registered")
			}
		}()
		r.Register(testExp())
	}()
	if got := r.Names(); len(got) != 1 || got[0] != "param-test" || r.All()[0].Name != "param-test" {
		t.Fatalf("Names = %v", got)
	}
}

// TestNumbersArePlainDecimal: integers and reals accept the same plain
// decimal syntax; Go-only literal forms, a leading + and spaces around a
// name or value are refused for both, and -0 is 0.
func TestNumbersArePlainDecimal(t *testing.T) {
	e := testExp()
	for _, tc := range []struct{ set, want string }{
		{"load=1_000", "not a finite number"},
		{"load=0x1p-2", "not a finite number"},
		{"load=Inf", "not a finite number"},
		{"load=.5e", "not a finite number"},
		{"senders=0x10", "not an integer"},
		{"senders=1_6", "not an integer"},
		{"senders=99999999999999999999", "out of range"},
		{"senders=+8", "without a + sign (write senders=8)"},
		{"load=+5e-1", "without a + sign (write load=5e-1)"},
		{"senders= 8", "a space around the value (write senders=8)"},
		{"senders=8 ", "a space around the value"},
		{"senders =8", "a space around the name (write senders=8)"},
	} {
		if _, err := e.Resolve([]string{tc.set}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.set, err, tc.want)
		}
	}
	for _, tc := range []struct{ set, name, want string }{
		{"load=-0", "load", "0"}, {"load=.25", "load", "0.25"}, {"load=5e-1", "load", "0.5"},
		{"load=1.", "load", "1"}, {"senders=008", "senders", "8"}, {"load=1e+0", "load", "1"},
	} {
		ps, err := e.Resolve([]string{tc.set})
		if err != nil || ps.Text(tc.name) != tc.want {
			t.Errorf("%s: %v %v, want %s", tc.set, ps.Values(), err, tc.want)
		}
	}
	if _, err := Expand(e, nil, []string{"load=0,-0"}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("--vary load=0,-0: err = %v, want one value listed twice", err)
	}
	if _, err := ParseAxis(e, "load=0:1_0:1"); err == nil {
		t.Error("a range with a digit separator was accepted")
	}
	for _, spec := range []string{"load=0.1, 0.2", "load= 0.1:0.5:0.2", "load =0.1", "senders=+2,4"} {
		if _, err := ParseAxis(e, spec); err == nil {
			t.Errorf("--vary %s was accepted", spec)
		}
	}
}

func vocabExp() *Experiment {
	return &Experiment{
		Name: "vocab", Summary: "s",
		Params: []Param{
			FloatParam("switch_mem_mib", 10, 0.001, 1024, "aggregator memory, MiB").Was("switch_mem_mb"),
			EnumParam("bg_hosts", "all", []string{"all", "idle"}, "h").WasValue("free", "idle"),
			EnumParam("trace", "cnn", []string{"cnn", "file"}, "h"),
			TextParam("trace_file", "", "h").OnlyWhen("trace", "file"),
			FloatParam("load", 0, 0, 1, "h"),
			EnumParam("workload", "hadoop", []string{"hadoop", "web"}, "h").OnlyWhenPositive("load"),
			FloatParam("ecn_k_kb", -1, -1, 100, "h").Means("0", "no marking").Auto("-1", "DCTCP's guideline"),
			TextParam("topology_file", "", "h"),
			FloatParam("shared", 1, 0, 9, "h").OnlyWhen("trace", "file").OrWhenSet("topology_file"),
		},
		Run: func(*Run) (*Result, error) { return nil, nil },
	}
}

// TestRenamedNamesAreRefusedWithTheNewName: former parameter names and
// enum values are errors that name what to write instead.
func TestRenamedNamesAreRefusedWithTheNewName(t *testing.T) {
	e := vocabExp()
	if err := e.validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ set, want string }{
		{"switch_mem_mb=4", "parameter switch_mem_mb of vocab was renamed switch_mem_mib"},
		{"bg_hosts=free", "bg_hosts=free was renamed bg_hosts=idle"},
	} {
		if _, err := e.Resolve([]string{tc.set}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.set, err, tc.want)
		}
	}
	if _, err := ParseAxis(e, "switch_mem_mb=1,2"); err == nil || !strings.Contains(err.Error(), "renamed switch_mem_mib") {
		t.Errorf("--vary of a former name: %v", err)
	}
}

// TestIrrelevantParametersAreErrors: a parameter given where its
// condition holds at no point of the grid is refused; where it holds at
// some point (a sweep over trace) it is accepted.
func TestIrrelevantParametersAreErrors(t *testing.T) {
	e := vocabExp()
	for _, tc := range []struct {
		sets, varies []string
		want         string
	}{
		{[]string{"trace_file=x.txt"}, nil, "trace_file has no effect unless trace=file (here trace=cnn)"},
		{nil, []string{"trace_file=a,b"}, "trace_file has no effect unless trace=file"},
		{[]string{"workload=web"}, nil, "workload has no effect unless load>0 (here load=0)"},
		{[]string{"workload=web"}, []string{"load=0,0"}, "twice"},
		{[]string{"trace_file=x.txt", "trace=file"}, nil, ""},
		{[]string{"trace_file=x.txt"}, []string{"trace=cnn,file"}, ""},
		{[]string{"workload=web"}, []string{"load=0,0.5"}, ""},
		{[]string{"shared=2"}, nil, "shared has no effect unless trace=file or topology_file set (here trace=cnn, topology_file=)"},
		{[]string{"shared=2", "topology_file="}, nil, "shared has no effect unless trace=file or topology_file set"},
		{[]string{"shared=2", "topology_file=t.txt"}, nil, ""},
		{[]string{"shared=2"}, []string{"trace=cnn,file"}, ""},
		{[]string{"shared=2", "trace=file"}, nil, ""},
	} {
		g, err := Expand(e, tc.sets, tc.varies)
		if err == nil {
			var given []string
			for _, s := range append(append([]string(nil), tc.sets...), tc.varies...) {
				k, _, _ := strings.Cut(s, "=")
				given = append(given, k)
			}
			err = g.CheckRelevance(given)
		}
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%v %v: err = %v, want %q", tc.sets, tc.varies, err, tc.want)
		}
	}
}

// TestRegistryRejectsBadVocabularyDeclarations: special values, former
// names and conditions are checked when an experiment is registered.
func TestRegistryRejectsBadVocabularyDeclarations(t *testing.T) {
	for name, p := range map[string]Param{
		"special not canonical":   FloatParam("x", 1, 0, 2, "h").Means("1.0", "one"),
		"special of a text":       TextParam("x", "", "h").Means("", "nothing"),
		"old name in use":         FloatParam("x", 1, 0, 2, "h").Was("load"),
		"old value still choice":  EnumParam("x", "a", []string{"a", "b"}, "h").WasValue("b", "a"),
		"condition on unknown":    FloatParam("x", 1, 0, 2, "h").OnlyWhen("nope", "1"),
		"condition value invalid": FloatParam("x", 1, 0, 2, "h").OnlyWhen("transport", "udp"),
		"condition on itself":     FloatParam("x", 1, 0, 2, "h").OnlyWhenPositive("x"),
		"set of a number":         FloatParam("x", 1, 0, 2, "h").OnlyWhenPositive("load").OrWhenSet("load"),
		"or on unknown":           FloatParam("x", 1, 0, 2, "h").OnlyWhenPositive("load").OrWhenSet("nope"),
	} {
		e := testExp()
		e.Params = append(e.Params, p)
		if e.validate() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestGridPointAndFind(t *testing.T) {
	e := vocabExp()
	g, err := Expand(e, []string{"load=0.5"}, []string{"bg_hosts=idle,all", "ecn_k_kb=-1,0,30"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() != 6 {
		t.Fatalf("Len = %d", g.Len())
	}
	for i := 0; i < g.Len(); i++ {
		ps := g.Point(i)
		if want := []string{"idle", "all"}[i/3]; ps.Text("bg_hosts") != want {
			t.Errorf("point %d bg_hosts=%s, want %s", i, ps.Text("bg_hosts"), want)
		}
		if j, ok := g.Find(ps.Values()); !ok || j != i {
			t.Errorf("Find(point %d) = %d %v", i, j, ok)
		}
	}
	// A CSV shows an automatic value as what it resolved to: row values
	// 30 find the exact point, 12.5 the automatic one.
	v := g.Point(3).Values()
	v[6] = "12.5"
	if j, ok := g.Find(v); !ok || j != 3 {
		t.Errorf("resolved automatic value: Find = %d %v, want 3", j, ok)
	}
	v[4] = "0.25"
	if _, ok := g.Find(v); ok {
		t.Error("a point with another load was found")
	}
	if m := g.Mismatch(v); !strings.Contains(m, "load=0.25 where this sweep has load=0.5") {
		t.Errorf("Mismatch = %q", m)
	}
}

// TestSpecialValuesOutsideTheRange: a declared special value is accepted
// even outside [Min, Max], and nothing else there is.
func TestSpecialValuesOutsideTheRange(t *testing.T) {
	p := FloatParam("compute_ms", -1, 0.001, 10, "h").Auto("-1", "the model's estimate")
	e := testExp()
	e.Params = append(e.Params, p)
	if err := e.validate(); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{"-1": "-1", "-1.0": "-1", "0.5": "0.5"} {
		if v, err := e.ParseValue("compute_ms", in); err != nil || v != want {
			t.Errorf("%s: %q %v", in, v, err)
		}
	}
	for _, in := range []string{"0", "-0.5", "-2", "11"} {
		if _, err := e.ParseValue("compute_ms", in); err == nil || !strings.Contains(err.Error(), "number in [0.001, 10] or -1") {
			t.Errorf("%s: err = %v", in, err)
		}
	}
}

// TestAlias: an alias is accepted as its choice, listed in Allowed, and a
// declaration whose alias names no choice (or shadows one) is refused.
func TestAlias(t *testing.T) {
	e := testExp()
	e.Params[2] = e.Params[2].Alias("reno", "newreno")
	if err := e.validate(); err != nil {
		t.Fatal(err)
	}
	ps, err := e.Resolve([]string{"transport=reno"})
	if err != nil || ps.String("transport") != "newreno" {
		t.Fatalf("transport=reno: %v %v", ps.Values(), err)
	}
	if got := e.Params[2].Allowed(); got != "one of dctcp|newreno (or reno for newreno)" {
		t.Errorf("Allowed = %q", got)
	}
	for _, bad := range []Param{e.Params[2].Alias("cubic", "bbr"), e.Params[2].Alias("dctcp", "newreno")} {
		x := testExp()
		x.Params[2] = bad
		if err := x.validate(); err == nil {
			t.Errorf("aliases %v accepted", bad.Aliases)
		}
	}
}

// TestAutoFrom: an automatic value with a resolver shows, in every
// outcome, what the resolver works out from the point (here "pacing"
// follows the transport), the run's own report wins over it, and a value
// set explicitly is shown as set.
func TestAutoFrom(t *testing.T) {
	e := testExp()
	e.Params = append(e.Params, EnumParam("pacing", "auto", []string{"auto", "on", "off"}, "h").
		AutoFrom("auto", "on for newreno", func(ps Params) string {
			if ps.String("transport") == "newreno" {
				return "on"
			}
			return "off"
		}))
	if err := e.validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sets     []string
		resolved map[string]string
		want     string
	}{
		{nil, nil, "off"},
		{[]string{"transport=newreno"}, nil, "on"},
		{[]string{"transport=newreno", "pacing=off"}, nil, "off"},
		{nil, map[string]string{"pacing": "on"}, "on"},
	} {
		ps, err := e.Resolve(c.sets)
		if err != nil {
			t.Fatal(err)
		}
		o := &Outcome{Params: ps, Resolved: c.resolved}
		if got := o.Value("pacing"); got != c.want {
			t.Errorf("%v (run reported %v): pacing shows %q, want %q", c.sets, c.resolved, got, c.want)
		}
		var buf bytes.Buffer
		w := NewCSVWriter(&buf, e, false)
		o.Result = e.NewResult()
		if err := w.Write(o); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), ","+c.want+",") {
			t.Errorf("%v: CSV row %q lacks pacing=%s", c.sets, buf.String(), c.want)
		}
	}
}
