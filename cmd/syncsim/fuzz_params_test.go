package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"syncsim/experiments"
)

// fuzzExperiments are the experiments FuzzParamPoints drives, with the
// integer parameters that size a run (workers, iterations, chunks) held
// at or below a cap so that one point costs milliseconds and little
// memory; integers not listed are capped at 16. Every float parameter
// ranges over its whole declared range and every enum over its choices:
// the times, sizes and rates whose extremes the simulation must either
// represent or refuse.
var fuzzExperiments = []struct {
	name string
	caps map[string]int
}{
	{"sr-cluster", map[string]int{"n": 12, "racks": 4, "spines": 2, "bg_hosts_per_rack": 2, "stragglers": 12}},
	{"sr-example", nil},
	{"dssync", map[string]int{"workers": 8, "racks": 4, "iterations": 6, "warmup_iters": 5, "adjust_every": 3, "delayed_worker": 8,
		"layers": 8, "tree_chunks": 4, "bg_flows": 2, "stragglers": 8}},
	{"crew-single", map[string]int{"n": 8, "p": 8, "chunks": 8, "tree_segments": 4, "anneal_steps": 50}},
	{"crew-training", map[string]int{"n": 6, "p": 6, "chunks": 4, "faulty_links": 15, "stragglers": 6}},
	{"ina-model", map[string]int{"jobs": 4, "workers": 4, "aggregators": 64, "nic_ecn_k_pkts": 64}},
}

// fuzzPointBudget is the wall-clock time one point may run before it is
// halted (a halted run is not a failure: the target looks for panics and
// messages, not results).
const fuzzPointBudget = 300 * time.Millisecond

// fuzzHang is how long a point may take, validation and set-up
// included, before the target reports it as a hang: the harness halts a
// run at its first tick after the budget, so only work between ticks
// (set-up, a solver) can keep it longer.
const fuzzHang = 10 * time.Second

