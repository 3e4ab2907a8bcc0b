package training

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// The CREW paper (Sec. V-A) drives its workers with two of the compute
// traces Eager-SGD (Li et al., PPoPP 2020) reported: T1, an LSTM trained
// on UCF101, and T2, a Transformer trained on WMT16, both "re-scaled ...
// to the [0.05, 0.2] s range". The raw traces are not public, so, as for
// the CNN and Transformer traces of traces.go, we build parametric
// approximations and rescale them linearly.
//
// LSTM on UCF101. What is known: UCF101 has 13,320 clips of 29 to 1,776
// frames (mean about 186 frames at 25 fps, i.e. 7.2 s); the LSTM samples
// every 10th frame and pads each batch to its longest clip, so an
// iteration's work follows the longest clip of the batch and the
// distribution is very wide. We model a clip's length as a lognormal of
// median 160 frames and sigma 0.55 (mean 186) truncated to [29, 1776],
// a batch as lstmBatch clips, and an iteration as 0.1 s plus 5 ms per
// padded step (ceil(longest/10) steps). The batch size (16) and the
// per-step cost are our assumptions; the rescaling removes the affine
// constants, so only the shape (the law of a batch maximum) matters.
const (
	lstmMedianFrames = 160.0
	lstmSigma        = 0.55
	lstmMinFrames    = 29.0
	lstmMaxFrames    = 1776.0
	lstmBatch        = 16
	lstmBase         = 0.1   // seconds per iteration
	lstmPerStep      = 0.005 // seconds per padded step
)

// LSTM returns the approximation of the LSTM (UCF101) training trace, in
// seconds (about 0.12-1.0 s).
func LSTM() Dist { return lstm{} }

type lstm struct{}

// clipCDF is the truncated lognormal CDF of a clip's length in frames.
func clipCDF(f float64) float64 {
	F := func(x float64) float64 {
		z := (math.Log(x) - math.Log(lstmMedianFrames)) / lstmSigma
		return 0.5 * math.Erfc(-z/math.Sqrt2)
	}
	switch {
	case f < lstmMinFrames:
		return 0
	case f >= lstmMaxFrames:
		return 1
	}
	lo, hi := F(lstmMinFrames), F(lstmMaxFrames)
	return (F(f) - lo) / (hi - lo)
}

func stepsTime(steps float64) float64 { return lstmBase + lstmPerStep*steps }

// Sample draws lstmBatch clip lengths and times the padded batch.
func (lstm) Sample(r *rand.Rand) float64 {
	longest := 0.0
	for i := 0; i < lstmBatch; i++ {
		f := 0.0
		for f < lstmMinFrames || f > lstmMaxFrames {
			f = lstmMedianFrames * math.Exp(lstmSigma*r.NormFloat64())
		}
		longest = max(longest, f)
	}
	return stepsTime(math.Ceil(longest / 10))
}

// CDF is P(ceil(longest/10) <= s) for the steps s that fit in x seconds:
// clipCDF(10 s)^batch.
func (lstm) CDF(x float64) float64 {
	s := math.Floor((x - lstmBase) / lstmPerStep * (1 + 1e-12))
	if s < 1 {
		return 0
	}
	return math.Pow(clipCDF(10*s), lstmBatch)
}

// Mean sums the step distribution.
func (l lstm) Mean() float64 {
	m, prev := 0.0, 0.0
	for s := math.Ceil(lstmMinFrames / 10); s <= math.Ceil(lstmMaxFrames/10); s++ {
		p := math.Pow(clipCDF(10*s), lstmBatch)
		m += (p - prev) * stepsTime(s)
		prev = p
	}
	return m
}

// Name labels the distribution.
func (lstm) Name() string { return "lstm" }

