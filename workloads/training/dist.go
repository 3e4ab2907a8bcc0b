package training

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Dist is a distribution of per-iteration compute times, in seconds.
// CDF is what the selective-reduce controller needs to predict which
// workers will be ready soon (Alg. 2, PredictWorkers, Eq. 4).
type Dist interface {
	// Sample draws one compute time (seconds, > 0) from r.
	Sample(r *rand.Rand) float64
	// CDF is P(T <= x).
	CDF(x float64) float64
	// Mean is E[T] in seconds.
	Mean() float64
	// Name is a short label, e.g. "cnn" or "lognormal(0.3,0.1)".
	Name() string
}

// Constant is a fixed compute time.
type Constant struct{ T float64 }

// Sample returns T.
func (c Constant) Sample(*rand.Rand) float64 { return c.T }

// CDF is the unit step at T.
func (c Constant) CDF(x float64) float64 {
	if x >= c.T {
		return 1
	}
	return 0
}

// Mean returns T.
func (c Constant) Mean() float64 { return c.T }

// Name labels the distribution.
func (c Constant) Name() string { return fmt.Sprintf("constant(%g)", c.T) }

// Uniform is U[Lo, Hi].
type Uniform struct{ Lo, Hi float64 }

// Sample draws uniformly from [Lo, Hi).
func (u Uniform) Sample(r *rand.Rand) float64 { return u.Lo + (u.Hi-u.Lo)*r.Float64() }

// CDF is the uniform CDF.
func (u Uniform) CDF(x float64) float64 {
	switch {
	case x <= u.Lo:
		return 0
	case x >= u.Hi:
		return 1
	}
	return (x - u.Lo) / (u.Hi - u.Lo)
}

// Mean is (Lo+Hi)/2.
func (u Uniform) Mean() float64 { return (u.Lo + u.Hi) / 2 }

// Name labels the distribution.
func (u Uniform) Name() string { return fmt.Sprintf("uniform(%g,%g)", u.Lo, u.Hi) }

// LogNormal is Shift + exp(N(ln Median, Sigma^2)): a lognormal with the
// given median, optionally shifted right by Shift seconds.
type LogNormal struct{ Median, Sigma, Shift float64 }

// Sample draws one value.
func (l LogNormal) Sample(r *rand.Rand) float64 {
	return l.Shift + l.Median*math.Exp(l.Sigma*r.NormFloat64())
}

// CDF is Phi((ln(x-Shift) - ln Median)/Sigma).
func (l LogNormal) CDF(x float64) float64 {
	y := x - l.Shift
	if y <= 0 {
		return 0
	}
	if l.Sigma == 0 {
		if y >= l.Median {
			return 1
		}
		return 0
	}
	z := (math.Log(y) - math.Log(l.Median)) / l.Sigma
	return 0.5 * math.Erfc(-z/math.Sqrt2)
}

// Mean is Shift + Median*exp(Sigma^2/2).
func (l LogNormal) Mean() float64 { return l.Shift + l.Median*math.Exp(l.Sigma*l.Sigma/2) }

// Name labels the distribution.
func (l LogNormal) Name() string {
	if l.Shift != 0 {
		return fmt.Sprintf("lognormal(%g,%g,+%g)", l.Median, l.Sigma, l.Shift)
	}
	return fmt.Sprintf("lognormal(%g,%g)", l.Median, l.Sigma)
}

// ShiftedExp is Shift + Exp(mean Scale): the memoryless tail of a delay
// injected on top of a base compute time.
type ShiftedExp struct{ Shift, Scale float64 }

// Sample draws one value.
func (e ShiftedExp) Sample(r *rand.Rand) float64 { return e.Shift + e.Scale*r.ExpFloat64() }

// CDF is 1 - exp(-(x-Shift)/Scale) for x > Shift.
func (e ShiftedExp) CDF(x float64) float64 {
	if x <= e.Shift {
		return 0
	}
	return 1 - math.Exp(-(x-e.Shift)/e.Scale)
}

// Mean is Shift + Scale.
func (e ShiftedExp) Mean() float64 { return e.Shift + e.Scale }

// Name labels the distribution.
func (e ShiftedExp) Name() string { return fmt.Sprintf("shiftedexp(%g,%g)", e.Shift, e.Scale) }

// Mixture draws from Parts[i] with probability Weights[i]. Weights must be
// positive and sum to 1 (NewMixture checks).
type Mixture struct {
	Label   string
	Weights []float64
	Parts   []Dist
}

// NewMixture checks the weights and returns the mixture.
func NewMixture(label string, weights []float64, parts []Dist) (*Mixture, error) {
	if len(weights) == 0 || len(weights) != len(parts) {
		return nil, fmt.Errorf("mixture %s: %d weights for %d parts", label, len(weights), len(parts))
	}
	sum := 0.0
	for _, w := range weights {
		if !(w > 0) {
			return nil, fmt.Errorf("mixture %s: weight %g is not positive", label, w)
		}
		sum += w
	}
	if math.Abs(sum-1) > 1e-9 {
		return nil, fmt.Errorf("mixture %s: weights sum to %g, want 1", label, sum)
	}
	return &Mixture{Label: label, Weights: weights, Parts: parts}, nil
}

// Sample picks a component with one uniform draw, then samples it.
func (m *Mixture) Sample(r *rand.Rand) float64 {
	u := r.Float64()
	for i, w := range m.Weights {
		if u < w || i == len(m.Weights)-1 {
			return m.Parts[i].Sample(r)
		}
		u -= w
	}
	panic("training: mixture has no components")
}

// CDF is the weighted sum of the components' CDFs.
func (m *Mixture) CDF(x float64) float64 {
	s := 0.0
	for i, w := range m.Weights {
		s += w * m.Parts[i].CDF(x)
	}
	return s
}

// Mean is the weighted sum of the components' means.
func (m *Mixture) Mean() float64 {
	s := 0.0
	for i, w := range m.Weights {
		s += w * m.Parts[i].Mean()
	}
	return s
}

// Name returns the label.
func (m *Mixture) Name() string { return m.Label }
