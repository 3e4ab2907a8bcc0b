package learn

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// TestScheduleByHand: the schedules' learning rates at chosen steps
// against values worked out by hand, lr = 0.1 throughout.
func TestScheduleByHand(t *testing.T) {
	const lr = 0.1
	for _, tc := range []struct {
		name string
		s    Schedule
		k    int
		want float64
	}{
		// Constant: lr at every step; 1 exactly (the bit-for-bit default).
		{"constant", Schedule{}, 0, 0.1},
		{"constant", Schedule{Kind: ScheduleConstant}, 12345, 0.1},
		// Warm-up over 4 steps: step k uses (k + 1) / 4 of lr.
		{"warmup k=0", Schedule{WarmupIters: 4}, 0, 0.025},                                                            // 0.1 x 1/4
		{"warmup k=1", Schedule{WarmupIters: 4}, 1, 0.05},                                                             // 0.1 x 2/4
		{"warmup k=2", Schedule{WarmupIters: 4}, 2, 0.075},                                                            // 0.1 x 3/4
		{"warmup k=3", Schedule{WarmupIters: 4}, 3, 0.1},                                                              // 0.1 x 4/4: the last warm-up step is at lr
		{"warmup k=10", Schedule{WarmupIters: 4}, 10, 0.1},                                                            // after the warm-up
		{"step k=9", Schedule{Kind: ScheduleStep, StepIters: 10, StepFactor: 0.1}, 9, 0.1},                            // 0.1 x 0.1^0
		{"step k=10", Schedule{Kind: ScheduleStep, StepIters: 10, StepFactor: 0.1}, 10, 0.01},                         // 0.1 x 0.1^1
		{"step k=25", Schedule{Kind: ScheduleStep, StepIters: 10, StepFactor: 0.1}, 25, 0.001},                        // 0.1 x 0.1^2
		{"step+warmup k=1", Schedule{Kind: ScheduleStep, StepIters: 10, StepFactor: 0.5, WarmupIters: 4}, 1, 0.05},    // 0.1 x 0.5^0 x 2/4
		{"step+warmup k=12", Schedule{Kind: ScheduleStep, StepIters: 10, StepFactor: 0.5, WarmupIters: 4}, 12, 0.05},  // 0.1 x 0.5^1
		{"step+warmup k=20", Schedule{Kind: ScheduleStep, StepIters: 10, StepFactor: 0.5, WarmupIters: 4}, 20, 0.025}, // 0.1 x 0.5^2
		// Cosine to 0 over 100 steps: (1 + cos(pi k / 100)) / 2 of lr.
		{"cosine k=0", Schedule{Kind: ScheduleCosine, CosineIters: 100}, 0, 0.1},
		{"cosine k=25", Schedule{Kind: ScheduleCosine, CosineIters: 100}, 25, 0.08535533905932738}, // 0.1 (1 + 0.7071067811865476) / 2
		{"cosine k=50", Schedule{Kind: ScheduleCosine, CosineIters: 100}, 50, 0.05},                // 0.1 (1 + 0) / 2
		{"cosine k=100", Schedule{Kind: ScheduleCosine, CosineIters: 100}, 100, 0},                 // 0.1 (1 - 1) / 2
		{"cosine k=150", Schedule{Kind: ScheduleCosine, CosineIters: 100}, 150, 0},                 // held at the floor
		// Cosine from 0.1 to 0.01 over steps 10..110 after a 10-step warm-up.
		{"cosine+warmup k=4", Schedule{Kind: ScheduleCosine, CosineIters: 110, WarmupIters: 10, MinLR: 0.01}, 4, 0.05},    // 0.1 x 5/10
		{"cosine+warmup k=60", Schedule{Kind: ScheduleCosine, CosineIters: 110, WarmupIters: 10, MinLR: 0.01}, 60, 0.055}, // q = 1/2: 0.01 + 0.09 / 2
		{"cosine+warmup k=110", Schedule{Kind: ScheduleCosine, CosineIters: 110, WarmupIters: 10, MinLR: 0.01}, 110, 0.01},
		{"cosine+warmup k=200", Schedule{Kind: ScheduleCosine, CosineIters: 110, WarmupIters: 10, MinLR: 0.01}, 200, 0.01},
	} {
		if err := tc.s.Check(lr); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := lr * tc.s.Factor(lr, tc.k); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("%s: lr %.17g, want %.17g", tc.name, got, tc.want)
		}
	}
	if f := (Schedule{}).Factor(lr, 7); f != 1 {
		t.Errorf("the constant schedule's factor is %.17g, not exactly 1", f)
	}
}

