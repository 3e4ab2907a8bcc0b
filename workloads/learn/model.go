package learn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Model names.
const (
	ModelSoftmax = "softmax"
	ModelMLP     = "mlp"
	ModelMLP3    = "mlp3"
	ModelCNN     = "cnn"
)

// ModelNames lists the models.
var ModelNames = []string{ModelSoftmax, ModelMLP, ModelMLP3, ModelCNN}

// MaxParams bounds a model's parameter count (400 MB of float64 per copy,
// and every worker holds a copy).
const MaxParams = 50_000_000

// Model is a classifier whose parameters are one flat vector theta.
// Implementations keep scratch buffers, so a Model serves one goroutine.
type Model interface {
	// Name is one of ModelNames.
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
// (hidden units for the MLPs and the CNN's dense layer).
func NewModel(name string, dim, classes, hidden int) (Model, error) {
	if dim < 1 || classes < 2 {
		return nil, fmt.Errorf("model %s: %d features and %d classes (need at least 1 and 2)", name, dim, classes)
	}
	if hidden < 1 && (name == ModelMLP || name == ModelMLP3 || name == ModelCNN) {
		return nil, fmt.Errorf("model %s: hidden width %d, want >= 1", name, hidden)
	}
	var m Model
	// p is the parameter count in float64, before any int can overflow.
	var p float64
	h, d, c := float64(hidden), float64(dim), float64(classes)
	switch name {
	case ModelSoftmax:
		m = &Softmax{D: dim, C: classes}
		p = (d + 1) * c
	case ModelMLP:
		m = &MLP{D: dim, H: hidden, C: classes}
		p = (d+1)*h + (h+1)*c
	case ModelMLP3:
		m = newMLP3(dim, hidden, classes)
		p = (d+1)*h + (h+1)*h + (h+1)*c
	case ModelCNN:
		cnn, err := newCNN(dim, hidden, classes)
		if err != nil {
			return nil, err
		}
		m = cnn
		_, _, _, _, conv := cnn.offsets()
		_, n2 := cnn.pooled()
		p = float64(conv) + float64(n2+1)*h + (h+1)*c
	default:
		return nil, fmt.Errorf("unknown model %q (allowed: %s)", name, strings.Join(ModelNames, ", "))
	}
	if p > MaxParams {
		return nil, fmt.Errorf("model %s on %d features and %d classes (hidden %d) needs about %.3g parameters per copy, more than %d", name, dim, classes, hidden, p, MaxParams)
	}
	return m, nil
}

// softmaxLoss turns the logits z (B x C) in place into dL/dz of the mean
// cross-entropy, (softmax(z) - onehot(y)) / B, and returns the mean loss.
func softmaxLoss(z *mat.Dense, y []int) float64 {
	r := z.RawMatrix()
	return softmaxLossRows(r.Data, r.Rows, r.Cols, r.Stride, y)
}

// softmaxLossRows is softmaxLoss on the b rows of c logits at stride ld
// in z.
func softmaxLossRows(z []float64, b, c, ld int, y []int) float64 {
	var loss float64
	inv := 1 / float64(b)
	for i := range b {
		row := z[i*ld : i*ld+c]
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
	r := z.RawMatrix()
	return evalLogitRows(r.Data, r.Rows, r.Cols, r.Stride, y)
}

// evalLogitRows is evalLogits on the b rows of c logits at stride ld in
// z.
func evalLogitRows(z []float64, b, c, ld int, y []int) (loss float64, correct int) {
	for i := range b {
		row := z[i*ld : i*ld+c]
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
