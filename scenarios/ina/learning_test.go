package ina

import (
	"math"
	"testing"

	"syncsim/experiments/exptest"
)

// TestINALearningIsExactSum: every INA protocol delivers the exact sum of
// the gradients each iteration, so the learning is the same under each
// (same accuracy, same iterations to target, for each job) and only the
// time to accuracy differs, by the iteration times.
func TestINALearningIsExactSum(t *testing.T) {
	if testing.Short() {
		t.Skip("packet-level runs")
	}
	sets := []string{"model=custom", "gradient_mb=0.2", "iterations=16", "load=0.4",
		"learn_model=softmax", "dataset=synthetic", "synth_samples=3000", "synth_dim=10", "synth_classes=5", "synth_clusters=1", "synth_sep=2",
		"lr=0.5", "target_acc=0.7", "eval_every=1", "eval_samples=0"}
	var acc, iters, tta []float64
	for _, p := range []string{"atp", "pa-atp"} {
		res := exptest.Run(t, Testbed(), 2, append([]string{"protocol=" + p}, sets...)...)
		m := res.Metrics
		acc, iters, tta = append(acc, m["final_acc"]), append(iters, m["iters_to_target"]), append(tta, m["tta_s"])
		if math.IsNaN(m["tta_s"]) {
			t.Fatalf("%s: the target was not reached in 16 iterations (final accuracy %g)", p, m["final_acc"])
		}
	}
	if acc[0] != acc[1] || iters[0] != iters[1] {
		t.Errorf("exact sums learnt differently: accuracy %v, iterations to target %v", acc, iters)
	}
	if tta[0] == tta[1] {
		t.Errorf("both protocols reached the target at %g s", tta[0])
	}
}
