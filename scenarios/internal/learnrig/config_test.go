package learnrig

import (
	"strings"
	"testing"

	"syncsim/experiments"
	"syncsim/workloads/learn"
)

// modelParams resolves sets for model on a small synthetic mixture.
func modelParams(t *testing.T, model string, sets ...string) experiments.Params {
	t.Helper()
	e := With(&experiments.Experiment{Name: "t"}, Options{Target: 0.9})
	ps, err := e.Resolve(append([]string{"learn_model=" + model, "dataset=synthetic", "synth_dim=144"}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestConfigCarriesTheOptimiser: the optimiser and schedule parameters
// reach learn.Config as set, their defaults are plain SGD at a constant
// rate (the zero values, which step as SGD always did), and a schedule the
// learner cannot follow is refused by Validate (so --dry-run catches it).
func TestConfigCarriesTheOptimiser(t *testing.T) {
	c := Config(testRun(t, Options{Target: 0.9}).Params, 4)
	if c.Opt != (learn.Optimizer{}) || (c.Schedule.Kind != learn.ScheduleConstant || c.Schedule.WarmupIters != 0) {
		t.Errorf("defaults: optimiser %+v, schedule %+v; want plain SGD, constant", c.Opt, c.Schedule)
	}
	if f := c.Schedule.Factor(c.LR, 17); f != 1 {
		t.Errorf("the default schedule's factor is %g, not 1", f)
	}
	c = Config(modelParams(t, learn.ModelMLP3, "momentum=0.8", "nesterov=true", "weight_decay=0.01",
		"lr_schedule=step", "lr_warmup_iters=7", "lr_step_iters=30", "lr_step_factor=0.5"), 4)
	want := learn.Optimizer{Momentum: 0.8, Nesterov: true, WeightDecay: 0.01}
	if c.Model != learn.ModelMLP3 || c.Opt != want || c.Schedule.Kind != learn.ScheduleStep || c.Schedule.WarmupIters != 7 ||
		c.Schedule.StepIters != 30 || c.Schedule.StepFactor != 0.5 {
		t.Errorf("set: model %s, optimiser %+v, schedule %+v", c.Model, c.Opt, c.Schedule)
	}
	c = Config(testRun(t, Options{Target: 0.9}, "lr_schedule=cosine", "lr_cosine_iters=50", "lr_min=0.01").Params, 4)
	if c.Schedule.Kind != learn.ScheduleCosine || c.Schedule.CosineIters != 50 || c.Schedule.MinLR != 0.01 {
		t.Errorf("cosine: %+v", c.Schedule)
	}
	bad := testRun(t, Options{Target: 0.9}, "lr_schedule=cosine", "lr_cosine_iters=5", "lr_warmup_iters=5").Params
	if err := Validate(bad, 4); err == nil || !strings.Contains(err.Error(), "lr_cosine_iters") {
		t.Errorf("a cosine that ends before its warm-up: %v", err)
	}
	e := With(&experiments.Experiment{Name: "t"}, Options{Target: 0.9})
	img, err := e.Resolve([]string{"learn_model=cnn", "dataset=synthetic", "synth_dim=100"})
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(img, 4); err == nil || !strings.Contains(err.Error(), "square") {
		t.Errorf("a CNN on 100 features (10 x 10, too small): %v", err)
	}
	if err := Validate(modelParams(t, learn.ModelCNN), 4); err != nil {
		t.Errorf("a CNN on 12 x 12 images: %v", err)
	}
}
