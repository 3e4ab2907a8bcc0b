package learn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// The CNN's fixed shape: LeNet-5's feature maps (LeCun, Bottou, Bengio and
// Haffner 1998, "Gradient-based learning applied to document
// recognition", Sec. II-B and Fig. 2: C1 6 maps of 28 x 28 from 5 x 5
// kernels on the 32 x 32 padded input, S2 to 14 x 14, C3 16 maps of
// 10 x 10, S4 to 5 x 5).
const (
	cnnKernel = 5
	cnnC1     = 6
	cnnC2     = 16
	// CNNMinSide is the smallest image side the CNN takes: conv1 keeps
	// the side, pooling halves it, conv2 takes 4 off and pooling halves
	// it again, which must leave at least 1.
	CNNMinSide = 12
)

// CNN is a LeNet-5-like network on square one-channel images of side S:
//
//	conv1: C1 = 6 filters of 5 x 5, padding 2 (S x S), ReLU, 2 x 2 max pool (S/2)
//	conv2: C2 = 16 filters of 5 x 5 over the 6 maps, no padding (S/2 - 4), ReLU, 2 x 2 max pool
//	dense: 16 (S/2 - 4)/2 squared features (400 on MNIST) to H hidden units, ReLU
//	dense: H to C logits
//
// It differs from LeNet-5 in ReLU for the scaled tanh, max pooling for
// the trainable subsampling, every C3 map seeing every S2 map (LeNet-5's
// connection table, Table I, is partial), and one hidden dense layer of H
// for F5 (120) and F6 (84); on MNIST it has 51,902 parameters at H = 120 and 55,190 at the
// default H = 128.
// theta holds conv1's weights (C1 x 25, PyTorch's [out][in][kh][kw]) and
// biases, conv2's (C2 x C1 25) and biases, then the dense layers as in
// denseStack (features flattened channel by channel, row by row).
//
// Every convolution is im2col and one product through gonum's BLAS
// (convGeom, gemm), sample by sample; the samples' activations, columns
// and pooling indices live in buffers that grow to the largest batch and
// are then reused, so a step allocates nothing.
type CNN struct {
	S, H, C int

	g1, g2 convGeom
	s1, s2 int // sides after the first and the second pooling
	head   denseStack

	cols, z, dcols, dp1 []float64 // one sample's scratch
	p1, feat, dfeat     []float64 // per sample: pooled conv1 maps, pooled conv2 maps (the dense input), dL/dfeat
	arg1, arg2          []int32   // per sample: the pools' arg-max indices
}

var _ Model = (*CNN)(nil)

// newCNN returns the network for dim = S x S pixels, hidden units and
// classes, or an error when dim is not such an image.
func newCNN(dim, hidden, classes int) (*CNN, error) {
	s := int(math.Sqrt(float64(dim)))
	for s*s > dim {
		s--
	}
	for (s+1)*(s+1) <= dim {
		s++
	}
	if s*s != dim || s < CNNMinSide {
		return nil, fmt.Errorf("model cnn takes square one-channel images of side at least %d: %d features is not one", CNNMinSide, dim)
	}
	m := &CNN{S: s, H: hidden, C: classes}
	m.g1 = newConvGeom(1, s, s, cnnKernel, cnnKernel/2)
	m.s1 = s / 2
	m.g2 = newConvGeom(cnnC1, m.s1, m.s1, cnnKernel, 0)
	m.s2 = m.g2.oh / 2
	m.head = denseStack{widths: []int{cnnC2 * m.s2 * m.s2, hidden, classes}}
	return m, nil
}

// Name is "cnn".
func (m *CNN) Name() string { return ModelCNN }

// offsets of conv1's weights and biases, conv2's, and the dense head in
// theta.
func (m *CNN) offsets() (w1, b1, w2, b2, head int) {
	b1 = cnnC1 * m.g1.rows()
	w2 = b1 + cnnC1
	b2 = w2 + cnnC2*m.g2.rows()
	head = b2 + cnnC2
	return 0, b1, w2, b2, head
}

