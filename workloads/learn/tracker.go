package learn

import (
	"math"
	"math/rand/v2"
)

// SeriesColumns are the columns of the learning series, one row per
// evaluation: simulated time, mean completed rounds per worker, test
// accuracy and loss of the learnt model (Fleet.Mean) on the evaluation
// rows, and the consensus distance.
var SeriesColumns = []string{"t_s", "iteration", "test_acc", "test_loss", "consensus_dist"}

// tracker evaluates the learnt model every EvalEvery mean rounds and
// notes the first time it reaches the target accuracy.
type tracker struct {
	f        *Fleet
	rows     []int // evaluation rows of the test set
	total    int   // rounds completed, all workers
	next     float64
	rowsOut  [][]float64
	emit     func(row []float64) // set by SetSeries: rows go here, not to rowsOut
	ttaS     float64
	ttaIters float64
	lastT    float64
}

func newTracker(f *Fleet, rng *rand.Rand) *tracker {
	t := &tracker{f: f, rows: evalRows(f.split.TestIdx, f.cfg.EvalSamples, rng), ttaS: math.NaN(), ttaIters: math.NaN()}
	return t
}

// round books one completed round at time now and evaluates when the
// mean rounds per worker reach the next multiple of EvalEvery.
func (t *tracker) round(now float64) {
	t.total++
	t.lastT = now
	iters := float64(t.total) / float64(t.f.n)
	if iters+1e-12 >= t.next {
		t.eval(now, iters)
		for t.next <= iters+1e-12 {
			t.next += t.f.cfg.EvalEvery
		}
	}
}

// SetSeries hands every later row of the learning series (SeriesColumns)
// to emit as it is evaluated, instead of keeping it for Result.Series,
// so that a long run holds none: emit may write the row out (it must
// not keep the slice) or drop it. Call it before Start.
func (f *Fleet) SetSeries(emit func(row []float64)) { f.track.emit = emit }

// Start evaluates the initial model at time now (the first row).
func (f *Fleet) Start(now float64) {
	f.track.eval(now, 0)
	f.track.next = f.cfg.EvalEvery
}

func (t *tracker) eval(now, iters float64) {
	mean := t.f.Mean()
	loss, acc := t.f.Evaluate(mean, t.rows)
	row := []float64{now, iters, acc, loss, t.f.ConsensusDist(mean)}
	if t.emit != nil {
		t.emit(row)
	} else {
		t.rowsOut = append(t.rowsOut, row)
	}
	if math.IsNaN(t.ttaS) && acc >= t.f.cfg.TargetAcc {
		t.ttaS, t.ttaIters = now, iters
	}
}

// Result is what a training run measured.
type Result struct {
	// FinalAcc and FinalLoss are the test accuracy and mean cross-entropy
	// of the learnt model (Fleet.Mean) on the whole test set at the end.
	FinalAcc, FinalLoss float64
	// TTA is the simulated time of the first evaluation at or above the
	// target accuracy, ItersToTarget the mean rounds per worker then (NaN
	// if never).
	TTA, ItersToTarget float64
	// ConsensusDist is the mean squared distance of the workers' models
	// from their average at the end.
	ConsensusDist float64
	// SWAAcc is the test accuracy of the average of the workers' SWA
	// models (NaN without SWA).
	SWAAcc float64
	// Iterations is the mean rounds per worker completed.
	Iterations float64
	// Series is the learning series (SeriesColumns).
	Series [][]float64
}

// Finish evaluates the learnt model on the whole test set at time now
// and returns the run's results.
func (f *Fleet) Finish(now float64) Result {
	t := f.track
	mean := f.Mean()
	r := Result{TTA: t.ttaS, ItersToTarget: t.ttaIters, SWAAcc: math.NaN(), Series: t.rowsOut,
		Iterations: float64(t.total) / float64(f.n)}
	r.FinalLoss, r.FinalAcc = f.Evaluate(mean, f.split.TestIdx)
	r.ConsensusDist = f.ConsensusDist(mean)
	if f.swa != nil {
		ens := make([]float64, f.np)
		for w := range f.n {
			for i, v := range f.swa[w] {
				ens[i] += v
			}
		}
		for i := range ens {
			ens[i] /= float64(f.n)
		}
		_, r.SWAAcc = f.Evaluate(ens, f.split.TestIdx)
	}
	return r
}
