package learn

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// MLP3 is a three-layer perceptron, two ReLU hidden layers of H units:
// h1 = relu(x W1 + b1), h2 = relu(h1 W2 + b2), logits = h2 W3 + b3, with
// W1 (D x H), b1, W2 (H x H), b2, W3 (H x C), b3 in theta, in that order.
// The hidden layers start He-uniform, the output layer Glorot-uniform,
// biases at zero (denseStack.init). One layer deeper than the MLP, its
// loss is less benign, so how the workers' models are mixed can show in
// its convergence.
type MLP3 struct {
	D, H, C int
	net     denseStack
}

var _ Model = (*MLP3)(nil)

// newMLP3 returns the network for d features, h hidden units and c
// classes.
func newMLP3(d, h, c int) *MLP3 {
	return &MLP3{D: d, H: h, C: c, net: denseStack{widths: []int{d, h, h, c}}}
}

// Name is "mlp3".
func (m *MLP3) Name() string { return ModelMLP3 }

// NumParams is D H + H + H H + H + H C + C.
func (m *MLP3) NumParams() int { return m.net.numParams() }

// Layers are the three dense layers, each weights then bias.
func (m *MLP3) Layers() []int { return m.net.bounds() }

// Init implements Model.
func (m *MLP3) Init(theta []float64, rng *rand.Rand) { m.net.init(theta, rng) }

// Grad implements Model.
func (m *MLP3) Grad(theta, grad []float64, x *mat.Dense, y []int) float64 {
	r := x.RawMatrix()
	z := m.net.forward(theta, r.Data, r.Rows, r.Stride)
	loss := softmaxLossRows(z, r.Rows, m.C, m.C, y) // z is now dL/dz
	m.net.backward(theta, grad, r.Data, r.Rows, r.Stride, z, nil)
	return loss
}

// Eval implements Model.
func (m *MLP3) Eval(theta []float64, x *mat.Dense, y []int) (float64, int) {
	r := x.RawMatrix()
	z := m.net.forward(theta, r.Data, r.Rows, r.Stride)
	return evalLogitRows(z, r.Rows, m.C, m.C, y)
}