// TestScheduleRefused: schedules that cannot be followed name the
// parameter at fault, in one line.
func TestScheduleRefused(t *testing.T) {
	for _, tc := range []struct {
		s    Schedule
		want string
	}{
		{Schedule{Kind: ScheduleStep}, "lr_step_iters"},
		{Schedule{Kind: ScheduleStep, StepIters: 5, StepFactor: 1.5}, "lr_step_factor"},
		{Schedule{Kind: ScheduleCosine, CosineIters: 10, WarmupIters: 10}, "lr_cosine_iters"},
		{Schedule{Kind: ScheduleCosine, CosineIters: 10, MinLR: 0.2}, "lr_min"},
		{Schedule{WarmupIters: -1}, "lr_warmup_iters"},
		{Schedule{Kind: "linear"}, "lr_schedule"},
	} {
		err := tc.s.Check(0.1)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: %v, want one line naming %s", tc.s, err, tc.want)
		}
	}
	for _, o := range []Optimizer{{Momentum: 1}, {Momentum: -0.1}, {WeightDecay: -1}, {WeightDecay: math.NaN()}} {
		if err := o.Check(); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// TestOptimizerByHand: the optimiser's steps on a two-element vector
// against values worked out by hand, lr = 0.1.
func TestOptimizerByHand(t *testing.T) {
	type step struct{ g, want []float64 } // gradient (before decay), x after the step
	for _, tc := range []struct {
		name  string
		o     Optimizer
		x     []float64
		steps []step
	}{
		{"sgd", Optimizer{}, []float64{1, -2}, []step{
			{[]float64{0.5, 1}, []float64{0.95, -2.1}}, // x - 0.1 g
		}},
		// Heavy ball, mu = 0.9: v1 = g1 = 0.5, x = 1 - 0.05 = 0.95;
		// v2 = 0.45 + 0.5 = 0.95, x = 0.95 - 0.095 = 0.855;
		// v3 = 0.855 - 1 = -0.145, x = 0.855 + 0.0145 = 0.8695.
		// Second element, g = 1, 1, 1: v = 1, 1.9, 2.71; x = -2.1, -2.29, -2.561.
		{"momentum", Optimizer{Momentum: 0.9}, []float64{1, -2}, []step{
			{[]float64{0.5, 1}, []float64{0.95, -2.1}},
			{[]float64{0.5, 1}, []float64{0.855, -2.29}},
			{[]float64{-1, 1}, []float64{0.8695, -2.561}},
		}},
		// Nesterov, mu = 0.9: v1 = 0.5, d = 0.5 + 0.45 = 0.95,
		// x = 1 - 0.095 = 0.905; v2 = 0.95, d = 0.5 + 0.855 = 1.355,
		// x = 0.905 - 0.1355 = 0.7695.
		// Second element, g = 1, 1: v = 1, d = 1.9, x = -2.19; v = 1.9,
		// d = 1 + 1.71 = 2.71, x = -2.461.
		{"nesterov", Optimizer{Momentum: 0.9, Nesterov: true}, []float64{1, -2}, []step{
			{[]float64{0.5, 1}, []float64{0.905, -2.19}},
			{[]float64{0.5, 1}, []float64{0.7695, -2.461}},
		}},
		// Weight decay 0.01 at x = 2: g' = 0.5 + 0.02 = 0.52,
		// x = 2 - 0.052 = 1.948. Second element at -2, g = 0:
		// g' = -0.02, x = -2 + 0.002 = -1.998.
		{"weight decay", Optimizer{WeightDecay: 0.01}, []float64{2, -2}, []step{
			{[]float64{0.5, 0}, []float64{1.948, -1.998}},
		}},
		// Weight decay 0.01 with momentum 0.9: as above, then at
		// x = 1.948: g' = 0.5 + 0.01948 = 0.51948,
		// v = 0.9 x 0.52 + 0.51948 = 0.98748, x = 1.948 - 0.098748 = 1.849252.
		// Second element at -1.998, g = 0: g' = -0.01998,
		// v = -0.018 - 0.01998 = -0.03798, x = -1.998 + 0.003798 = -1.994202.
		{"weight decay+momentum", Optimizer{Momentum: 0.9, WeightDecay: 0.01}, []float64{2, -2}, []step{
			{[]float64{0.5, 0}, []float64{1.948, -1.998}},
			{[]float64{0.5, 0}, []float64{1.849252, -1.994202}},
		}},
	} {
		x := append([]float64(nil), tc.x...)
		v := make([]float64, len(x))
		for i, st := range tc.steps {
			g := append([]float64(nil), st.g...)
			tc.o.decay(g, x)
			tc.o.step(x, v, g, 0.1)
			if d := maxAbsDiff(x, st.want); d > 1e-14 {
				t.Errorf("%s step %d: x = %v, want %v", tc.name, i+1, x, st.want)
			}
		}
	}
}

// optCases are the optimisers the fleet tests run beside plain SGD.
var optCases = []struct {
	name  string
	opt   Optimizer
	sched Schedule
}{
	{"momentum", Optimizer{Momentum: 0.9}, Schedule{}},
	{"nesterov-wd", Optimizer{Momentum: 0.9, Nesterov: true, WeightDecay: 5e-4}, Schedule{}},
	{"wd-warmup-step", Optimizer{WeightDecay: 1e-3}, Schedule{Kind: ScheduleStep, WarmupIters: 5, StepIters: 10, StepFactor: 0.5}},
	{"momentum-warmup-cosine", Optimizer{Momentum: 0.8}, Schedule{Kind: ScheduleCosine, WarmupIters: 4, CosineIters: 30, MinLR: 0.001}},
}

// TestOneWorkerIsTraining: one worker under every optimiser and schedule
// is single-machine training, step by step: an independent loop over the
// same batches that applies decay, momentum and the rate written out here.
func TestOneWorkerIsTraining(t *testing.T) {
	for _, name := range ModelNames {
		s := splitFor(t, name, 4, 6, 600, 2)
		for _, oc := range optCases {
			cfg := baseConfig(name, 1)
			cfg.Opt, cfg.Schedule = oc.opt, oc.sched
			f := newFleet(t, cfg, s, 3)
			ref := newFleet(t, cfg, s, 3)
			theta := append([]float64(nil), ref.theta[0]...)
			v := make([]float64, len(theta))
			g := make([]float64, len(theta))
			rate := func(k int) float64 { // the schedule, written out
				sc := oc.sched
				r := cfg.LR
				switch sc.Kind {
				case ScheduleStep:
					for range k / sc.StepIters {
						r *= sc.StepFactor
					}
				case ScheduleCosine:
					q := math.Max(0, math.Min(1, float64(k-sc.WarmupIters)/float64(sc.CosineIters-sc.WarmupIters)))
					r = sc.MinLR + (cfg.LR-sc.MinLR)*0.5*(1+math.Cos(math.Pi*q))
				}
				if k < sc.WarmupIters {
					r = r * float64(k+1) / float64(sc.WarmupIters)
				}
				return r
			}
			for k := range 40 {
				f.Step(float64(k), 0)
				f.Round(float64(k), 0)
				ref.sample[0].next(s.Train, ref.x, ref.y)
				ref.model.Grad(theta, g, ref.x, ref.y)
				mu, lr := oc.opt.Momentum, rate(k)
				for i := range theta {
					gi := g[i] + oc.opt.WeightDecay*theta[i]
					v[i] = mu*v[i] + gi
					d := v[i]
					if oc.opt.Nesterov {
						d = gi + mu*v[i]
					}
					theta[i] -= lr * d
				}
				if d := maxAbsDiff(f.Params(0), theta); d > 1e-12 {
					t.Fatalf("%s %s: step %d differs from single-machine training by %g", name, oc.name, k, d)
				}
			}
		}
	}
}

// TestASPServerOptimizer: the parameter server steps its own momentum,
// at ASPLR times the schedule's factor at the pushing worker's step.
func TestASPServerOptimizer(t *testing.T) {
	s := smallSplit(t, 3, 4, 300, 2)
	cfg := baseConfig(ModelSoftmax, 2)
	cfg.Opt = Optimizer{Momentum: 0.5}
	cfg.Schedule = Schedule{WarmupIters: 2}
	f := newFleet(t, cfg, s, 4)
	init := f.Params(0)
	f.Grad(0, 0)
	f.Grad(0, 1)
	f.Do(Op{Kind: OpPush, W: 1})
	f.Do(Op{Kind: OpPush, W: 0})
	// Both gradients are their workers' step 0, warm-up factor 1/2, at
	// ASPLR = lr / 2: a = 0.1 / 2 / 2 = 0.025. First push: v = g1,
	// x = init - a g1; second: v = 0.5 g1 + g0, x -= a (0.5 g1 + g0).
	a := 0.025
	want := append([]float64(nil), init...)
	floats.AddScaled(want, -a*1.5, f.grad[1])
	floats.AddScaled(want, -a, f.grad[0])
	if d := maxAbsDiff(f.Server(), want); d > 1e-15 {
		t.Errorf("server differs from init - a (1.5 g1 + g0) by %g", d)
	}
	if d := maxAbsDiff(f.Params(0), init); d != 0 {
		t.Errorf("a push moved the worker's own model by %g", d)
	}
}

// TestDeterministic: the same seed gives the same models bit for bit under
// every model and optimiser, with averages and gossip in the schedule; a
// different seed does not.
func TestDeterministic(t *testing.T) {
	for _, name := range ModelNames {
		s := splitFor(t, name, 3, 5, 400, 2)
		cfg := baseConfig(name, 3)
		cfg.Opt = Optimizer{Momentum: 0.9, Nesterov: true, WeightDecay: 1e-3}
		cfg.Schedule = Schedule{Kind: ScheduleCosine, WarmupIters: 3, CosineIters: 20}
		run := func(seed uint64) *Fleet {
			f := newFleet(t, cfg, s, seed)
			for k := range 8 {
				for w := range 3 {
					f.Step(float64(k), w)
				}
				f.Average(float64(k), []int{k % 3, (k + 1) % 3}, nil, 0)
				f.Do(Op{Kind: OpSend, W: 2, Peer: 0, Iter: k})
				f.Do(Op{Kind: OpRecv, W: 0, Peer: 2, Iter: k})
				f.Round(float64(k), k%3)
			}
			return f
		}
		a, b, c := run(11), run(11), run(12)
		for w := range 3 {
			if d := maxAbsDiff(a.Params(w), b.Params(w)); d != 0 {
				t.Errorf("%s: worker %d differs by %g between two runs of one seed", name, w, d)
			}
		}
		if d := maxAbsDiff(a.Params(0), c.Params(0)); d == 0 {
			t.Errorf("%s: seeds 11 and 12 gave the same model", name)
		}
	}
}
