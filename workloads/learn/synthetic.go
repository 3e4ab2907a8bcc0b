package learn

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// SyntheticConfig is a seeded Gaussian mixture: Classes clusters in Dim
// dimensions with unit-variance isotropic noise, whose centres are
// Separation times independent random unit vectors (so two centres are
// about Separation * sqrt(2) apart); Samples rows with uniformly drawn
// classes.
type SyntheticConfig struct {
	Classes, Dim, Samples int
	Separation            float64
}

// Synthetic draws the mixture with rng.
func Synthetic(c SyntheticConfig, rng *rand.Rand) (*Dataset, error) {
	if c.Classes < 2 || c.Dim < 1 || c.Samples < 2 {
		return nil, fmt.Errorf("synthetic data: %d classes, %d dimensions, %d samples (need at least 2, 1 and 2)", c.Classes, c.Dim, c.Samples)
	}
	if !(c.Separation >= 0) || math.IsInf(c.Separation, 0) {
		return nil, fmt.Errorf("synthetic data: separation %g, want a finite number >= 0", c.Separation)
	}
	centres := make([]float64, c.Classes*c.Dim)
	for k := range c.Classes {
		mu := centres[k*c.Dim : (k+1)*c.Dim]
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
		k := rng.IntN(c.Classes)
		d.Labels[n] = k
		x := d.floats[n*c.Dim : (n+1)*c.Dim]
		for i := range x {
			x[i] = centres[k*c.Dim+i] + rng.NormFloat64()
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
