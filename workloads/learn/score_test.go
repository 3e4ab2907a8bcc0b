package learn

import (
	"math"
	"slices"
	"testing"
)

// lineSplit is a one-feature, two-class set whose four rows are both the
// training and the test set: x = +1 is class 1, x = -1 class 0.
func lineSplit() *Split {
	d := &Dataset{Name: "line", Dim: 1, Classes: 2, Labels: []int{1, 1, 0, 0}, floats: []float64{1, 1, -1, -1}}
	idx := []int{0, 1, 2, 3}
	return &Split{Train: d, Test: d, TrainIdx: idx, TestIdx: idx}
}

// Softmax models on lineSplit, theta = [W0 W1 b0 b1] (logit k = x Wk + bk).
var (
	lineGood = []float64{-1, 1, 0, 0}     // sign(x): every row right
	lineHalf = []float64{-0.5, 0.5, 0, 0} // the same classifier, smaller
	lineOnes = []float64{0, 0, 0, 0.5}    // class 1 always: half right
)

// TestScoreViews: a hand-worked fleet of three softmax workers on
// lineSplit, where the average of the workers' models classifies every
// row right while one worker's own model gets half of them. Each view's
// accuracy and first crossing of the target are those worked out by hand,
// and the scored view (EvalModel) is what test_acc, final_acc and tta_s
// report.
func TestScoreViews(t *testing.T) {
	// Evaluations at t = 1, 2, 3 (iterations 10 t) with these models:
	steps := [][3][]float64{
		// average [-0.5 0.5 0 0.167]: right everywhere (1); workers 0.5, 1, 1:
		// mean 0.833, worst 0.5, worker 0 0.5.
		{lineOnes, lineGood, lineHalf},
		// workers 1, 1, 0.5: worker 0 reaches the target, the worst does not.
		{lineGood, lineHalf, lineOnes},
		// all the same model: every view at 1 (and one evaluation of it).
		{lineGood, lineGood, lineGood},
	}
	want := []struct{ avg, w0, mean, worst float64 }{
		{1, 0.5, 2.5 / 3, 0.5},
		{1, 1, 2.5 / 3, 0.5},
		{1, 1, 1, 1},
	}
	// First evaluation at or above 0.8, by view.
	firstAt := map[string]float64{EvalAverage: 1, EvalWorker0: 2, EvalWorkerMean: 1, EvalWorkerMin: 3}
	for _, m := range EvalModelNames {
		t.Run(m, func(t *testing.T) {
			cfg := Config{Model: ModelSoftmax, LR: 0.1, Batch: 1, Workers: 3, Partition: PartitionIID,
				TargetAcc: 0.8, EvalEvery: 1, EvalModel: m}
			f := newFleet(t, cfg, lineSplit(), 1)
			for k, models := range steps {
				for w, p := range models {
					copy(f.theta[w], p)
				}
				s := f.Score(f.split.TestIdx)
				mean, _ := s.WorkerMean()
				worst, worstLoss := s.WorkerMin()
				got := []float64{s.AvgAcc, s.WorkerAcc[0], mean, worst}
				w := want[k]
				for i, x := range []float64{w.avg, w.w0, w.mean, w.worst} {
					if math.Abs(got[i]-x) > 1e-12 {
						t.Errorf("evaluation %d: avg, worker 0, mean, worst = %v, want %v", k+1, got, []float64{w.avg, w.w0, w.mean, w.worst})
						break
					}
				}
				// Each worker's score is its own model's, evaluated alone.
				for wk, p := range models {
					l, a := f.Evaluate(p, f.split.TestIdx)
					if s.WorkerAcc[wk] != a || s.WorkerLoss[wk] != l {
						t.Errorf("evaluation %d: worker %d scored %g, %g; alone %g, %g", k+1, wk, s.WorkerAcc[wk], s.WorkerLoss[wk], a, l)
					}
				}
				// The worst model of the first two evaluations is lineOnes.
				if l, _ := f.Evaluate(lineOnes, f.split.TestIdx); k < 2 && worstLoss != l {
					t.Errorf("evaluation %d: the worst worker's loss is %g, lineOnes' %g", k+1, worstLoss, l)
				}
				f.track.eval(float64(k+1), float64(10*(k+1)))
				row := f.track.rowsOut[len(f.track.rowsOut)-1]
				acc, _ := s.Of(m)
				if row[2] != acc || row[5] != s.AvgAcc || row[6] != mean || row[7] != worst {
					t.Errorf("evaluation %d: series row %v, want test_acc %g (%s), avg_acc %g, mean %g, worst %g", k+1, row, acc, m, s.AvgAcc, mean, worst)
				}
			}
			r := f.Finish(4)
			if r.TTA != firstAt[m] || r.ItersToTarget != 10*firstAt[m] {
				t.Errorf("tta %g at iteration %g, want %g at %g", r.TTA, r.ItersToTarget, firstAt[m], 10*firstAt[m])
			}
			if r.TTAAvg != 1 || r.TTAWorkerMean != 1 || r.TTAWorkerMin != 3 {
				t.Errorf("tta of the average, workers' mean, worst = %g, %g, %g; want 1, 1, 3", r.TTAAvg, r.TTAWorkerMean, r.TTAWorkerMin)
			}
			if r.FinalAcc != 1 || r.AvgAcc != 1 || r.WorkerAccMean != 1 || r.WorkerAccMin != 1 {
				t.Errorf("final accuracies %+v, want 1 everywhere", r)
			}
		})
	}
}

// TestScoreOfOneWorkerIsTheAverage: with one worker, its own model is the
// average model, so every view scores the same.
func TestScoreOfOneWorkerIsTheAverage(t *testing.T) {
	s := smallSplit(t, 4, 6, 600, 2)
	f := newFleet(t, baseConfig(ModelMLP, 1), s, 3)
	for k := range 20 {
		f.Step(float64(k), 0)
	}
	sc := f.Score(s.TestIdx)
	for _, m := range EvalModelNames {
		if a, l := sc.Of(m); a != sc.AvgAcc || l != sc.AvgLoss {
			t.Errorf("%s scores %g, %g; the average %g, %g", m, a, l, sc.AvgAcc, sc.AvgLoss)
		}
	}
}

// TestEvalModelRefused: an unknown evaluation model is one clear error.
func TestEvalModelRefused(t *testing.T) {
	cfg := baseConfig(ModelSoftmax, 2)
	cfg.EvalModel = "median"
	if _, err := NewFleet(cfg, lineSplit(), streams(1)); err == nil || err.Error() != `learning: eval_model "median" (allowed: average, worker0, worker-mean, worker-min)` {
		t.Errorf("got %v", err)
	}
}

// TestMeanIsTheSameEveryTime: the average with push-sum messages in
// flight is summed in a fixed order, so it is bit for bit the same however
// often it is taken (a map's order changes from one range to the next;
// summing messages in that order changed the last digits of
// consensus_dist between runs of one seed).
func TestMeanIsTheSameEveryTime(t *testing.T) {
	s := smallSplit(t, 4, 6, 600, 2)
	cfg := baseConfig(ModelMLP, 8)
	cfg.Pieces = []float64{1, 1}
	f := newFleet(t, cfg, s, 3)
	for w := range 8 {
		f.Step(0, w)
		for p := range 2 {
			f.Do(Op{Kind: OpSend, W: w, Peer: (w + 1 + p) % 8, Piece: p})
		}
	}
	first := f.Mean()
	for k := range 50 {
		if d := f.Mean(); !slices.Equal(d, first) {
			t.Fatalf("take %d of the average differs from the first by up to %g", k+2, maxAbsDiff(d, first))
		}
	}
}
