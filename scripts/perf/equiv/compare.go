package main

import (
	"errors"
	"fmt"
	"math"
	"slices"

	mstats "github.com/aclements/go-moremath/stats"
	"github.com/montanaflynn/stats"
)

// The rule. One metric of one panel point has a value per seed from each
// build, old o_s and new n_s, paired by seed. Seeds where both builds
// report NaN (the metric is undefined there) are left out; a seed where
// only one does is a failure: the metric's definedness moved. Then:
//
//   - ignored: metrics the caller names (--ignore; by default events,
//     which an engine change may legitimately move) are reported, never
//     judged.
//   - constant: when the old build gives the same value on every seed,
//     the metric has no seed-to-seed spread to hide a change in (an
//     analytic prediction, a count every seed completes), and every
//     seed's new value must equal the old one within the stated
//     tolerance: |n_s - o_s| <= ConstTol * max(1, |o_s|).
//   - varying: otherwise the metric fails when both
//     (a) the paired shift, the median over seeds of n_s - o_s, exceeds
//     the old build's seed-to-seed spread, its interquartile range
//     (Tukey's hinges, montanaflynn/stats.InterQuartileRange; the range
//     of the middle half of the seeds), and
//     (b) the two samples differ by a two-sided Mann-Whitney U test
//     (exact distribution with ties, aclements/go-moremath) at p < Alpha.
//     (a) alone fails too often on noise; (b) alone catches shifts too
//     small to matter for a metric this noisy. Together: a shift larger
//     than the middle half of the seeds, which the ranks say is not
//     chance.

// Rule holds the thresholds of the rule.
type Rule struct {
	Alpha    float64         // p-value below which the U test calls the samples different
	ConstTol float64         // relative tolerance of a constant metric
	Ignore   map[string]bool // metrics reported but never judged
}

// Verdicts.
const (
	verdictPass = "pass"
	verdictFail = "FAIL"
	verdictInfo = "info"
)

// Kinds of metric.
const (
	kindVarying   = "varying"
	kindConstant  = "constant"
	kindUndefined = "undefined" // NaN on every seed in both builds
	kindIgnored   = "ignored"
)

// Verdict is the comparison of one metric of one point.
type Verdict struct {
	Point, Experiment, Metric string
	Seeds                     int // seeds compared (both defined)
	Kind                      string
	OldMedian, OldMin, OldMax float64
	OldIQR                    float64
	NewMedian, NewMin, NewMax float64
	// Shift is the median over seeds of new - old; RelShift is the
	// median over seeds of (new - old) / |old| over the seeds where old
	// is not zero (NaN when it is zero on every seed).
	Shift, RelShift float64
	// P is the two-sided Mann-Whitney U test's p-value (1 when every
	// value of both samples is equal; NaN for fewer than 2 seeds).
	P       float64
	Verdict string
	Reason  string
}