// NumParams is the two convolutions' weights and biases and the dense
// layers'.
func (m *CNN) NumParams() int {
	_, _, _, _, head := m.offsets()
	return head + m.head.numParams()
}

// Layers are conv1, conv2 and the two dense layers.
func (m *CNN) Layers() []int {
	_, _, w2, _, head := m.offsets()
	out := []int{0, w2}
	for _, b := range m.head.bounds() {
		out = append(out, head+b)
	}
	return out
}

// Init draws the convolutions' weights He-uniform, +-sqrt(6 / fan_in)
// with fan_in = in channels x 25 (He et al. 2015, Sec. 2.2), biases zero,
// and the dense layers as denseStack.init.
func (m *CNN) Init(theta []float64, rng *rand.Rand) {
	_, b1, w2, b2, head := m.offsets()
	a1 := math.Sqrt(6 / float64(m.g1.rows()))
	for i := range theta[:b1] {
		theta[i] = a1 * (2*rng.Float64() - 1)
	}
	clear(theta[b1:w2])
	a2 := math.Sqrt(6 / float64(m.g2.rows()))
	for i := w2; i < b2; i++ {
		theta[i] = a2 * (2*rng.Float64() - 1)
	}
	clear(theta[b2:head])
	m.head.init(theta[head:], rng)
}

// sizes of one sample's pooled maps.
func (m *CNN) pooled() (n1, n2 int) { return cnnC1 * m.s1 * m.s1, cnnC2 * m.s2 * m.s2 }

// prepare grows the buffers for a batch of b samples.
func (m *CNN) prepare(b int) {
	n1, n2 := m.pooled()
	grow(&m.cols, max(m.g1.rows()*m.g1.positions(), m.g2.rows()*m.g2.positions()))
	grow(&m.z, max(cnnC1*m.g1.positions(), cnnC2*m.g2.positions()))
	grow(&m.dcols, m.g2.rows()*m.g2.positions())
	grow(&m.dp1, n1)
	grow(&m.p1, b*n1)
	grow(&m.feat, b*n2)
	grow(&m.dfeat, b*n2)
	growInt32(&m.arg1, b*n1)
	growInt32(&m.arg2, b*n2)
}

// conv computes one convolution's pre-activations z = W cols + bias
// (cout x positions) of the sample x.
func (m *CNN) conv(g convGeom, cout int, w, bias, x, z []float64) {
	p := g.positions()
	cols := m.cols[:g.rows()*p]
	g.im2col(x, cols)
	for c := range cout {
		row := z[c*p : (c+1)*p]
		for i := range row {
			row[i] = bias[c]
		}
	}
	gemm(false, false, cout, p, g.rows(), w, g.rows(), cols, p, 1, z, p)
}

// forwardSample runs sample s (pixels x) through both convolution stages
// into its slots of p1 and feat.
func (m *CNN) forwardSample(theta, x []float64, s int) {
	_, b1, w2, b2, head := m.offsets()
	n1, n2 := m.pooled()
	p1, a1 := m.p1[s*n1:(s+1)*n1], m.arg1[s*n1:(s+1)*n1]
	z := m.z[:cnnC1*m.g1.positions()]
	m.conv(m.g1, cnnC1, theta[:b1], theta[b1:w2], x, z)
	pool2(cnnC1, m.S, m.S, z, p1, a1)
	relu(p1) // relu(max) = max(relu): pooling first costs a quarter of the clamps
	feat, a2 := m.feat[s*n2:(s+1)*n2], m.arg2[s*n2:(s+1)*n2]
	z = m.z[:cnnC2*m.g2.positions()]
	m.conv(m.g2, cnnC2, theta[w2:b2], theta[b2:head], p1, z)
	pool2(cnnC2, m.g2.oh, m.g2.ow, z, feat, a2)
	relu(feat)
}

