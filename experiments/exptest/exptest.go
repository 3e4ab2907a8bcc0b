// Package exptest helps test experiments: it resolves parameters over an
// experiment's defaults and runs one checked run, failing the test on any
// error, as the scenario families' tests all need.
package exptest

import (
	"testing"

	"syncsim/experiments"
)

// Run resolves sets (key=value) over e's defaults, runs one trial with
// seed and the books checked (Run.Check), and fails t unless the run
// succeeds and reports every metric e declares.
func Run(t testing.TB, e *experiments.Experiment, seed uint64, sets ...string) *experiments.Result {
	t.Helper()
	res, err := Try(e, seed, sets...)
	if err != nil {
		t.Fatalf("%s %v: %v", e.Name, sets, err)
	}
	for _, m := range e.Metrics {
		if _, ok := res.Metrics[m.Name]; !ok {
			t.Fatalf("%s: metric %s missing", e.Name, m.Name)
		}
	}
	return res
}

// Try is Run without a test: it returns the run's error, for tests that
// expect one.
func Try(e *experiments.Experiment, seed uint64, sets ...string) (*experiments.Result, error) {
	ps, err := e.Resolve(sets)
	if err != nil {
		return nil, err
	}
	return e.Run(&experiments.Run{Exp: e, Params: ps, Seed: seed, Check: true})
}
