package background

import (
	"math"
)

// SketchAccuracy is the relative accuracy of the quantile sketch that
// replaces exact samples above StatsConfig.ExactLimit: every percentile it
// reports is within 0.5 percent (relative) of the exact percentile of the
// same samples.
const SketchAccuracy = 0.005

// DefaultExactLimit is the number of samples per statistic (FCT or
// slowdown of one size bucket) kept exactly when StatsConfig.ExactLimit is
// 0: 131072 samples, 1 MiB each, enough for every flow of a 10 ms Hadoop
// run on the 128-host PA-ATP fabric (about 60 000 flows).
const DefaultExactLimit = 1 << 17

// Sketch range: values in [sketchMin, sketchMax] fall in log-spaced
// buckets; smaller and larger ones are clamped to the end buckets (the
// exact minimum and maximum are kept, so the extreme percentiles stay
// exact). In seconds (FCT) the range runs from a picosecond to 31 years; in
// slowdowns from 1e-12 to 1e9.
const (
	sketchMin = 1e-12
	sketchMax = 1e9
)

// logSketch is a quantile sketch with relative-error guarantees: the
// logarithmic bucketing of DDSketch (Masson, Rim and Lee, "DDSketch: a fast
// and fully-mergeable quantile sketch with relative-error guarantees",
// VLDB 2019, Sec. 2). Bucket i holds the values in (gamma^(i-1), gamma^i]
// with gamma = (1+a)/(1-a); the bucket's estimate 2 gamma^i/(gamma+1) is
// within a relative error a of every value in it. A fixed array of
// counters covers [sketchMin, sketchMax] (about 4 800 buckets, 38 KB), so
// memory does not depend on the number of samples.
type logSketch struct {
	counts   []uint64
	lnGamma  float64
	offset   int // bucket index of counts[0]
	n        uint64
	zeros    uint64 // values <= 0
	min, max float64
}

func newLogSketch() *logSketch {
	gamma := (1 + SketchAccuracy) / (1 - SketchAccuracy)
	lg := math.Log(gamma)
	lo := int(math.Ceil(math.Log(sketchMin) / lg))
	hi := int(math.Ceil(math.Log(sketchMax) / lg))
	return &logSketch{counts: make([]uint64, hi-lo+1), lnGamma: lg, offset: lo, min: math.Inf(1), max: math.Inf(-1)}
}

// add records one sample.
func (s *logSketch) add(x float64) {
	s.n++
	s.min = math.Min(s.min, x)
	s.max = math.Max(s.max, x)
	if !(x > 0) {
		s.zeros++
		return
	}
	i := int(math.Ceil(math.Log(x)/s.lnGamma)) - s.offset
	s.counts[max(0, min(i, len(s.counts)-1))]++
}

// rank returns an estimate of the k-th smallest sample (0-based), clamped
// to the exact range of the samples; the smallest and largest are exact.
func (s *logSketch) rank(k uint64) float64 {
	switch {
	case k == 0:
		return s.min
	case k+1 >= s.n:
		return s.max
	case k < s.zeros:
		return math.Max(s.min, math.Min(0, s.max))
	}
	c := s.zeros
	for i, n := range s.counts {
		c += n
		if c > k {
			gamma := math.Exp(s.lnGamma)
			v := 2 * math.Exp(float64(i+s.offset)*s.lnGamma) / (gamma + 1)
			return math.Max(s.min, math.Min(s.max, v))
		}
	}
	return s.max
}

// percentile interpolates between the closest ranks as stats.Percentile
// does for exact samples (rank p/100 (n-1), Hyndman-Fan type 7), on the
// sketch's estimates of those ranks. Both estimates are within the
// sketch's relative accuracy of the exact order statistics, and so is
// their weighted mean.
func (s *logSketch) percentile(p float64) float64 {
	r := p / 100 * float64(s.n-1)
	lo := math.Floor(r)
	vlo := s.rank(uint64(lo))
	if r == lo {
		return vlo
	}
	return vlo + (r-lo)*(s.rank(uint64(lo)+1)-vlo)
}

// sampleSet summarises one statistic in bounded memory: samples are kept
// exactly (so the summary is NewDist's, bit for bit) until there are more
// than limit of them; then they move into a logSketch and later samples go
// there too. The mean always comes from a running sum.
type sampleSet struct {
	limit  int
	exact  []float64
	sketch *logSketch
	sum    float64
	n      int
}

func (s *sampleSet) add(x float64) {
	s.n++
	s.sum += x
	if s.sketch != nil {
		s.sketch.add(x)
		return
	}
	if len(s.exact) < s.limit {
		s.exact = append(s.exact, x)
		return
	}
	s.sketch = newLogSketch()
	for _, v := range s.exact {
		s.sketch.add(v)
	}
	s.exact = nil
	s.sketch.add(x)
}

// dist summarises the set: NewDist of the exact samples below the limit,
// the sketch's percentiles and the running mean above it.
func (s *sampleSet) dist() Dist {
	if s.sketch == nil {
		xs := append([]float64(nil), s.exact...)
		return NewDist(xs)
	}
	return Dist{N: s.n, Mean: s.sum / float64(s.n),
		P50: s.sketch.percentile(50), P95: s.sketch.percentile(95), P99: s.sketch.percentile(99)}
}

// merge adds the samples of o to s.
func (s *logSketch) merge(o *logSketch) {
	s.n += o.n
	s.zeros += o.zeros
	s.min = math.Min(s.min, o.min)
	s.max = math.Max(s.max, o.max)
	for i, c := range o.counts {
		s.counts[i] += c
	}
}

// mergeSets is the sampleSet of the samples of sets, in their order: the
// exact samples side by side while their total is within limit, else one
// sketch of them all, which is what one set given every sample would
// hold (the sketch's buckets do not depend on the order of the samples).
// Only the running sum depends on the order, and it is summed in the
// order of sets. One set comes back as it is.
func mergeSets(sets []*sampleSet, limit int) sampleSet {
	m := sampleSet{limit: limit}
	sketch := false
	for _, s := range sets {
		m.n += s.n
		m.sum += s.sum
		sketch = sketch || s.sketch != nil
	}
	if !sketch && m.n <= limit {
		for _, s := range sets {
			m.exact = append(m.exact, s.exact...)
		}
		return m
	}
	m.sketch = newLogSketch()
	for _, s := range sets {
		if s.sketch != nil {
			m.sketch.merge(s.sketch)
		}
		for _, v := range s.exact {
			m.sketch.add(v)
		}
	}
	return m
}
