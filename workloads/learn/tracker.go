package learn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// Evaluation models: which model's accuracy is the run's score
// (Config.EvalModel). Every evaluation scores all of them on the same
// test rows; the choice only says which one test_acc, tta_s and final_acc
// report.
const (
	// EvalAverage is the average of the workers' models (Fleet.Mean; ASP:
	// the server's model), a model only BSP, INA and ASP actually build.
	EvalAverage = "average"
	// EvalWorker0 is worker 0's own model.
	EvalWorker0 = "worker0"
	// EvalWorkerMean is the mean accuracy (and loss) of the workers' own
	// models: the expected score of the model one worker holds.
	EvalWorkerMean = "worker-mean"
	// EvalWorkerMin is the worst worker's own model: the target counts as
	// reached when every worker holds a model at or above it.
	EvalWorkerMin = "worker-min"
)

// EvalModelNames lists the evaluation models.
var EvalModelNames = []string{EvalAverage, EvalWorker0, EvalWorkerMean, EvalWorkerMin}

// checkEvalModel accepts "" (EvalAverage) and the EvalModelNames.
func checkEvalModel(m string) error {
	if m == "" || slices.Contains(EvalModelNames, m) {
		return nil
	}
	return fmt.Errorf("learning: eval_model %q (allowed: %s)", m, strings.Join(EvalModelNames, ", "))
}

// SeriesColumns are the columns of the learning series, one row per
// evaluation: simulated time, mean completed rounds per worker, test
// accuracy and loss of the scored model (Config.EvalModel) on the
// evaluation rows, the consensus distance, and on the same rows the
// accuracy of the average model and the mean and the worst of the
// workers' own models.
var SeriesColumns = []string{"t_s", "iteration", "test_acc", "test_loss", "consensus_dist", "avg_acc", "worker_acc_mean", "worker_acc_min"}

// views are the scores whose first crossing of the target the tracker
// notes: the scored model's, then the average's, the workers' mean and
// the worst worker's.
const (
	viewScored = iota
	viewAverage
	viewWorkerMean
	viewWorkerMin
	nViews
)

// tracker evaluates the fleet every EvalEvery mean rounds and notes the
// first time each view reaches the target accuracy.
type tracker struct {
	f        *Fleet
	model    string // Config.EvalModel
	rows     []int  // evaluation rows of the test set
	total    int    // rounds completed, all workers
	next     float64
	rowsOut  [][]float64
	emit     func(row []float64) // set by SetSeries: rows go here, not to rowsOut
	ttaS     [nViews]float64
	ttaIters [nViews]float64
	lastT    float64
}

func newTracker(f *Fleet, rng *rand.Rand) *tracker {
	t := &tracker{f: f, model: f.cfg.EvalModel, rows: evalRows(f.split.TestIdx, f.cfg.EvalSamples, rng)}
	for v := range nViews {
		t.ttaS[v], t.ttaIters[v] = math.NaN(), math.NaN()
	}
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

// eval scores the fleet on the evaluation rows (the average and every
// worker's own model, Fleet.Score), writes a series row and notes each
// view's first evaluation at or above the target.
func (t *tracker) eval(now, iters float64) {
	s := t.f.Score(t.rows)
	acc, loss := s.Of(t.model)
	mean, _ := s.WorkerMean()
	worst, _ := s.WorkerMin()
	row := []float64{now, iters, acc, loss, t.f.ConsensusDist(s.mean), s.AvgAcc, mean, worst}
	if t.emit != nil {
		t.emit(row)
	} else {
		t.rowsOut = append(t.rowsOut, row)
	}
	for v, a := range [nViews]float64{acc, s.AvgAcc, mean, worst} {
		if math.IsNaN(t.ttaS[v]) && a >= t.f.cfg.TargetAcc {
			t.ttaS[v], t.ttaIters[v] = now, iters
		}
	}
}

// Result is what a training run measured.
type Result struct {
	// FinalAcc and FinalLoss are the test accuracy and mean cross-entropy
	// of the scored model (Config.EvalModel) on the whole test set at the
	// end.
	FinalAcc, FinalLoss float64
	// TTA is the simulated time of the first evaluation at which the
	// scored model is at or above the target accuracy, ItersToTarget the
	// mean rounds per worker then (NaN if never).
	TTA, ItersToTarget float64
	// AvgAcc is the final accuracy of the average model (Fleet.Mean),
	// WorkerAccMean and WorkerAccMin the mean and the lowest of the
	// workers' own models' final accuracies, all on the whole test set.
	AvgAcc, WorkerAccMean, WorkerAccMin float64
	// TTAAvg, TTAWorkerMean and TTAWorkerMin are the first evaluations at
	// which the average model, the workers' mean accuracy and the worst
	// worker's accuracy reach the target (NaN if never).
	TTAAvg, TTAWorkerMean, TTAWorkerMin float64
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

// Finish scores the fleet on the whole test set at time now and returns
// the run's results.
func (f *Fleet) Finish(now float64) Result {
	t := f.track
	r := Result{TTA: t.ttaS[viewScored], ItersToTarget: t.ttaIters[viewScored],
		TTAAvg: t.ttaS[viewAverage], TTAWorkerMean: t.ttaS[viewWorkerMean], TTAWorkerMin: t.ttaS[viewWorkerMin],
		SWAAcc: math.NaN(), Series: t.rowsOut, Iterations: float64(t.total) / float64(f.n)}
	s := f.Score(f.split.TestIdx)
	r.FinalAcc, r.FinalLoss = s.Of(t.model)
	r.AvgAcc = s.AvgAcc
	r.WorkerAccMean, _ = s.WorkerMean()
	r.WorkerAccMin, _ = s.WorkerMin()
	r.ConsensusDist = f.ConsensusDist(s.mean)
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
