package dssync

import (
	"slices"
	"testing"
)

// TestSchemeRegistry: Schemes are the registered names in order, each
// found by lookupScheme with a Syncer; an entry left without a name or a
// Syncer, or registered twice, is refused (at start-up, init), and an
// unknown name is an error, never another scheme's behaviour.
func TestSchemeRegistry(t *testing.T) {
	if !slices.Equal(Schemes, []string{"dssync", "allreduce", "tree-allreduce", "hier-allreduce", "asp", "gossip"}) {
		t.Errorf("Schemes = %v", Schemes)
	}
	for _, name := range Schemes {
		if sc, err := lookupScheme(name); err != nil || sc.name != name || sc.syncer == nil {
			t.Errorf("lookupScheme(%q) = %+v, %v", name, sc, err)
		}
	}
	if _, err := lookupScheme("ring"); err == nil {
		t.Error("an unknown scheme was found")
	}
	ok := schemes[1]
	for _, bad := range [][]scheme{
		{ok, {}},                                 // an empty entry
		{ok, {name: "x"}},                        // no Syncer
		{ok, {syncer: ok.syncer}},                // no name
		{ok, {name: ok.name, syncer: ok.syncer}}, // registered twice
	} {
		if checkSchemes(bad) == nil {
			t.Errorf("checkSchemes accepted %d entries with a bad one", len(bad))
		}
	}
	if err := checkSchemes(schemes); err != nil {
		t.Error(err)
	}
}
