package experiments

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"syncsim/netsim"
)

// toyExperiment is a tiny deterministic experiment for the runner tests:
// it runs a small netsim Sim whose event times are drawn from the run's
// seed, so every metric depends on the seed and on the parameters.
// It fails when n >= fail_n > 0 and panics when n == panic_n > 0, and it
// sleeps a seed-dependent fraction of a millisecond (wall-clock only) so
// that parallel runs finish out of grid order.
func toyExperiment() *Experiment {
	return &Experiment{
		Name:    "toy-runner",
		Summary: "test experiment",
		Params: []Param{
			IntParam("n", 4, 1, 64, "events per unit"),
			FloatParam("load", 0.5, 0, 1, "scales the gaps"),
			EnumParam("mode", "fast", []string{"fast", "slow", "undef"}, "gap scale; undef leaves a metric undefined"),
			IntParam("fail_n", 0, 0, 64, "fail when n >= fail_n > 0"),
			IntParam("panic_n", 0, 0, 64, "panic when n == panic_n > 0"),
		},
		Metrics: []Metric{
			{Name: "end_us", Unit: "us", Help: "time of the last event"},
			{Name: "mean_gap_us", Unit: "us", Help: "mean gap"},
			{Name: "maybe", Unit: "", Help: "NaN in undef mode"},
		},
		Run: toyRun,
	}
}

func toyRun(r *Run) (*Result, error) {
	n := r.Params.Int("n")
	if f := r.Params.Int("fail_n"); f > 0 && n >= f {
		return nil, errors.New("toy failure")
	}
	if p := r.Params.Int("panic_n"); p > 0 && n == p {
		panic("toy invariant broken")
	}
	scale := 1.0
	if r.Params.String("mode") == "slow" {
		scale = 3
	}
	sim := netsim.New(r.Seed)
	rng := sim.Rand("arrivals")
	var series [][]float64
	at := netsim.Time(0)
	events := 8 * n
	for i := 0; i < events; i++ {
		gap := netsim.FromMicros(rng.ExpFloat64() * scale * (1 + r.Params.Float("load")))
		at += gap
		i := i
		sim.At(at, func() {
			if r.Series {
				series = append(series, []float64{float64(i), sim.Now().Microseconds()})
			}
		})
	}
	sim.Run(netsim.Never)
	time.Sleep(time.Duration(netsim.Stream(r.Seed+uint64(n), "sleep").IntN(400)) * time.Microsecond)
	res := r.Exp.NewResult()
	res.Events = sim.Events()
	res.Metrics["end_us"] = sim.Now().Microseconds()
	res.Metrics["mean_gap_us"] = sim.Now().Microseconds() / float64(events)
	if r.Params.String("mode") != "undef" {
		res.Metrics["maybe"] = float64(n) + r.Params.Float("load")
	}
	if r.Series {
		res.Series = []Series{{Name: "events", Columns: []string{"index", "time_us"}, Rows: series}}
	}
	return res, nil
}

// sweepCSV expands sets/varies for e and runs the grid into a CSV.
func sweepCSV(t *testing.T, e *Experiment, sets, varies []string, trials, parallel int, seed uint64) (string, error) {
	t.Helper()
	g, err := Expand(e, sets, varies)
	if err != nil {
		t.Fatalf("Expand: %v", err)
	}
	var buf bytes.Buffer
	w := NewCSVWriter(&buf, e, false)
	if err := w.WriteHeader(); err != nil {
		t.Fatal(err)
	}
	r := &Runner{Exp: e, Points: g, Trials: trials, BaseSeed: seed, Parallel: parallel, Label: AxisNames(g.Axes())}
	err = r.Run(context.Background(), w.Write)
	return buf.String(), err
}

func TestToyIsDeterministicAndSeedDependent(t *testing.T) {
	e := toyExperiment()
	ps := e.Defaults()
	run := func(seed uint64) float64 {
		res, err := toyRun(&Run{Exp: e, Params: ps, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if math.IsNaN(res.Metrics["end_us"]) || res.Metrics["end_us"] <= 0 {
			t.Fatalf("end_us = %v", res.Metrics["end_us"])
		}
		return res.Metrics["end_us"]
	}
	if a, b := run(7), run(7); a != b {
		t.Errorf("same seed gave %v and %v", a, b)
	}
	if a, b := run(7), run(8); a == b {
		t.Errorf("seeds 7 and 8 both gave %v", a)
	}
}