// Compare applies the rule to the values of one metric, old[i] and
// new[i] being seed i's in each build.
func (r Rule) Compare(point, exp, metric string, old, new []float64) Verdict {
	v := Verdict{Point: point, Experiment: exp, Metric: metric, Verdict: verdictPass}
	nan := math.NaN()
	v.OldMedian, v.OldMin, v.OldMax, v.OldIQR = nan, nan, nan, nan
	v.NewMedian, v.NewMin, v.NewMax = nan, nan, nan
	v.Shift, v.RelShift, v.P = nan, nan, nan
	var o, n []float64
	moved := 0
	for i := range old {
		a, b := old[i], new[i]
		switch {
		case math.IsNaN(a) && math.IsNaN(b):
		case math.IsNaN(a) || math.IsNaN(b):
			moved++
		default:
			o, n = append(o, a), append(n, b)
		}
	}
	v.Seeds = len(o)
	if len(o) > 0 {
		v.OldMedian, _ = stats.Median(o)
		v.OldMin, _ = stats.Min(o)
		v.OldMax, _ = stats.Max(o)
		v.NewMedian, _ = stats.Median(n)
		v.NewMin, _ = stats.Min(n)
		v.NewMax, _ = stats.Max(n)
		d := make([]float64, len(o))
		var rel []float64
		for i := range o {
			d[i] = n[i] - o[i]
			if o[i] != 0 {
				rel = append(rel, d[i]/math.Abs(o[i]))
			}
		}
		v.Shift, _ = stats.Median(d)
		if len(rel) > 0 {
			v.RelShift, _ = stats.Median(rel)
		}
	}
	if len(o) >= 2 {
		v.OldIQR, _ = stats.InterQuartileRange(o)
		v.P = uTest(o, n)
	}
	switch {
	case r.Ignore[metric]:
		v.Kind, v.Verdict, v.Reason = kindIgnored, verdictInfo, "not judged (--ignore)"
		return v
	case moved > 0:
		v.Kind = kindVarying
		v.Verdict = verdictFail
		v.Reason = fmt.Sprintf("defined in one build only on %d of %d seeds", moved, len(old))
		return v
	case len(o) == 0:
		v.Kind, v.Reason = kindUndefined, "NaN on every seed in both builds"
		return v
	case v.OldMin == v.OldMax:
		v.Kind = kindConstant
		bad := 0
		for i := range o {
			if math.Abs(n[i]-o[i]) > r.ConstTol*math.Max(1, math.Abs(o[i])) {
				bad++
			}
		}
		if bad > 0 {
			v.Verdict = verdictFail
			v.Reason = fmt.Sprintf("constant in the old build, moved on %d of %d seeds", bad, len(o))
		} else {
			v.Reason = "constant, equal on every seed"
		}
		return v
	}
	v.Kind = kindVarying
	big := math.Abs(v.Shift) > v.OldIQR
	sig := v.P < r.Alpha
	switch {
	case big && sig:
		v.Verdict = verdictFail
		v.Reason = fmt.Sprintf("|shift| %.4g > IQR %.4g and p %.2g < %g", math.Abs(v.Shift), v.OldIQR, v.P, r.Alpha)
	case big:
		v.Reason = fmt.Sprintf("|shift| > IQR but p %.2g >= %g", v.P, r.Alpha)
	case sig:
		v.Reason = fmt.Sprintf("p %.2g < %g but |shift| <= IQR", v.P, r.Alpha)
	default:
		v.Reason = "within the seed-to-seed spread"
	}
	return v
}

// uTest is the two-sided Mann-Whitney U test's p-value of samples a and
// b: 1 when every value is the same (nothing tells them apart).
func uTest(a, b []float64) float64 {
	res, err := mstats.MannWhitneyUTest(a, b, mstats.LocationDiffers)
	if errors.Is(err, mstats.ErrSamplesEqual) {
		return 1
	}
	if err != nil {
		return math.NaN()
	}
	return res.P
}

// comparePoint applies the rule to every metric of one point, old and
// new being the two builds' sweeps over the same seeds. A metric only
// one build reports is listed (info), not judged.
func (r Rule) comparePoint(p Point, old, new *Sweep) ([]Verdict, error) {
	if !slices.Equal(old.Seeds, new.Seeds) {
		return nil, fmt.Errorf("%s: the builds ran different seeds (%v, %v)", p.Name, old.Seeds, new.Seeds)
	}
	var out []Verdict
	for _, m := range old.Metrics {
		if _, ok := new.byName[m]; !ok {
			out = append(out, r.only(p, m, "only the old build reports it"))
			continue
		}
		out = append(out, r.Compare(p.Name, p.Exp, m, old.column(m, old.Seeds), new.column(m, old.Seeds)))
	}
	for _, m := range new.Metrics {
		if _, ok := old.byName[m]; !ok {
			out = append(out, r.only(p, m, "only the new build reports it"))
		}
	}
	return out, nil
}

// only is the verdict on a metric one build does not report.
func (r Rule) only(p Point, m, why string) Verdict {
	v := r.Compare(p.Name, p.Exp, m, nil, nil)
	v.Kind, v.Verdict, v.Reason = kindIgnored, verdictInfo, why
	return v
}
