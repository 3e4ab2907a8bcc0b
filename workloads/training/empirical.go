package training

import (
	"fmt"
	"math/rand/v2"
	"sort"
)

// DefaultMinSamples is the number of observations an Empirical needs before
// it answers from its own data. Twenty is enough to place the bulk of a
// unimodal distribution (its 5th-95th percentiles) roughly, which is all
// PredictWorkers needs; it is reached after the first iteration of any
// cluster of n >= 20 workers.
const DefaultMinSamples = 20

// Empirical is a compute-time distribution learnt online from observed
// iteration times: the "cold start" of the selective-reduce paper
// (Sec. IV-B5), where the controller uses the distribution observed so far.
//
// Before MinSamples observations it answers from Prior when one is given;
// with no prior, CDF is 0 everywhere (no worker is predicted to finish, so
// BPAWR never waits for predicted arrivals and selective reduce degrades to
// bandwidth-aware grouping), Sample returns the mean of what was seen (or 0)
// and Mean is the sample mean (0 when nothing was seen).
type Empirical struct {
	MinSamples int
	Prior      Dist
	sorted     []float64
	sum        float64
}

// NewEmpirical returns an empty empirical distribution.
func NewEmpirical(minSamples int, prior Dist) *Empirical {
	if minSamples < 1 {
		minSamples = 1
	}
	return &Empirical{MinSamples: minSamples, Prior: prior}
}

// Observe adds one observed compute time. Insertion keeps the samples
// sorted (O(n) move, O(log n) search), so CDF is a binary search.
func (e *Empirical) Observe(x float64) {
	i := sort.SearchFloat64s(e.sorted, x)
	e.sorted = append(e.sorted, 0)
	copy(e.sorted[i+1:], e.sorted[i:])
	e.sorted[i] = x
	e.sum += x
}

// Len is the number of observations.
func (e *Empirical) Len() int { return len(e.sorted) }

// Warm reports whether enough samples have been seen to use them.
func (e *Empirical) Warm() bool { return len(e.sorted) >= e.MinSamples }

// CDF is the fraction of observations <= x once warm; before that the
// prior's CDF, or 0 with no prior.
func (e *Empirical) CDF(x float64) float64 {
	if !e.Warm() {
		if e.Prior != nil {
			return e.Prior.CDF(x)
		}
		return 0
	}
	// number of samples <= x
	i := sort.Search(len(e.sorted), func(k int) bool { return e.sorted[k] > x })
	return float64(i) / float64(len(e.sorted))
}

// Sample resamples one observation uniformly once warm (bootstrap); before
// that it samples the prior, or returns the running mean.
func (e *Empirical) Sample(r *rand.Rand) float64 {
	if !e.Warm() {
		if e.Prior != nil {
			return e.Prior.Sample(r)
		}
		return e.Mean()
	}
	return e.sorted[r.IntN(len(e.sorted))]
}

// Mean is the sample mean once warm, else the prior's mean or the mean of
// what was seen (0 if nothing).
func (e *Empirical) Mean() float64 {
	if !e.Warm() && e.Prior != nil {
		return e.Prior.Mean()
	}
	if len(e.sorted) == 0 {
		return 0
	}
	return e.sum / float64(len(e.sorted))
}

// Name labels the distribution.
func (e *Empirical) Name() string { return fmt.Sprintf("empirical(n=%d)", len(e.sorted)) }
