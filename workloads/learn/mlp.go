package learn

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// MLP is a two-layer perceptron: h = relu(x W1 + b1), logits = h W2 + b2,
// with W1 (D x H), b1 (H), W2 (H x C), b2 (C) in theta, in that order.
// Weights start uniform in +-sqrt(6 / (fan_in + fan_out)) (Glorot and
// Bengio 2010), biases at zero.
type MLP struct {
	D, H, C  int
	h, z, dh []float64
}

var _ Model = (*MLP)(nil)

// Name is "mlp".
func (m *MLP) Name() string { return ModelMLP }

// NumParams is D H + H + H C + C.
func (m *MLP) NumParams() int { return m.D*m.H + m.H + m.H*m.C + m.C }

// Layers is the hidden layer (W1, b1), then the output layer (W2, b2).
func (m *MLP) Layers() []int { return []int{0, m.D*m.H + m.H, m.NumParams()} }

// offsets of W1, b1, W2, b2 in theta.
func (m *MLP) offsets() (w1, b1, w2, b2 int) {
	w1, b1 = 0, m.D*m.H
	w2 = b1 + m.H
	b2 = w2 + m.H*m.C
	return
}

// Init implements Model.
func (m *MLP) Init(theta []float64, rng *rand.Rand) {
	_, b1, w2, b2 := m.offsets()
	a1 := math.Sqrt(6 / float64(m.D+m.H))
	for i := range theta[:b1] {
		theta[i] = a1 * (2*rng.Float64() - 1)
	}
	clear(theta[b1:w2])
	a2 := math.Sqrt(6 / float64(m.H+m.C))
	for i := w2; i < b2; i++ {
		theta[i] = a2 * (2*rng.Float64() - 1)
	}
	clear(theta[b2:])
}

// forward computes the hidden activations and the logits.
func (m *MLP) forward(theta []float64, x *mat.Dense) (h, z *mat.Dense) {
	b, _ := x.Dims()
	_, b1, w2, b2 := m.offsets()
	h = scratch(&m.h, b, m.H)
	h.Mul(x, mat.NewDense(m.D, m.H, theta[:b1]))
	addBias(h, theta[b1:w2])
	raw := m.h[:b*m.H]
	for i, v := range raw {
		if v < 0 {
			raw[i] = 0
		}
	}
	z = scratch(&m.z, b, m.C)
	z.Mul(h, mat.NewDense(m.H, m.C, theta[w2:b2]))
	addBias(z, theta[b2:])
	return h, z
}

// Grad implements Model.
func (m *MLP) Grad(theta, grad []float64, x *mat.Dense, y []int) float64 {
	b, _ := x.Dims()
	_, b1, w2, b2 := m.offsets()
	h, z := m.forward(theta, x)
	loss := softmaxLoss(z, y) // z is now dL/dz
	mat.NewDense(m.H, m.C, grad[w2:b2]).Mul(h.T(), z)
	colSums(grad[b2:], z)
	dh := scratch(&m.dh, b, m.H)
	dh.Mul(z, mat.NewDense(m.H, m.C, theta[w2:b2]).T())
	hr, dr := m.h[:b*m.H], m.dh[:b*m.H]
	for i, v := range hr {
		if v <= 0 {
			dr[i] = 0
		}
	}
	mat.NewDense(m.D, m.H, grad[:b1]).Mul(x.T(), dh)
	colSums(grad[b1:w2], dh)
	return loss
}

// Eval implements Model.
func (m *MLP) Eval(theta []float64, x *mat.Dense, y []int) (float64, int) {
	_, z := m.forward(theta, x)
	return evalLogits(z, y)
}
