// Package exptest helps test experiments: it resolves parameters over an
// experiment's defaults and runs one checked run, failing the test on any
// error, as the scenario families' tests all need.
package exptest

import (
	"context"
	"math"
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

// SeriesRun runs one trial of e (seed, sets over its defaults) through
// the harness with series on, streaming them to a fresh series directory
// when stream is set, writes the outcome's series there (WriteSeries)
// and returns the outcome and the directory: the two runs a test of
// streamed series compares.
func SeriesRun(t testing.TB, e *experiments.Experiment, seed uint64, stream bool, sets ...string) (*experiments.Outcome, string) {
	t.Helper()
	pts, err := experiments.Expand(e, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := &experiments.Runner{Exp: e, Points: pts, Trials: 1, BaseSeed: seed, Parallel: 1, Series: true}
	if stream {
		r.SeriesDir = dir
	}
	var out *experiments.Outcome
	err = r.Run(context.Background(), func(o *experiments.Outcome) error {
		out = o
		_, err := experiments.WriteSeries(dir, e.Name, o)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, dir
}

// SameMetrics fails t for every metric of a that b does not equal (NaN
// equals NaN): the check of two runs that must agree to the bit, as a
// built fabric and the topology file that describes it. what names the
// pair in the messages ("built", "file").
func SameMetrics(t testing.TB, what [2]string, a, b map[string]float64) {
	t.Helper()
	for name, v := range a {
		if w, ok := b[name]; !ok || v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
			t.Errorf("%s: %s %v, %s %v", name, what[0], v, what[1], w)
		}
	}
}
