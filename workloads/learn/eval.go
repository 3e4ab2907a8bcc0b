package learn

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// evalChunk is the number of test rows evaluated per matrix product.
const evalChunk = 500

// Mean returns the model the fleet has learnt so far: the parameter
// server's model when asynchronous pushes built one, else the average of
// the workers' models (push-sum: sum of numerators, messages in flight
// included, over the sum of weights, piece by piece), which is the model
// one all-reduce of the workers would give and the x-bar of the
// convergence analyses (DS-Sync Theorem IV.2, stochastic gradient push).
func (f *Fleet) Mean() []float64 {
	if f.server != nil {
		return append([]float64(nil), f.server...)
	}
	out := make([]float64, f.np)
	for w := range f.n {
		floats.Add(out, f.theta[w])
	}
	wsum := make([]float64, len(f.pieces))
	for w := range f.n {
		floats.Add(wsum, f.weight[w])
	}
	// The messages in flight in a fixed order: floating-point sums
	// depend on their order, and a map's is random.
	for _, k := range f.mailKeys() {
		m := f.mail[k]
		r := f.pieces[k.p]
		floats.Add(out[r[0]:r[1]], m.x)
		wsum[k.p] += m.w
	}
	for p, r := range f.pieces {
		floats.Scale(1/wsum[p], out[r[0]:r[1]])
	}
	return out
}

// ConsensusDist is the mean over workers of the squared Euclidean
// distance of a worker's (de-biased) model from mean.
func (f *Fleet) ConsensusDist(mean []float64) float64 {
	var s float64
	for w := range f.n {
		p := f.theta[w]
		if f.biased(w) {
			p = f.Params(w)
		}
		s += sqDist(p, mean)
	}
	return s / float64(f.n)
}

func sqDist(a, b []float64) float64 {
	var s float64
	for i, x := range a {
		d := x - b[i]
		s += d * d
	}
	return s
}

// Evaluate returns the mean cross-entropy and the accuracy of theta on
// the test rows rows.
func (f *Fleet) Evaluate(theta []float64, rows []int) (loss, acc float64) {
	d := f.split.Test
	var sum float64
	correct := 0
	for o := 0; o < len(rows); o += evalChunk {
		b := min(evalChunk, len(rows)-o)
		x := scratch(&f.zbuf, b, d.Dim)
		y := make([]int, b)
		for i := range b {
			d.Row(rows[o+i], x.RawRowView(i))
			y[i] = d.Labels[rows[o+i]]
		}
		l, c := f.model.Eval(theta, x, y)
		sum += l
		correct += c
	}
	n := float64(len(rows))
	return sum / n, float64(correct) / n
}

// evalRows picks k test rows with rng (all of them when k is 0 or at
// least the test set).
func evalRows(test []int, k int, rng *rand.Rand) []int {
	if k <= 0 || k >= len(test) {
		return test
	}
	perm := rng.Perm(len(test))[:k]
	out := make([]int, k)
	for i, j := range perm {
		out[i] = test[j]
	}
	return out
}

// batchOf is a helper for tests: the rows rows of d as a matrix and labels.
func batchOf(d *Dataset, rows []int) (*mat.Dense, []int) {
	x := mat.NewDense(len(rows), d.Dim, nil)
	y := make([]int, len(rows))
	for i, r := range rows {
		d.Row(r, x.RawRowView(i))
		y[i] = d.Labels[r]
	}
	return x, y
}
