package learn

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// gradCases are the models and input shapes the gradient checks run on:
// every model, and the CNN on two image sides whose poolings both drop an
// odd last row and column (15: 15, 7, 3, 1) and keep a 2 x 2 map (17: 17,
// 8, 4, 2).
var gradCases = []struct {
	name, model    string
	dim, hidden, b int
}{
	{"softmax", ModelSoftmax, 5, 6, 7},
	{"mlp", ModelMLP, 5, 6, 7},
	{"mlp3", ModelMLP3, 5, 6, 7},
	{"cnn15", ModelCNN, 15 * 15, 6, 3},
	{"cnn17", ModelCNN, 17 * 17, 5, 2},
}

// TestGradientFiniteDifference checks every model's backward pass against
// central differences of its loss, coordinate by coordinate (every
// parameter of every tensor: weights and biases of each layer).
func TestGradientFiniteDifference(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range gradCases {
		covered[tc.model] = true
		t.Run(tc.name, func(t *testing.T) {
			const c = 4
			d, b := tc.dim, tc.b
			m, err := NewModel(tc.model, d, c, tc.hidden)
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
			if math.Abs(loss-el/float64(b)) > 1e-12 {
				t.Fatalf("Grad's loss %g, Eval's mean %g", loss, el/float64(b))
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
			// The check must have had something to check: every
			// layer's gradient is non-zero somewhere.
			lb := m.Layers()
			for l := range len(lb) - 1 {
				nz := false
				for _, g := range grad[lb[l]:lb[l+1]] {
					nz = nz || g != 0
				}
				if !nz {
					t.Errorf("layer %d (parameters %d-%d) has an all-zero gradient", l, lb[l], lb[l+1])
				}
			}
		})
	}
	for _, name := range ModelNames {
		if !covered[name] {
			t.Errorf("model %s has no gradient check", name)
		}
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
	if _, err := NewModel("lenet", 4, 2, 1); err == nil {
		t.Error("unknown model accepted")
	}
	if _, err := NewModel(ModelCNN, 5, 10, 8); err == nil || !strings.Contains(err.Error(), "square") {
		t.Errorf("a CNN on 5 features: %v", err)
	}
	if _, err := NewModel(ModelCNN, 11*11, 10, 8); err == nil {
		t.Error("a CNN on 11 x 11 images (nothing left after the second pooling) accepted")
	}
	if _, err := NewModel(ModelMLP3, 784, 10, 10000); err == nil {
		t.Error("an MLP3 of 108 M parameters was accepted")
	}
}
