package learn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Model names.
const (
	ModelSoftmax = "softmax"
	ModelMLP     = "mlp"
)

// ModelNames lists the models.
var ModelNames = []string{ModelSoftmax, ModelMLP}

// MaxParams bounds a model's parameter count (400 MB of float64 per copy,
// and every worker holds a copy).
const MaxParams = 50_000_000

// Model is a classifier whose parameters are one flat vector theta.
// Implementations keep scratch buffers, so a Model serves one goroutine.
type Model interface {
	// Name is "softmax" or "mlp".
	Name() string
	// NumParams is len(theta).
	NumParams() int
	// Init writes the initial parameters into theta.
	Init(theta []float64, rng *rand.Rand)
	// Grad writes the gradient of the mean cross-entropy loss over the
	// batch (rows of x, labels y) at theta into grad and returns the
	// loss.
	Grad(theta, grad []float64, x *mat.Dense, y []int) float64
	// Eval returns the summed cross-entropy loss and the number of
	// correct predictions (arg-max, ties to the lowest class) over the
	// batch.
	Eval(theta []float64, x *mat.Dense, y []int) (loss float64, correct int)
	// Layers returns the boundaries of the parameter vector's layers, in
	// input-to-output order: layer i is theta[b[i]:b[i+1]].
	Layers() []int
}

// NewModel returns the named model for dim features and classes classes
// (hidden units for the MLP).
func NewModel(name string, dim, classes, hidden int) (Model, error) {
	if dim < 1 || classes < 2 {
		return nil, fmt.Errorf("model %s: %d features and %d classes (need at least 1 and 2)", name, dim, classes)
	}
	var m Model
	switch name {
	case ModelSoftmax:
		m = &Softmax{D: dim, C: classes}
	case ModelMLP:
		if hidden < 1 {
			return nil, fmt.Errorf("model mlp: hidden width %d, want >= 1", hidden)
		}
		m = &MLP{D: dim, H: hidden, C: classes}
	default:
		return nil, fmt.Errorf("unknown model %q (allowed: softmax, mlp)", name)
	}
	if p := float64(dim+1)*float64(max(hidden, 1)) + float64(max(hidden, dim)+1)*float64(classes); p > MaxParams {
		return nil, fmt.Errorf("model %s on %d features and %d classes (hidden %d) needs about %.3g parameters per copy, more than %d", name, dim, classes, hidden, p, MaxParams)
	}
	return m, nil
}

// softmaxLoss turns the logits z (B x C) in place into dL/dz of the mean
// cross-entropy, (softmax(z) - onehot(y)) / B, and returns the mean loss.
func softmaxLoss(z *mat.Dense, y []int) float64 {
	b, _ := z.Dims()
	var loss float64
	inv := 1 / float64(b)
	for i := range b {
		row := z.RawRowView(i)
		p := softmaxRow(row)
		loss -= math.Log(max(p[y[i]], 1e-300))
		p[y[i]] -= 1
		for k := range p {
			p[k] *= inv
		}
	}
	return loss * inv
}

// softmaxRow replaces row by its softmax (max-shifted for stability) and
// returns it.
func softmaxRow(row []float64) []float64 {
	m := row[0]
	for _, v := range row[1:] {
		m = max(m, v)
	}
	var s float64
	for k, v := range row {
		e := math.Exp(v - m)
		row[k] = e
		s += e
	}
	for k := range row {
		row[k] /= s
	}
	return row
}

// evalLogits returns the summed cross-entropy and the correct arg-max
// predictions of logits z (z is overwritten).
func evalLogits(z *mat.Dense, y []int) (loss float64, correct int) {
	b, _ := z.Dims()
	for i := range b {
		row := z.RawRowView(i)
		best := 0
		for k, v := range row {
			if v > row[best] {
				best = k
			}
		}
		if best == y[i] {
			correct++
		}
		p := softmaxRow(row)
		loss -= math.Log(max(p[y[i]], 1e-300))
	}
	return loss, correct
}

// addBias adds bias to every row of z.
func addBias(z *mat.Dense, bias []float64) {
	r, _ := z.Dims()
	for i := range r {
		row := z.RawRowView(i)
		for k, b := range bias {
			row[k] += b
		}
	}
}

// colSums writes the column sums of z into dst.
func colSums(dst []float64, z *mat.Dense) {
	clear(dst)
	r, _ := z.Dims()
	for i := range r {
		for k, v := range z.RawRowView(i) {
			dst[k] += v
		}
	}
}

// scratch returns a rows x cols matrix backed by *buf, grown as needed.
func scratch(buf *[]float64, rows, cols int) *mat.Dense {
	if cap(*buf) < rows*cols {
		*buf = make([]float64, rows*cols)
	}
	return mat.NewDense(rows, cols, (*buf)[:rows*cols])
}
