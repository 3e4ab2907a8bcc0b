package main

import (
	"context"
	"errors"
	"testing"

	"syncsim/experiments"
)

// goldenPoint is the first point of an experiment's golden sweep.
func goldenPoint(t *testing.T, e *experiments.Experiment) experiments.Params {
	t.Helper()
	var sets, varies []string
	args := goldenSweeps[e.Name]
	for i := 0; i+1 < len(args); i += 2 {
		switch args[i] {
		case "--set":
			sets = append(sets, args[i+1])
		case "--vary":
			varies = append(varies, args[i+1])
		}
	}
	g, err := experiments.Expand(e, sets, varies)
	if err != nil {
		t.Fatalf("%s: %v", e.Name, err)
	}
	return g.Point(0)
}

// TestEveryExperimentStopsWhenAsked: every registered experiment's run
// halts at the first tick after a stop request (its Sim comes from
// setup.NewSim, or is handed to Run.Tick otherwise), instead of running
// to its end. New experiments are checked as they are registered.
func TestEveryExperimentStopsWhenAsked(t *testing.T) {
	reg := newRegistry()
	for _, e := range reg.All() {
		t.Run(e.Name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			wrapped := *e
			wrapped.Run = func(r *experiments.Run) (*experiments.Result, error) {
				cancel() // the stop request arrives as the run starts
				return e.Run(r)
			}
			r := &experiments.Runner{Exp: &wrapped, Points: experiments.PointList{goldenPoint(t, e)}, Trials: 1, Parallel: 1}
			var out *experiments.Outcome
			err := r.Run(ctx, func(o *experiments.Outcome) error { out = o; return nil })
			var in *experiments.Interrupted
			switch {
			case errors.As(err, &in):
			case err == nil && out != nil && out.Result.Events < experiments.TickEvents:
				t.Logf("%s: the run ended after %d events, before its first tick", e.Name, out.Result.Events)
			default:
				t.Errorf("%s ran to its end after the stop request (err %v): create its Sim with setup.NewSim", e.Name, err)
			}
		})
	}
}
