package experiments

import (
	"context"
	"io"
	"strconv"
	"testing"
)

// BenchmarkRunnerOverhead measures the cost the runner adds per job
// (issue, reorder, emit) with a run that does nothing.
func BenchmarkRunnerOverhead(b *testing.B) {
	for _, p := range []int{1, 2} {
		b.Run("parallel="+strconv.Itoa(p), func(b *testing.B) {
			e := toyExperiment()
			e.Run = func(r *Run) (*Result, error) { return r.Exp.NewResult(), nil }
			b.ReportAllocs()
			r := &Runner{Exp: e, Points: PointList{e.Defaults()}, Trials: b.N, Parallel: p}
			if err := r.Run(context.Background(), func(*Outcome) error { return nil }); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkCSVWrite measures formatting and flushing one row.
func BenchmarkCSVWrite(b *testing.B) {
	e := toyExperiment()
	res := e.NewResult()
	res.Metrics["end_us"] = 123.456789
	res.Metrics["mean_gap_us"] = 0.1
	o := &Outcome{Params: e.Defaults(), Seed: 1, Result: res}
	w := NewCSVWriter(io.Discard, e, true)
	b.ReportAllocs()
	for b.Loop() {
		if err := w.Write(o); err != nil {
			b.Fatal(err)
		}
	}
}