// Rescaled maps a distribution linearly onto [Lo, Hi]: the base's q-th and
// (1-q)-th quantiles go to Lo and Hi, and draws outside them are redrawn
// (so the result is the base truncated to its central 1 - 2q and
// stretched). The CREW paper rescales its measured sample values so that
// their minimum and maximum become 0.05 s and 0.2 s; a trace of about
// 1/q iterations spans about those quantiles.
type Rescaled struct {
	Base     Dist
	Lo, Hi   float64 // the target range, seconds
	From, To float64 // the base values mapped to Lo and Hi
	label    string
	mean     float64
	fFrom    float64 // Base.CDF(From)
	fTo      float64 // Base.CDF(To)
}

// RescaleQuantile is the q of the CREW rescaling: 0.1% and 99.9%.
const RescaleQuantile = 0.001

// NewRescaled maps d's q and 1-q quantiles (found by bisection on its CDF)
// onto [lo, hi].
func NewRescaled(label string, d Dist, q, lo, hi float64) (*Rescaled, error) {
	if !(q > 0 && q < 0.5) || !(lo > 0 && hi > lo) {
		return nil, fmt.Errorf("rescale %s: want 0 < q < 0.5 and 0 < lo < hi, got %g, %g, %g", label, q, lo, hi)
	}
	from, to := quantile(d, q), quantile(d, 1-q)
	if !(to > from) {
		return nil, fmt.Errorf("rescale %s: quantiles %g and %g do not span a range", label, from, to)
	}
	r := &Rescaled{Base: d, Lo: lo, Hi: hi, From: from, To: to, label: label, fFrom: d.CDF(from), fTo: d.CDF(to)}
	// E[T] = Lo + integral over [Lo, Hi] of 1 - CDF, trapezoids.
	const steps = 4000
	h := (hi - lo) / steps
	sum := 0.0
	for i := 0; i <= steps; i++ {
		v := 1 - r.CDF(lo+float64(i)*h)
		if i == 0 || i == steps {
			v /= 2
		}
		sum += v
	}
	r.mean = lo + sum*h
	return r, nil
}

// quantile inverts d's CDF by bisection.
func quantile(d Dist, q float64) float64 {
	lo, hi := 0.0, 1.0
	for d.CDF(hi) < q && hi < 1e9 {
		hi *= 2
	}
	for i := 0; i < 200; i++ {
		mid := (lo + hi) / 2
		if d.CDF(mid) < q {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// Sample draws from the base until the draw lies in [From, To] and maps
// it onto [Lo, Hi].
func (r *Rescaled) Sample(rng *rand.Rand) float64 {
	v := r.Base.Sample(rng)
	for tries := 0; (v < r.From || v > r.To) && tries < 10000; tries++ {
		v = r.Base.Sample(rng)
	}
	v = min(max(v, r.From), r.To)
	return r.Lo + (v-r.From)/(r.To-r.From)*(r.Hi-r.Lo)
}

// CDF is the truncated base CDF at the preimage of x.
func (r *Rescaled) CDF(x float64) float64 {
	switch {
	case x < r.Lo:
		return 0
	case x >= r.Hi:
		return 1
	}
	v := r.From + (x-r.Lo)/(r.Hi-r.Lo)*(r.To-r.From)
	return min(max((r.Base.CDF(v)-r.fFrom)/(r.fTo-r.fFrom), 0), 1)
}

// Mean is computed from the CDF when the distribution is built.
func (r *Rescaled) Mean() float64 { return r.mean }

// Name labels the distribution.
func (r *Rescaled) Name() string { return r.label }

// CrewT1 is the CREW paper's T1: the LSTM (UCF101) trace approximation
// rescaled to [0.05, 0.2] s.
func CrewT1() Dist { return mustRescale("t1", LSTM()) }

// CrewT2 is the CREW paper's T2: the Transformer (WMT16) trace
// approximation of traces.go rescaled to [0.05, 0.2] s.
func CrewT2() Dist { return mustRescale("t2", Transformer()) }

func mustRescale(label string, d Dist) Dist {
	r, err := NewRescaled(label, d, RescaleQuantile, 0.05, 0.2)
	if err != nil {
		panic("training: CREW trace constants are inconsistent: " + err.Error())
	}
	return r
}
