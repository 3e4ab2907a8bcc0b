package learn

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// Learning-rate schedule names.
const (
	ScheduleConstant = "constant"
	ScheduleStep     = "step"
	ScheduleCosine   = "cosine"
)

// ScheduleNames lists the learning-rate schedules.
var ScheduleNames = []string{ScheduleConstant, ScheduleStep, ScheduleCosine}

// Schedule is the learning rate as a function of the step: step k (from 0)
// of a worker uses LR x Factor(k).
//
// Warm-up (Goyal et al. 2017, "Accurate, large minibatch SGD: training
// ImageNet in 1 hour", Sec. 2.2, gradual warm-up): the first WarmupIters
// steps ramp linearly, step k < WarmupIters using (k + 1) / WarmupIters
// of the rate the decay gives it, so the last warm-up step reaches it.
//
// Decay, after or under the warm-up:
//
//   - constant: none.
//   - step: multiplied by StepFactor every StepIters steps, StepFactor ^
//     floor(k / StepIters), counted from step 0 (PyTorch's StepLR,
//     torch/optim/lr_scheduler.py; Goyal et al. divide by 10 at fixed
//     epochs counted from the start, warm-up included).
//   - cosine: from LR at the end of the warm-up to MinLR at step
//     CosineIters, MinLR + (LR - MinLR) (1 + cos(pi q)) / 2 with q = (k -
//     WarmupIters) / (CosineIters - WarmupIters) clamped to [0, 1], and
//     MinLR after (Loshchilov and Hutter 2017, "SGDR", Eq. 5, one cycle
//     without restarts; the warm-up offset as in Hugging Face
//     transformers' get_cosine_schedule_with_warmup, optimization.py).
type Schedule struct {
	Kind        string // "" is constant
	WarmupIters int
	StepIters   int
	StepFactor  float64
	CosineIters int
	MinLR       float64 // absolute, not a factor
}

// Check reports a schedule that cannot be followed, in one line naming
// the learning parameters.
func (s Schedule) Check(lr float64) error {
	if s.WarmupIters < 0 {
		return fmt.Errorf("lr_warmup_iters %d, want >= 0", s.WarmupIters)
	}
	switch s.Kind {
	case "", ScheduleConstant:
	case ScheduleStep:
		if s.StepIters < 1 {
			return fmt.Errorf("lr_schedule=step needs lr_step_iters >= 1 (have %d)", s.StepIters)
		}
		if !(s.StepFactor > 0 && s.StepFactor <= 1) {
			return fmt.Errorf("lr_step_factor %g, want 0 < factor <= 1", s.StepFactor)
		}
	case ScheduleCosine:
		if s.CosineIters <= s.WarmupIters {
			return fmt.Errorf("lr_schedule=cosine needs lr_cosine_iters (%d) above lr_warmup_iters (%d)", s.CosineIters, s.WarmupIters)
		}
		if !(s.MinLR >= 0 && s.MinLR <= lr) {
			return fmt.Errorf("lr_min %g, want 0 <= lr_min <= lr (%g)", s.MinLR, lr)
		}
	default:
		return fmt.Errorf("lr_schedule %q (allowed: constant, step, cosine)", s.Kind)
	}
	return nil
}

// Factor is step k's learning rate over lr: exactly 1 for a constant
// schedule without warm-up.
func (s Schedule) Factor(lr float64, k int) float64 {
	f := 1.0
	switch s.Kind {
	case ScheduleStep:
		f = math.Pow(s.StepFactor, float64(k/s.StepIters))
	case ScheduleCosine:
		q := float64(k-s.WarmupIters) / float64(s.CosineIters-s.WarmupIters)
		q = min(max(q, 0), 1)
		f = (s.MinLR + (lr-s.MinLR)*(1+math.Cos(math.Pi*q))/2) / lr
	}
	if k < s.WarmupIters {
		f *= float64(k+1) / float64(s.WarmupIters)
	}
	return f
}

// Optimizer is SGD with heavy-ball or Nesterov momentum and L2 weight
// decay, as PyTorch's torch.optim.SGD without dampening
// (pytorch/pytorch torch/optim/sgd.py at 0316fdc: the algorithm in SGD's
// docstring and _single_tensor_sgd): for gradient g at parameters w,
//
//	g += WeightDecay w
//	v = Momentum v + g            (v starts at zero, so the first v is g)
//	d = g + Momentum v if Nesterov, else v
//	x -= lr d
//
// where w is where the gradient was taken (a push-sum worker's de-biased
// model) and x what the step moves (its numerators). Momentum 0 is plain
// SGD, x -= lr g.
type Optimizer struct {
	Momentum    float64
	Nesterov    bool
	WeightDecay float64
}

// Check reports optimiser settings out of range, in one line.
func (o Optimizer) Check() error {
	if !(o.Momentum >= 0 && o.Momentum < 1) {
		return fmt.Errorf("momentum %g, want 0 <= momentum < 1", o.Momentum)
	}
	if !(o.WeightDecay >= 0) || math.IsInf(o.WeightDecay, 0) {
		return fmt.Errorf("weight_decay %g, want a number >= 0", o.WeightDecay)
	}
	return nil
}

// decay adds WeightDecay w to the gradient g.
func (o Optimizer) decay(g, w []float64) {
	if o.WeightDecay == 0 {
		return
	}
	for i, x := range w {
		g[i] += o.WeightDecay * x
	}
}

// step moves x by one step of rate lr along g, updating the velocity v
// (unused, and may be nil, without momentum).
func (o Optimizer) step(x, v, g []float64, lr float64) {
	if o.Momentum == 0 {
		floats.AddScaled(x, -lr, g) // as plain SGD always did, to the bit
		return
	}
	mu := o.Momentum
	for i, gi := range g {
		vi := mu*v[i] + gi
		v[i] = vi
		if o.Nesterov {
			x[i] -= lr * (gi + mu*vi)
		} else {
			x[i] -= lr * vi
		}
	}
}
