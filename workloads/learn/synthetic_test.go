package learn

import (
	"math/rand/v2"
	"testing"
)

// TestSyntheticDefaultTakesHundreds: the default synthetic set is a task
// whose learning takes hundreds of iterations, not a plateau reached in a
// few: one MLP worker (lr 0.1, batch 32) is far from its accuracy after
// 30 steps and still gaining between 100 and 1000, and a linear model
// cannot learn it (a class is a union of scattered clusters). One
// cluster per class, the earlier default, is the contrast: softmax is at
// its plateau within 30 steps.
func TestSyntheticDefaultTakesHundreds(t *testing.T) {
	split := func(c SyntheticConfig) *Split {
		d, err := Synthetic(c, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		s, err := RandomSplit(d, 0.2, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// curve trains one worker and returns the test accuracy after each
	// number of steps in at.
	curve := func(s *Split, model string, at ...int) []float64 {
		f := newFleet(t, Config{Model: model, Hidden: 128, LR: 0.1, Batch: 32, Workers: 1, Partition: PartitionIID,
			TargetAcc: 0.9, EvalEvery: 1e9}, s, 1)
		var out []float64
		for k := 1; k <= at[len(at)-1]; k++ {
			f.Step(0, 0)
			if k == at[len(out)] {
				_, a := f.Evaluate(f.theta[0], s.TestIdx)
				out = append(out, a)
			}
		}
		return out
	}
	def := split(DefaultSynthetic)
	mlp := curve(def, ModelMLP, 30, 100, 1000)
	t.Logf("default, MLP after 30, 100, 1000 steps: %.3f", mlp)
	if !(mlp[0] < 0.7 && mlp[1] < 0.85 && mlp[2] > 0.92 && mlp[2]-mlp[1] > 0.08) {
		t.Errorf("MLP accuracy after 30, 100, 1000 steps %.3f: want below 0.7 and 0.85, then above 0.92, gaining 0.08 or more after step 100", mlp)
	}
	soft := curve(def, ModelSoftmax, 1000)
	if soft[0] > 0.75 {
		t.Errorf("softmax reaches %.3f on clusters a linear model cannot separate", soft[0])
	}
	one := DefaultSynthetic
	one.Clusters, one.Separation = 1, 2
	easy := curve(split(one), ModelSoftmax, 30, 1000)
	t.Logf("one cluster per class, separation 2, softmax after 30 and 1000 steps: %.3f", easy)
	if easy[1]-easy[0] > 0.03 {
		t.Errorf("one cluster per class: softmax %.3f after 30 steps, %.3f after 1000: want its plateau within 30", easy[0], easy[1])
	}
}
