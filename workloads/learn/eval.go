package learn

import (
	"math/rand/v2"
	"slices"

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
// Workers that all hold the same model (BSP, INA) have that model as
// their average, exactly, not to rounding.
func (f *Fleet) Mean() []float64 {
	if f.server != nil {
		return append([]float64(nil), f.server...)
	}
	if f.agree() {
		return append([]float64(nil), f.theta[0]...)
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

// agree reports whether every worker holds the same model bit for bit,
// with push-sum weights of 1 and no message in flight.
func (f *Fleet) agree() bool {
	if len(f.mail) > 0 {
		return false
	}
	for w := range f.n {
		if f.biased(w) || w > 0 && !slices.Equal(f.theta[w], f.theta[0]) {
			return false
		}
	}
	return true
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
	l, a := f.evaluateMany([][]float64{theta}, rows)
	return l[0], a[0]
}

// evaluateMany is Evaluate for several models at once: each chunk of test
// rows is decoded once and every model is scored on it, so that n models
// cost n forward passes and one decoding.
func (f *Fleet) evaluateMany(thetas [][]float64, rows []int) (loss, acc []float64) {
	d := f.split.Test
	sum := make([]float64, len(thetas))
	correct := make([]int, len(thetas))
	for o := 0; o < len(rows); o += evalChunk {
		b := min(evalChunk, len(rows)-o)
		x := scratch(&f.zbuf, b, d.Dim)
		y := make([]int, b)
		for i := range b {
			d.Row(rows[o+i], x.RawRowView(i))
			y[i] = d.Labels[rows[o+i]]
		}
		for k, theta := range thetas {
			l, c := f.model.Eval(theta, x, y)
			sum[k] += l
			correct[k] += c
		}
	}
	n := float64(len(rows))
	loss, acc = make([]float64, len(thetas)), make([]float64, len(thetas))
	for k := range thetas {
		loss[k], acc[k] = sum[k]/n, float64(correct[k])/n
	}
	return loss, acc
}

// Scores are one evaluation of the fleet on the same test rows: the
// average model (Fleet.Mean) and every worker's own model (push-sum: its
// de-biased z = x / weight; ASP: the copy it last pulled).
type Scores struct {
	// AvgAcc and AvgLoss are the average model's accuracy and mean
	// cross-entropy.
	AvgAcc, AvgLoss float64
	// WorkerAcc and WorkerLoss are worker w's own model's, at w.
	WorkerAcc, WorkerLoss []float64
	mean                  []float64 // the average model
}

// Score evaluates the average model and every worker's own model on the
// test rows rows. Workers holding bit-identical models (all of them under
// BSP and INA, a partial reduce's members until their next step) are
// evaluated once: n workers cost at most n evaluations more than the
// average alone, and identical ones (the average among them) nothing.
func (f *Fleet) Score(rows []int) Scores {
	models := [][]float64{f.Mean()}
	of := make([]int, f.n) // worker w's model is models[of[w]]
	for w := range f.n {
		p := f.theta[w]
		if f.biased(w) {
			p = f.Params(w)
		}
		of[w] = -1
		for k := range models {
			if slices.Equal(models[k], p) {
				of[w] = k
				break
			}
		}
		if of[w] < 0 {
			of[w] = len(models)
			models = append(models, p)
		}
	}
	loss, acc := f.evaluateMany(models, rows)
	s := Scores{AvgAcc: acc[0], AvgLoss: loss[0], WorkerAcc: make([]float64, f.n), WorkerLoss: make([]float64, f.n), mean: models[0]}
	for w, k := range of {
		s.WorkerAcc[w], s.WorkerLoss[w] = acc[k], loss[k]
	}
	return s
}

// WorkerMean is the mean over workers of their own models' accuracy and
// loss (workers that score alike: their score, not a rounded sum).
func (s Scores) WorkerMean() (acc, loss float64) {
	if a, l := s.WorkerMin(); a == slices.Max(s.WorkerAcc) && l == slices.Max(s.WorkerLoss) && l == slices.Min(s.WorkerLoss) {
		return a, l
	}
	for w, a := range s.WorkerAcc {
		acc += a
		loss += s.WorkerLoss[w]
	}
	n := float64(len(s.WorkerAcc))
	return acc / n, loss / n
}

// WorkerMin is the accuracy of the worst worker's own model and its loss
// (the lowest-numbered of equally accurate workers).
func (s Scores) WorkerMin() (acc, loss float64) {
	worst := 0
	for w, a := range s.WorkerAcc {
		if a < s.WorkerAcc[worst] {
			worst = w
		}
	}
	return s.WorkerAcc[worst], s.WorkerLoss[worst]
}

// Of is the accuracy and loss that evaluation model m (an EvalModel
// name) scores.
func (s Scores) Of(m string) (acc, loss float64) {
	switch m {
	case EvalWorker0:
		return s.WorkerAcc[0], s.WorkerLoss[0]
	case EvalWorkerMean:
		return s.WorkerMean()
	case EvalWorkerMin:
		return s.WorkerMin()
	}
	return s.AvgAcc, s.AvgLoss
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
