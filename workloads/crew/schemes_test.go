package crew

import (
	"slices"
	"testing"

	"syncsim/netsim"
)

// TestSchemeRegistry: every constant has its own registration, named as
// the parameters spell it; SchemeNames and TrainingSchemeNames derive from
// the registrations (the schemes with a training task); a name parses to
// its constant and back; an entry left without a name or a single partial
// reduce, or registered twice, is refused (at start-up, init); a scheme
// without a task is refused in training.
func TestSchemeRegistry(t *testing.T) {
	if !slices.Equal(SchemeNames, []string{"crew", "opr", "a2a", "ps", "ring", "blink", "toa"}) ||
		!slices.Equal(TrainingSchemeNames, []string{"crew", "opr", "a2a"}) {
		t.Errorf("SchemeNames = %v, TrainingSchemeNames = %v", SchemeNames, TrainingSchemeNames)
	}
	for s := range numSchemes {
		got, err := ParseScheme(s.String())
		if err != nil || got != s {
			t.Errorf("ParseScheme(%q) = %v, %v", s.String(), got, err)
		}
	}
	if _, err := ParseScheme("allreduce"); err == nil {
		t.Error("an unknown scheme parsed")
	}
	ok := schemes[PS]
	for _, bad := range [][]schemeSpec{
		{ok, {}},
		{ok, {name: "x"}},
		{ok, {single: ok.single}},
		{ok, {name: ok.name, single: ok.single}},
	} {
		if checkSchemes(bad) == nil {
			t.Errorf("checkSchemes accepted %+v", bad[1])
		}
	}
	if err := checkSchemes(schemes[:]); err != nil {
		t.Error(err)
	}
	nt := uniformNet(t, 4, 100e6, 0)
	opt := Options{Scheme: Ring, P: 2, Model: netsim.Megabyte, Chunks: 10}
	if _, err := NewCluster(nt, Config{Options: opt, ComputeScale: 1}); err == nil {
		t.Error("a scheme without a training task ran in training")
	}
}
