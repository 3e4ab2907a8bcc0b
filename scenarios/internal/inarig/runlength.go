package inarig

import (
	"fmt"

	"syncsim/experiments"
)

// Choices of run_length.
const (
	// Steady: iterations long enough, and enough of them, that the
	// protocols' windows run in their steady state for most of the
	// measured time, with the first iterations left out of ajct_ms.
	Steady = "steady"
	// Quick: small gradients and few iterations, for quick looks; the
	// windows spend much of each iteration in their transient.
	Quick = "quick"
)

// AutoByRunLength is what -1 means for the parameters run_length sets.
const AutoByRunLength = "set by run_length"

// RunLength is what run_length resolves to: the gradient fraction of a
// named model, the iterations per job, the iterations at the start of a
// job left out of the iteration-time metrics, and the background warm-up
// before the jobs start.
type RunLength struct {
	GradientScale float64
	Iterations    int
	SkipIters     int
	WarmupMs      float64
}

// Presets are an experiment's run lengths by run_length.
type Presets struct {
	Steady, Quick RunLength
}

// Help describes the presets for run_length's help.
func (p Presets) Help() string {
	f := func(l RunLength) string {
		return fmt.Sprintf("gradient_scale=%g iterations=%d skip_iters=%d bg_warmup_ms=%g", l.GradientScale, l.Iterations, l.SkipIters, l.WarmupMs)
	}
	return "sets every parameter left at -1: steady (" + f(p.Steady) + "), quick (" + f(p.Quick) + ")"
}

// RunLengthParams are run_length and the parameters it sets besides
// gradient_scale and iterations (CommonParams) and bg_warmup_ms
// (BackgroundParams).
func RunLengthParams(p Presets, extra string) []experiments.Param {
	return []experiments.Param{
		experiments.EnumParam("run_length", Steady, []string{Steady, Quick}, "run length preset: "+p.Help()+extra),
		experiments.IntParam("skip_iters", -1, 0, 99999, "iterations at the start of every job left out of ajct_ms, jct_max_ms, ajct_done_ms and iter_rtts "+
			"(they still count in agg_tput_gbps); -1: set by run_length").Auto("-1", AutoByRunLength),
	}
}

// ResolveRunLength returns the run length of the point ps: run_length's
// preset with every parameter set explicitly (not -1) taking the value
// set. skip_iters left at -1 is the preset's, but at most iterations - 1,
// so a run of one iteration measures it. The warm-up is 0 without
// background (load 0).
func ResolveRunLength(ps experiments.Params, p Presets) (RunLength, error) {
	l := p.Quick
	if ps.String("run_length") == Steady {
		l = p.Steady
	}
	if ps.Has("gradient_scale") {
		if v := ps.Float("gradient_scale"); v >= 0 {
			l.GradientScale = v
		}
	}
	if v := ps.Int("iterations"); v >= 0 {
		l.Iterations = v
	}
	if v := ps.Int("skip_iters"); v >= 0 {
		l.SkipIters = v
		if v >= l.Iterations {
			return l, fmt.Errorf("skip_iters=%d leaves none of the %d iterations to measure", v, l.Iterations)
		}
	} else {
		l.SkipIters = min(l.SkipIters, l.Iterations-1)
	}
	if v := ps.Float("bg_warmup_ms"); v >= 0 {
		l.WarmupMs = v
	} else if ps.Float("load") == 0 {
		l.WarmupMs = 0
	}
	return l, nil
}

// Record tells r what the automatic parameters of ps resolved to.
func (l RunLength) Record(r *experiments.Run) {
	ps := r.Params
	if ps.Float("gradient_scale") < 0 && ps.String("model") != "custom" {
		r.Resolved("gradient_scale", l.GradientScale)
	}
	if ps.Int("iterations") < 0 {
		r.Resolved("iterations", float64(l.Iterations))
	}
	if ps.Int("skip_iters") < 0 {
		r.Resolved("skip_iters", float64(l.SkipIters))
	}
	if ps.Float("bg_warmup_ms") < 0 {
		r.Resolved("bg_warmup_ms", l.WarmupMs)
	}
}