// backwardSample adds sample s's gradient of both convolution stages into
// grad, from dL/dfeat of its slot.
func (m *CNN) backwardSample(theta, grad, x []float64, s int) {
	_, b1, w2, b2, _ := m.offsets()
	n1, n2 := m.pooled()
	p1, a1 := m.p1[s*n1:(s+1)*n1], m.arg1[s*n1:(s+1)*n1]
	feat, a2, df := m.feat[s*n2:(s+1)*n2], m.arg2[s*n2:(s+1)*n2], m.dfeat[s*n2:(s+1)*n2]
	// conv2: through the ReLU and the pool to dL/dz2.
	p := m.g2.positions()
	dz := m.z[:cnnC2*p]
	clear(dz)
	for i, v := range df {
		if feat[i] > 0 {
			dz[a2[i]] = v
		}
	}
	m.convBackward(m.g2, cnnC2, grad[w2:b2], grad[b2:b2+cnnC2], p1, dz)
	// dL/dp1 = col2im(W2^T dz2); through the ReLU and the pool to dL/dz1.
	kr := m.g2.rows()
	dcols := m.dcols[:kr*p]
	gemm(true, false, kr, p, cnnC2, theta[w2:b2], kr, dz, p, 0, dcols, p)
	dp1 := m.dp1
	clear(dp1)
	m.g2.col2im(dcols, dp1)
	p = m.g1.positions()
	dz = m.z[:cnnC1*p]
	clear(dz)
	for i, v := range dp1 {
		if p1[i] > 0 {
			dz[a1[i]] = v
		}
	}
	m.convBackward(m.g1, cnnC1, grad[:b1], grad[b1:w2], x, dz)
}

// convBackward adds dz cols^T to the weights' gradient gw and dz's row
// sums to the biases' gb, recomputing the columns of the stage's input x
// (cheaper than keeping every sample's).
func (m *CNN) convBackward(g convGeom, cout int, gw, gb, x, dz []float64) {
	p := g.positions()
	cols := m.cols[:g.rows()*p]
	g.im2col(x, cols)
	gemm(false, true, cout, g.rows(), p, dz, p, cols, p, 1, gw, g.rows())
	for c := range cout {
		var s float64
		for _, v := range dz[c*p : (c+1)*p] {
			s += v
		}
		gb[c] += s
	}
}

// forward runs the batch x through the convolution stages sample by
// sample and the dense head, and returns x's raw matrix, the head's offset
// in theta and the logits.
func (m *CNN) forward(theta []float64, x *mat.Dense) (blas64.General, int, []float64) {
	r := x.RawMatrix()
	m.prepare(r.Rows)
	_, _, _, _, head := m.offsets()
	for s := range r.Rows {
		m.forwardSample(theta, r.Data[s*r.Stride:s*r.Stride+r.Cols], s)
	}
	_, n2 := m.pooled()
	return r, head, m.head.forward(theta[head:], m.feat, r.Rows, n2)
}

// Grad implements Model.
func (m *CNN) Grad(theta, grad []float64, x *mat.Dense, y []int) float64 {
	r, head, z := m.forward(theta, x)
	b := r.Rows
	_, n2 := m.pooled()
	loss := softmaxLossRows(z, b, m.C, m.C, y) // z is now dL/dz
	m.head.backward(theta[head:], grad[head:], m.feat, b, n2, z, m.dfeat)
	clear(grad[:head])
	for s := range b {
		m.backwardSample(theta, grad, r.Data[s*r.Stride:s*r.Stride+r.Cols], s)
	}
	return loss
}

// Eval implements Model.
func (m *CNN) Eval(theta []float64, x *mat.Dense, y []int) (float64, int) {
	r, _, z := m.forward(theta, x)
	return evalLogitRows(z, r.Rows, m.C, m.C, y)
}
