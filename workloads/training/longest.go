package training

import "math"

// Longest is the longest time d draws, when it has one: Constant's T,
// Uniform's Hi, an Empirical's largest sample (its prior's before it is
// warm), M times D's for Scaled, the longest part's for a Mixture of bounded
// parts. A distribution with an unbounded tail (a
// lognormal, an exponential tail, a mixture with one) has none: Longest
// returns its median and bounded = false. Checks of compute times against
// the simulated clock use it: a value a user gives (a constant, a file's
// sample, a multiplier) must fit, while a rare draw from a long tail is an
// event after any run's end (netsim.Later).
func Longest(d Dist) (t float64, bounded bool) {
	switch x := d.(type) {
	case Constant:
		return x.T, true
	case Uniform:
		return x.Hi, true
	case *Empirical:
		if x.Warm() || x.Prior == nil {
			if len(x.sorted) == 0 {
				return x.Mean(), true
			}
			return x.sorted[len(x.sorted)-1], true
		}
		return Longest(x.Prior)
	case Scaled:
		t, b := Longest(x.D)
		return x.M * t, b
	case named:
		return Longest(x.Dist)
	case *Mixture:
		longest := 0.0
		for _, p := range x.Parts {
			t, b := Longest(p)
			if !b {
				return Median(d), false
			}
			longest = max(longest, t)
		}
		return longest, true
	}
	return Median(d), false
}

// Median is the smallest x with CDF(x) >= 1/2, found by bisection to a
// relative 1e-12 (+Inf when the CDF never reaches 1/2 below the largest
// float).
func Median(d Dist) float64 {
	hi := 1.0
	for d.CDF(hi) < 0.5 {
		if hi > math.MaxFloat64/2 {
			return math.Inf(1)
		}
		hi *= 2
	}
	lo := 0.0
	for i := 0; i < 200 && hi-lo > 1e-12*hi; i++ {
		mid := lo + (hi-lo)/2
		if d.CDF(mid) >= 0.5 {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}
