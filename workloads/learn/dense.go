package learn

import (
	"math"
	"math/rand/v2"
)

// denseStack is a stack of fully connected layers over a batch held in
// rows: a = relu(in W_l + b_l) for every layer but the last, whose output
// is the logits. Layer l's weights W_l (widths[l] x widths[l+1],
// row-major: input by output, as the MLP's) and then its bias b_l
// (widths[l+1]) are consecutive in the parameter vector, input side
// first. The products go through gemm (gonum's BLAS); activations live in
// buffers that grow with the batch and are then reused, so a step
// allocates nothing.
type denseStack struct {
	widths []int
	act    [][]float64 // act[l]: layer l's output, B x widths[l+1] (post-ReLU but the last)
	dact   [][]float64 // dact[l]: dL/d(layer l's pre-activation), B x widths[l+1]
}

// numParams is sum_l (widths[l] + 1) widths[l+1].
func (d *denseStack) numParams() int {
	n := 0
	for l := range len(d.widths) - 1 {
		n += (d.widths[l] + 1) * d.widths[l+1]
	}
	return n
}

// bounds are the boundaries of the layers in theta (len(widths) entries).
func (d *denseStack) bounds() []int {
	out := []int{0}
	for l := range len(d.widths) - 1 {
		out = append(out, out[l]+(d.widths[l]+1)*d.widths[l+1])
	}
	return out
}

// layer returns layer l's weights and bias within theta.
func (d *denseStack) layer(theta []float64, l int) (w, b []float64) {
	o := 0
	for i := range l {
		o += (d.widths[i] + 1) * d.widths[i+1]
	}
	in, out := d.widths[l], d.widths[l+1]
	return theta[o : o+in*out], theta[o+in*out : o+in*out+out]
}

// init draws the weights uniform in +-sqrt(6 / fan_in) before a ReLU (He
// et al. 2015, "Delving deep into rectifiers", Sec. 2.2, in its uniform
// form) and in +-sqrt(6 / (fan_in + fan_out)) on the output layer
// (Glorot and Bengio 2010, as the MLP's), biases zero.
func (d *denseStack) init(theta []float64, rng *rand.Rand) {
	last := len(d.widths) - 2
	for l := range len(d.widths) - 1 {
		w, b := d.layer(theta, l)
		a := math.Sqrt(6 / float64(d.widths[l]))
		if l == last {
			a = math.Sqrt(6 / float64(d.widths[l]+d.widths[l+1]))
		}
		for i := range w {
			w[i] = a * (2*rng.Float64() - 1)
		}
		clear(b)
	}
}

// forward runs the batch x (bs rows of widths[0] at stride ldx) through
// the stack and returns the logits (bs x widths[last], contiguous).
func (d *denseStack) forward(theta []float64, x []float64, bs, ldx int) []float64 {
	nl := len(d.widths) - 1
	if len(d.act) != nl {
		d.act, d.dact = make([][]float64, nl), make([][]float64, nl)
	}
	in, ld := x, ldx
	for l := range nl {
		w, b := d.layer(theta, l)
		k, n := d.widths[l], d.widths[l+1]
		out := grow(&d.act[l], bs*n)
		for i := range bs {
			copy(out[i*n:(i+1)*n], b)
		}
		gemm(false, false, bs, n, k, in, ld, w, n, 1, out, n)
		if l < nl-1 {
			relu(out)
		}
		in, ld = out, n
	}
	return d.act[nl-1][:bs*d.widths[nl]]
}

// backward writes the gradient of every layer into grad, given the batch
// x of the last forward and dz = dL/dlogits (bs x widths[last], used as
// scratch); when dx is not nil it also writes dL/dx (bs x widths[0],
// contiguous) into it.
func (d *denseStack) backward(theta, grad []float64, x []float64, bs, ldx int, dz, dx []float64) {
	nl := len(d.widths) - 1
	delta := dz
	for l := nl - 1; l >= 0; l-- {
		k, n := d.widths[l], d.widths[l+1]
		in, ld := x, ldx
		if l > 0 {
			in, ld = d.act[l-1], k
		}
		gw, gb := d.layer(grad, l)
		gemm(true, false, k, n, bs, in, ld, delta, n, 0, gw, n) // in^T delta
		clear(gb)
		for i := range bs {
			for j, v := range delta[i*n : (i+1)*n] {
				gb[j] += v
			}
		}
		if l == 0 && dx == nil {
			break
		}
		w, _ := d.layer(theta, l)
		var prev []float64
		if l > 0 {
			prev = grow(&d.dact[l-1], bs*k)
		} else {
			prev = dx[:bs*k]
		}
		gemm(false, true, bs, k, n, delta, n, w, n, 0, prev, k) // delta W^T
		if l > 0 {
			for i, a := range d.act[l-1][:bs*k] {
				if a <= 0 {
					prev[i] = 0
				}
			}
		}
		delta = prev
	}
}

// relu clamps x at zero in place.
func relu(x []float64) {
	for i, v := range x {
		if v < 0 {
			x[i] = 0
		}
	}
}

// grow returns (*buf)[:n], reallocating only when the capacity is short.
func grow(buf *[]float64, n int) []float64 {
	if cap(*buf) < n {
		*buf = make([]float64, n)
	}
	*buf = (*buf)[:n]
	return *buf
}
