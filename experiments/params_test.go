package experiments

import (
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
	ps, err := e.Resolve([]string{"senders=16", "load= 0.25", "transport=newreno", "ecn=false"})
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