// FuzzParamPoints: any point of the cheap experiments with values inside
// their declared ranges, however extreme, is refused with a one-line
// message or runs without a panic (the runner recovers panics; here one
// is a failure). which picks the experiment; each byte of picks drives
// one parameter in declaration order (default, minimum, maximum, a value
// in between, or an enum's choice); sets (key=value, space-separated) are
// applied last, for seeds that name a point outright. Learning and file
// parameters stay at their defaults (the file formats have their own
// targets).
func FuzzParamPoints(f *testing.F) {
	index := map[string]uint8{}
	for i, x := range fuzzExperiments {
		index[x.name] = uint8(i)
	}
	for _, s := range []struct{ exp, sets string }{
		// The inputs that panicked.
		{"sr-cluster", "trace=constant compute_ms=1e7 stragglers=1 straggler_slowdown=10000"},
		{"sr-cluster", "trace=lognormal compute_ms=1e7 compute_spread=5"},
		{"crew-single", "model_mb=1e6 model_scale=1000 bw_scale=0.001"},
		// Extremes of one kind at a time.
		{"sr-cluster", "model_mb=1e7 lambda=0.001 alpha_ms=1e5 dt_ms=1e7"},
		{"sr-cluster", "trace=lognormal compute_spread=5 duration_s=0.001"},
		{"sr-cluster", "fidelity=flow topology=racks oversub=1000 model_mb=1e7"},
		{"sr-cluster", "bw_model=walk bw_period_s=0.001 bw_walk_step=1"},
		{"dssync", "compute_ms=1e7 iterations=6 warmup_iters=5"},
		{"dssync", "link_gbps=0.001 model=custom model_mb=1e7 compute_ms=0.001 iterations=2 warmup_iters=1"},
		{"dssync", "delay_us=1e6 alpha_us=1e6 iterations=2 warmup_iters=1"},
		{"crew-single", "latency=const latency_ms=1e5 control_ms=1e5 reduce_gbps=1e6"},
		{"crew-training", "compute_scale=10000 stragglers=1 straggler_slowdown=10000 n=6 p=3 chunks=4"},
		{"crew-training", "duration_s=1e6 detect_ms=1e7 faulty_links=3 outage_s=1e6 n=6 p=3 chunks=4"},
		{"sr-example", "horizon_s=1000"},
		{"ina-model", "link_gbps=0.1 straggler_gbps=1000 gradient_mb=1000 delay_us=1000"},
	} {
		f.Add(index[s.exp], []byte{}, s.sets)
	}
	f.Add(uint8(0), []byte{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, "")
	f.Add(uint8(2), []byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, "")
	f.Add(uint8(4), []byte{3, 200, 3, 17, 2, 2, 4, 9, 3, 255, 1}, "")
	reg := newRegistry()
	f.Fuzz(func(t *testing.T, which uint8, picks []byte, sets string) {
		x := fuzzExperiments[int(which)%len(fuzzExperiments)]
		e, err := reg.Lookup(x.name)
		if err != nil {
			t.Fatal(err)
		}
		settings := fuzzSettings(e, x.caps, picks)
		settings = append(settings, strings.Fields(sets)...)
		// A later setting of a name replaces an earlier one.
		last := map[string]string{}
		var order []string
		for _, s := range settings {
			k, v, ok := strings.Cut(s, "=")
			if !ok {
				return // not a setting: the command line refuses it
			}
			if _, seen := last[k]; !seen {
				order = append(order, k)
			}
			last[k] = v
		}
		settings = settings[:0]
		for _, k := range order {
			settings = append(settings, k+"="+last[k])
		}
		done := make(chan error, 1)
		go func() {
			grid, err := experiments.Expand(e, settings, nil)
			if err == nil {
				err = grid.Validate()
			}
			if err == nil {
				err = fuzzRun(e, grid)
			}
			done <- err
		}()
		select {
		case err = <-done:
		case <-time.After(fuzzHang):
			t.Fatalf("%s %v: no answer within %v (halted runs stop within %v)", x.name, settings, fuzzHang, fuzzPointBudget)
		}
		var re *experiments.RunError
		if errors.As(err, &re) && re.Panics {
			t.Fatalf("%s %v panicked: %v\n%s", x.name, settings, re.Err, re.Stack)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\n\r") {
			t.Fatalf("%s %v: message of more than one line: %q", x.name, settings, err)
		}
	})
}

// fuzzSettings turns picks into settings of e's parameters.
func fuzzSettings(e *experiments.Experiment, caps map[string]int, picks []byte) []string {
	next := func() byte {
		if len(picks) == 0 {
			return 0
		}
		b := picks[0]
		picks = picks[1:]
		return b
	}
	var out []string
	for _, p := range e.Params {
		if p.Name == "learn_model" || (p.Only != nil && (p.Only.Param == "learn_model" || p.Only.Param == "dataset")) {
			continue
		}
		var v string
		switch p.Kind {
		case experiments.Float:
			u := float64(next()) / 255
			switch next() % 5 {
			case 1:
				v = fmtFloat(p.Min)
			case 2:
				v = fmtFloat(p.Max)
			case 3: // towards the small end, over the decades of the range
				v = fmtFloat(p.Min + (p.Max-p.Min)*math.Pow(u, 8))
			case 4:
				v = fmtFloat(p.Min + (p.Max-p.Min)*u)
			}
		case experiments.Int:
			hi := min(p.Max, 16)
			if c, ok := caps[p.Name]; ok {
				hi = min(p.Max, float64(c))
			}
			if hi < p.Min {
				continue
			}
			u := float64(next()) / 255
			switch next() % 4 {
			case 1:
				v = strconv.Itoa(int(p.Min))
			case 2:
				v = strconv.Itoa(int(hi))
			case 3:
				v = strconv.Itoa(int(p.Min + math.Round((hi-p.Min)*u)))
			}
		case experiments.Enum:
			if b := next(); b%2 == 1 {
				v = p.Choices[int(b/2)%len(p.Choices)]
			}
		}
		if v != "" {
			out = append(out, p.Name+"="+v)
		}
	}
	return out
}

// fmtFloat writes v so that it parses back to v.
func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// fuzzRun runs the grid's one point for at most fuzzPointBudget.
func fuzzRun(e *experiments.Experiment, grid *experiments.Grid) error {
	ctx, cancel := context.WithTimeout(context.Background(), fuzzPointBudget)
	defer cancel()
	r := &experiments.Runner{Exp: e, Points: grid, Trials: 1, BaseSeed: 1, Parallel: 1}
	err := r.Run(ctx, func(*experiments.Outcome) error { return nil })
	var in *experiments.Interrupted
	if errors.As(err, &in) {
		return nil // out of time: not a failure
	}
	if err != nil {
		return fmt.Errorf("%w", err)
	}
	return nil
}
