package learn

import (
	"slices"
	"testing"
)

// TestScoredOnTestRows: evaluations score the test rows and nothing else.
// Train and test rows share one dataset here (as the synthetic and CSV
// splits do, so a wrong index list cannot crash): the 13 training rows
// are labelled 2, the 7 test rows 1 (three) or 0 (four), and every model
// predicts class 1. So the whole test set scores 3/7 exactly; any
// training row scored, or a test row missed, moves it.
func TestScoredOnTestRows(t *testing.T) {
	const n = 20
	d := &Dataset{Name: "rows", Dim: 2, Classes: 3, Labels: make([]int, n), floats: make([]float64, 2*n)}
	s := &Split{Train: d, Test: d}
	ones := 0
	for i := range n {
		d.floats[2*i], d.floats[2*i+1] = float64(i), float64(-i)
		if i%3 != 1 {
			s.TrainIdx = append(s.TrainIdx, i)
			d.Labels[i] = 2
			continue
		}
		s.TestIdx = append(s.TestIdx, i)
		if ones < 3 {
			d.Labels[i] = 1
			ones++
		}
	}
	if len(s.TestIdx) != 7 || len(s.TrainIdx) != 13 {
		t.Fatalf("%d test and %d training rows", len(s.TestIdx), len(s.TrainIdx))
	}
	for _, samples := range []int{0, 4} {
		cfg := Config{Model: ModelSoftmax, LR: 0.1, Batch: 2, Workers: 2, Partition: PartitionIID, TargetAcc: 0.4,
			EvalEvery: 1, EvalSamples: samples, SWAFactor: 0.5}
		f := newFleet(t, cfg, s, 1)
		// Softmax: W = 0, bias (0, 5, 0): class 1 for every row.
		always1 := make([]float64, f.np)
		always1[f.np-2] = 5
		for w := range 2 {
			copy(f.theta[w], always1)
			copy(f.swa[w], always1)
		}
		for _, r := range f.track.rows {
			if !slices.Contains(s.TestIdx, r) {
				t.Errorf("eval_samples %d: the periodic evaluation scores row %d, a training row", samples, r)
			}
		}
		if samples == 0 && len(f.track.rows) != 7 {
			t.Errorf("eval_samples 0: the periodic evaluation scores %d rows, want the 7 test rows", len(f.track.rows))
		}
		f.Start(0)
		res := f.Finish(1)
		if res.FinalAcc != 3.0/7 {
			t.Errorf("eval_samples %d: final accuracy %.6f, want 3/7 = %.6f (the test rows only)", samples, res.FinalAcc, 3.0/7)
		}
		if res.SWAAcc != 3.0/7 {
			t.Errorf("eval_samples %d: SWA accuracy %.6f, want 3/7", samples, res.SWAAcc)
		}
		if samples == 0 && res.Series[0][2] != 3.0/7 {
			t.Errorf("the first evaluation's accuracy %.6f, want 3/7", res.Series[0][2])
		}
	}
}
