package inarig

import (
	"strings"
	"testing"

	"syncsim/experiments"
	"syncsim/netsim"
)

var testPresets = Presets{
	Steady: RunLength{GradientScale: 0.005, Iterations: 3, SkipIters: 1, WarmupMs: 12},
	Quick:  RunLength{GradientScale: 0.002, Iterations: 1, SkipIters: 0, WarmupMs: 12},
}

func testExp() *experiments.Experiment {
	ps := append(CommonParams("pa-atp", "resnet50", ModelChoices(), 10, testPresets, ""), BackgroundParams(0.5, "test")...)
	return &experiments.Experiment{Name: "t", Summary: "t", Params: ps, Run: func(*experiments.Run) (*experiments.Result, error) { return nil, nil }}
}

// TestResolveRunLength checks the presets and that an explicit setting
// wins over them.
func TestResolveRunLength(t *testing.T) {
	cases := []struct {
		sets []string
		want RunLength
		err  string
	}{
		{nil, testPresets.Steady, ""},
		{[]string{"run_length=quick"}, testPresets.Quick, ""},
		{[]string{"gradient_scale=0.1", "bg_warmup_ms=3"}, RunLength{0.1, 3, 1, 3}, ""},
		// skip_iters left automatic keeps one iteration to measure.
		{[]string{"iterations=1"}, RunLength{0.005, 1, 0, 12}, ""},
		{[]string{"iterations=5", "skip_iters=4"}, RunLength{0.005, 5, 4, 12}, ""},
		{[]string{"iterations=3", "skip_iters=3"}, RunLength{}, "skip_iters=3"},
		// No background, no warm-up unless asked for.
		{[]string{"load=0"}, RunLength{0.005, 3, 1, 0}, ""},
		{[]string{"load=0", "bg_warmup_ms=2"}, RunLength{0.005, 3, 1, 2}, ""},
	}
	e := testExp()
	for _, c := range cases {
		ps, err := e.Resolve(c.sets)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ResolveRunLength(ps, testPresets)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: err = %v, want one naming %s", c.sets, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%v: %+v, %v; want %+v", c.sets, got, err, c.want)
		}
	}
}

// TestMeanIteration checks the skipped mean on a hand-worked sequence.
func TestMeanIteration(t *testing.T) {
	ms := func(v ...int64) []netsim.Time {
		out := make([]netsim.Time, len(v))
		for i, x := range v {
			out[i] = netsim.Time(x) * netsim.Millisecond
		}
		return out
	}
	cases := []struct {
		ts   []netsim.Time
		skip int
		want netsim.Time
	}{
		{ms(10, 4, 6), 0, ms(20)[0] / 3},
		{ms(10, 4, 6), 1, ms(5)[0]},
		{ms(10, 4, 6), 2, ms(6)[0]},
		{ms(10, 4, 6), 5, ms(6)[0]}, // never past the last iteration
		{nil, 1, 0},
	}
	for _, c := range cases {
		if got := MeanIteration(c.ts, c.skip); got != c.want {
			t.Errorf("MeanIteration(%v, %d) = %v, want %v", c.ts, c.skip, got, c.want)
		}
	}
}
