package learn

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// SyntheticConfig is a seeded Gaussian mixture: Classes classes of
// Clusters clusters each (0 counts as 1) in Dim dimensions with
// unit-variance isotropic noise, whose centres are Separation times
// independent random unit vectors (so two centres are about Separation *
// sqrt(2) apart); Samples rows with uniformly drawn classes and, within a
// class, uniformly drawn clusters. With one cluster per class the classes
// are nearly linearly separable and softmax regression reaches its
// plateau in a few iterations; with several, a class is a union of
// scattered clusters, which a linear model cannot separate and an MLP
// learns over hundreds of iterations.
type SyntheticConfig struct {
	Classes, Dim, Samples int
	Separation            float64
	Clusters              int
}

// DefaultSynthetic is the experiments' synthetic data set (dataset=
// synthetic): 10 classes of 4 clusters in 20 dimensions, centres 5 noise
// deviations from the origin. One worker of the MLP (128 hidden units,
// lr 0.1, batch 32) is near 0.79 after 100 steps, 0.90 after 300 and 0.95
// after 1000; softmax regression stops near 0.63 (TestSyntheticDefaultTakesHundreds).
var DefaultSynthetic = SyntheticConfig{Classes: 10, Dim: 20, Samples: 12000, Separation: 5, Clusters: 4}

// MaxSyntheticValues bounds the numbers a synthetic data set holds, its
// rows' features and its cluster centres each (800 MB of float64).
const MaxSyntheticValues = 100_000_000

// Check refuses a mixture that cannot be drawn: too few classes,
// dimensions or samples, a separation that is not a finite number >= 0,
// or more than MaxSyntheticValues features or centre coordinates.
func (c SyntheticConfig) Check() error {
	if c.Classes < 2 || c.Dim < 1 || c.Samples < 2 {
		return fmt.Errorf("synthetic data: %d classes, %d dimensions, %d samples (need at least 2, 1 and 2)", c.Classes, c.Dim, c.Samples)
	}
	if !(c.Separation >= 0) || math.IsInf(c.Separation, 0) {
		return fmt.Errorf("synthetic data: separation %g, want a finite number >= 0", c.Separation)
	}
	if v := float64(c.Samples) * float64(c.Dim); v > MaxSyntheticValues {
		return fmt.Errorf("synthetic data: %d samples of %d features are %.3g numbers, more than %d", c.Samples, c.Dim, v, MaxSyntheticValues)
	}
	if v := float64(c.Classes) * float64(max(c.Clusters, 1)) * float64(c.Dim); v > MaxSyntheticValues {
		return fmt.Errorf("synthetic data: %d classes of %d clusters in %d dimensions are %.3g centre coordinates, more than %d", c.Classes, max(c.Clusters, 1), c.Dim, v, MaxSyntheticValues)
	}
	return nil
}

// Synthetic draws the mixture with rng.
func Synthetic(c SyntheticConfig, rng *rand.Rand) (*Dataset, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	k := max(c.Clusters, 1)
	centres := make([]float64, c.Classes*k*c.Dim)
	for j := range c.Classes * k {
		mu := centres[j*c.Dim : (j+1)*c.Dim]
		var norm float64
		for norm == 0 {
			norm = 0
			for i := range mu {
				mu[i] = rng.NormFloat64()
				norm += mu[i] * mu[i]
			}
		}
		s := c.Separation / math.Sqrt(norm)
		for i := range mu {
			mu[i] *= s
		}
	}
	d := &Dataset{Name: "synthetic", Dim: c.Dim, Classes: c.Classes, Labels: make([]int, c.Samples), floats: make([]float64, c.Samples*c.Dim)}
	for n := range c.Samples {
		y := rng.IntN(c.Classes)
		d.Labels[n] = y
		j := y * k
		if k > 1 {
			j += rng.IntN(k)
		}
		x := d.floats[n*c.Dim : (n+1)*c.Dim]
		for i := range x {
			x[i] = centres[j*c.Dim+i] + rng.NormFloat64()
		}
	}
	return d, d.check()
}

// RandomLabels returns a copy of d whose labels are drawn uniformly at
// random with rng, independent of the features: no model can beat chance
// on its test set (a test of the learner).
func RandomLabels(d *Dataset, rng *rand.Rand) *Dataset {
	c := *d
	c.Name = d.Name + "-random-labels"
	c.Labels = make([]int, len(d.Labels))
	for i := range c.Labels {
		c.Labels[i] = rng.IntN(d.Classes)
	}
	return &c
}
