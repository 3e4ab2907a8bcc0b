package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"syncsim/experiments"
	"syncsim/netsim"
)

// The CLI tests drive a toy experiment registered only in tests: a tiny
// netsim simulation whose event times come from the run's seed, so every
// metric depends on the seed and the parameters. It fails for n >= fail_n
// (when fail_n > 0), panics for n == panic_n (when panic_n > 0) and
// fails its --check for n == 13 (else records one book). mode=spin runs
// n x 100000 further events of a microsecond each (long enough to watch),
// mode=stall the same but its progress stops after 100 events.
func toyExperiment() *experiments.Experiment {
	return &experiments.Experiment{
		Name:    "toy-cli",
		Summary: "a tiny deterministic test experiment",
		Doc:     "Schedules 8n events with exponential gaps scaled by (1+load) and reports when the last fires.",
		Params: []experiments.Param{
			experiments.IntParam("n", 4, 1, 64, "events per unit"),
			experiments.FloatParam("load", 0.5, 0, 1, "scales the gaps"),
			experiments.EnumParam("mode", "fast", []string{"fast", "slow", "undef", "spin", "stall"}, "gap scale; undef leaves a metric undefined"),
			experiments.IntParam("fail_n", 0, 0, 64, "fail when n >= fail_n > 0"),
			experiments.IntParam("panic_n", 0, 0, 64, "panic when n == panic_n > 0"),
		},
		Metrics: []experiments.Metric{
			{Name: "end_us", Unit: "us", Help: "time of the last event"},
			{Name: "maybe", Unit: "", Help: "NaN in undef mode"},
		},
		Run: toyRun,
	}
}

func toyRun(r *experiments.Run) (*experiments.Result, error) {
	n := r.Params.Int("n")
	if f := r.Params.Int("fail_n"); f > 0 && n >= f {
		return nil, errors.New("toy failure")
	}
	if p := r.Params.Int("panic_n"); p > 0 && n == p {
		panic("toy invariant broken")
	}
	if r.Check && n == 13 {
		return nil, errors.New("toy books do not balance")
	}
	scale := 1 + r.Params.Float("load")
	if r.Params.String("mode") == "slow" {
		scale *= 3
	}
	sim := netsim.New(r.Seed)
	sim.SetMonitor(experiments.TickEvents, func(now netsim.Time, ev uint64) bool { return r.Tick(now.Seconds(), ev) })
	rng := sim.Rand("arrivals")
	var rows [][]float64
	at := netsim.Time(0)
	for i := 0; i < 8*n; i++ {
		at += netsim.FromMicros(rng.ExpFloat64() * scale)
		sim.At(at, func() {
			if r.Series {
				rows = append(rows, []float64{float64(i), sim.Now().Microseconds()})
			}
		})
	}
	if m := r.Params.String("mode"); m == "spin" || m == "stall" {
		var progress float64
		left := 100000 * n
		var spin func()
		spin = func() {
			if left--; left > 0 {
				if m == "spin" || progress < 100 {
					progress++
				}
				sim.AfterFunc(netsim.Microsecond, spin)
			}
		}
		sim.At(at, spin)
		r.Watch(experiments.Watch{What: "toy spins", Count: func() float64 { return progress }, Goal: float64(100000 * n)})
	}
	sim.Run(netsim.Never)
	if r.Check {
		r.Book(experiments.Book{Name: "toy events", Rule: "fired = scheduled", Terms: []experiments.Term{
			{Name: "fired", Value: float64(sim.Events())}, {Name: "scheduled", Value: float64(sim.Events())}}})
	}
	res := r.Exp.NewResult()
	res.Events = sim.Events()
	res.Metrics["end_us"] = sim.Now().Microseconds()
	if r.Params.String("mode") != "undef" {
		res.Metrics["maybe"] = float64(n) + r.Params.Float("load")
	}
	if r.Series {
		res.Series = []experiments.Series{{Name: "events", Columns: []string{"index", "time_us"}, Rows: rows}}
	}
	return res, nil
}

// runCLI runs the application in-process and returns stdout, stderr and the
// exit code; a panic escaping the app fails the test.
// testRegistry is the program's registry plus the toy experiment.
func testRegistry() *experiments.Registry {
	r := newRegistry()
	r.Register(toyExperiment())
	return r
}

// runCLI runs the program in-process over testRegistry.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	defer func() {
		if v := recover(); v != nil {
			t.Fatalf("syncsim %s panicked: %v", strings.Join(args, " "), v)
		}
	}()
	code = run(context.Background(), testRegistry(), append([]string{"syncsim"}, args...), &out, &errb)
	return out.String(), errb.String(), code
}
