package training

// The selective-reduce paper (Sec. IV-A, Fig. 1) drives its workers with the
// compute-time distributions that Eager-SGD (Li et al., PPoPP 2020)
// reported for two jobs. The raw traces are not public, so we use
// parametric approximations that keep the shape the figure describes:
//
//   - CNN (ResNet-50 on ImageNet, Google Cloud, 2x V100; Fig. 1(a)): every
//     iteration does the same work, so most iterations sit in a narrow peak;
//     performance variability of the shared cloud server (resource
//     contention) adds a long right tail. We model it as a mixture: with
//     probability 0.9 a narrow lognormal (median 300 ms, sigma 0.04, i.e.
//     about +-4%), with probability 0.1 a contention tail 320 ms + Exp(mean
//     150 ms). Mean about 317 ms; about 10% of iterations exceed 350 ms and
//     about 1% exceed 0.8 s.
//   - Transformer (WMT16 on a P100; Fig. 1(b)): the work per iteration
//     follows the sentence lengths in the batch, so the distribution is
//     wide and right-skewed with no single sharp peak. We model it as a
//     lognormal of median 300 ms and sigma 0.4 shifted by 50 ms (a fixed
//     per-iteration floor). Mean about 375 ms; 5th-95th percentile about
//     0.21-0.63 s.
//
// The absolute scale (hundreds of milliseconds per iteration) matches the
// order of magnitude of the two jobs on their GPUs; what matters for the
// selective-reduce results is the shape (narrow peak + tail versus broad
// spread) relative to the synchronisation time, which is seconds for a
// 500 MB model at 1-20 Gbps. Users who have real traces load them as an
// Empirical distribution instead.

// CNN returns the approximation of the CNN (ResNet-50) training trace.
func CNN() Dist {
	m, err := NewMixture("cnn", []float64{0.9, 0.1}, []Dist{
		LogNormal{Median: 0.300, Sigma: 0.04},
		ShiftedExp{Shift: 0.320, Scale: 0.150},
	})
	if err != nil {
		panic("training: CNN trace constants are inconsistent: " + err.Error())
	}
	return m
}

// Transformer returns the approximation of the Transformer (WMT16) training
// trace.
func Transformer() Dist {
	return named{LogNormal{Median: 0.300, Sigma: 0.40, Shift: 0.050}, "transformer"}
}

// named renames a distribution.
type named struct {
	Dist
	label string
}

func (n named) Name() string { return n.label }
