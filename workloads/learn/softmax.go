package learn

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Softmax is multinomial logistic regression: logits = x W + b, with W
// (D x C, row-major) then b (C) in theta. It starts from zero.
type Softmax struct {
	D, C int
	z    []float64
}

var _ Model = (*Softmax)(nil)

// Name is "softmax".
func (m *Softmax) Name() string { return ModelSoftmax }

// NumParams is D C + C.
func (m *Softmax) NumParams() int { return m.D*m.C + m.C }

// Layers is one layer.
func (m *Softmax) Layers() []int { return []int{0, m.NumParams()} }

// Init sets theta to zero (the loss is convex; zero is the usual start).
func (m *Softmax) Init(theta []float64, _ *rand.Rand) { clear(theta) }

func (m *Softmax) logits(theta []float64, x *mat.Dense) *mat.Dense {
	b, _ := x.Dims()
	w := mat.NewDense(m.D, m.C, theta[:m.D*m.C])
	z := scratch(&m.z, b, m.C)
	z.Mul(x, w)
	addBias(z, theta[m.D*m.C:])
	return z
}

// Grad implements Model.
func (m *Softmax) Grad(theta, grad []float64, x *mat.Dense, y []int) float64 {
	z := m.logits(theta, x)
	loss := softmaxLoss(z, y) // z is now dL/dz
	gw := mat.NewDense(m.D, m.C, grad[:m.D*m.C])
	gw.Mul(x.T(), z)
	colSums(grad[m.D*m.C:], z)
	return loss
}

// Eval implements Model.
func (m *Softmax) Eval(theta []float64, x *mat.Dense, y []int) (float64, int) {
	return evalLogits(m.logits(theta, x), y)
}
