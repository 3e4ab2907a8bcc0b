package network

import (
	"testing"

	"syncsim/experiments"
)

// lookup returns the named experiment from a registry that holds only
// this family, as Register fills it.
func lookup(t testing.TB, name string) *experiments.Experiment {
	t.Helper()
	r := experiments.NewRegistry()
	Register(r)
	e, err := r.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
