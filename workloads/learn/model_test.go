package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestGradientFiniteDifference checks both models' backward passes
// against central differences of their loss, coordinate by coordinate.
func TestGradientFiniteDifference(t *testing.T) {
	for _, name := range ModelNames {
		t.Run(name, func(t *testing.T) {
			const d, c, h, b = 5, 4, 6, 7
			m, err := NewModel(name, d, c, h)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			theta := make([]float64, m.NumParams())
			for i := range theta {
				theta[i] = rng.NormFloat64() * 0.5 // away from zero: no ReLU kinks at the start
			}
			x := mat.NewDense(b, d, nil)
			y := make([]int, b)
			for i := range b {
				for k := range d {
					x.Set(i, k, rng.NormFloat64())
				}
				y[i] = rng.IntN(c)
			}
			grad := make([]float64, len(theta))
			loss := m.Grad(theta, grad, x, y)
			el, _ := m.Eval(theta, x, y)
			if math.Abs(loss-el/b) > 1e-12 {
				t.Fatalf("Grad's loss %g, Eval's mean %g", loss, el/b)
			}
			const eps = 1e-6
			g2 := make([]float64, len(theta))
			for i := range theta {
				old := theta[i]
				theta[i] = old + eps
				lp := m.Grad(theta, g2, x, y)
				theta[i] = old - eps
				lm := m.Grad(theta, g2, x, y)
				theta[i] = old
				fd := (lp - lm) / (2 * eps)
				if diff := math.Abs(fd - grad[i]); diff > 1e-6*max(1, math.Abs(fd)) {
					t.Errorf("parameter %d: backward %.9g, finite difference %.9g", i, grad[i], fd)
				}
			}
		})
	}
}

// TestModelTooLarge: a model that cannot fit is refused with a message.
func TestModelTooLarge(t *testing.T) {
	if _, err := NewModel(ModelMLP, 784, 10, 100000); err == nil {
		t.Error("an MLP of 78 M parameters was accepted")
	}
	if _, err := NewModel(ModelSoftmax, 0, 10, 0); err == nil {
		t.Error("zero features accepted")
	}
	if _, err := NewModel("cnn", 4, 2, 0); err == nil {
		t.Error("unknown model accepted")
	}
}
