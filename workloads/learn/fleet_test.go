package learn

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// TestOneWorkerIsSGD: a fleet of one worker that steps and ends rounds is
// plain mini-batch SGD, computed here independently from the same batches,
// for every model.
func TestOneWorkerIsSGD(t *testing.T) {
	for _, name := range ModelNames {
		s := splitFor(t, name, 4, 6, 600, 2)
		cfg := baseConfig(name, 1)
		f := newFleet(t, cfg, s, 3)
		// The reference: the same model, initial parameters and batches.
		ref := newFleet(t, cfg, s, 3)
		theta := append([]float64(nil), ref.theta[0]...)
		g := make([]float64, len(theta))
		for k := range 40 {
			f.Step(float64(k), 0)
			f.Round(float64(k), 0)
			ref.sample[0].next(s.Train, ref.x, ref.y)
			ref.model.Grad(theta, g, ref.x, ref.y)
			floats.AddScaled(theta, -cfg.LR, g)
		}
		if d := maxAbsDiff(f.Params(0), theta); d != 0 {
			t.Errorf("%s: one worker differs from SGD by %g", name, d)
		}
	}
}

// bspCases are the optimisers TestBSPIsBigBatchSGD runs: plain SGD, and
// Nesterov momentum with weight decay under warm-up and a cosine decay.
var bspCases = []struct {
	name  string
	opt   Optimizer
	sched Schedule
}{
	{"sgd", Optimizer{}, Schedule{}},
	{"nesterov-wd-cosine", Optimizer{Momentum: 0.9, Nesterov: true, WeightDecay: 0.01},
		Schedule{Kind: ScheduleCosine, WarmupIters: 5, CosineIters: 25, MinLR: 0.01}},
}

// TestBSPIsBigBatchSGD: N workers that each step and then average over
// all of them follow SGD on the concatenation of their N batches (to
// rounding), for every model; with momentum too, each worker keeping its
// own velocity, since the mean of the workers' velocities follows the
// big batch's (the update is linear in the gradient).
func TestBSPIsBigBatchSGD(t *testing.T) {
	const n = 4
	for _, name := range ModelNames {
		s := splitFor(t, name, 5, 8, 1000, 2)
		for _, oc := range bspCases {
			cfg := baseConfig(name, n)
			cfg.Opt, cfg.Schedule = oc.opt, oc.sched
			f := newFleet(t, cfg, s, 5)
			ref := newFleet(t, cfg, s, 5)
			theta := append([]float64(nil), ref.theta[0]...)
			vel := make([]float64, len(theta))
			all := []int{0, 1, 2, 3}
			big := scratch(new([]float64), n*cfg.Batch, s.Dim())
			ybig := make([]int, n*cfg.Batch)
			g := make([]float64, len(theta))
			for k := range 30 {
				for w := range n {
					f.Step(float64(k), w)
				}
				f.Average(float64(k), all, nil, 0)
				for w := range n {
					f.Round(float64(k), w)
				}
				for w := range n {
					ref.sample[w].next(s.Train, ref.x, ref.y)
					for i := range cfg.Batch {
						copy(big.RawRowView(w*cfg.Batch+i), ref.x.RawRowView(i))
						ybig[w*cfg.Batch+i] = ref.y[i]
					}
				}
				ref.model.Grad(theta, g, big, ybig)
				lr := cfg.LR * oc.sched.Factor(cfg.LR, k)
				mu := oc.opt.Momentum
				for i := range g {
					gi := g[i] + oc.opt.WeightDecay*theta[i]
					vel[i] = mu*vel[i] + gi
					d := vel[i]
					if oc.opt.Nesterov {
						d = gi + mu*vel[i]
					}
					theta[i] -= lr * d
				}
			}
			for w := range n {
				if d := maxAbsDiff(f.Params(w), theta); d > 1e-12 {
					t.Errorf("%s %s: worker %d differs from SGD on the concatenated batch by %g", name, oc.name, w, d)
				}
			}
			if c := f.ConsensusDist(f.Mean()); c > 1e-24 {
				t.Errorf("%s %s: BSP workers disagree: consensus distance %g", name, oc.name, c)
			}
		}
	}
}

// sumModels is sum_w theta_w (numerators) plus messages in flight, and
// the sum of the push-sum weights, per piece.
func sumModels(f *Fleet) ([]float64, []float64) {
	x := make([]float64, f.np)
	ws := make([]float64, len(f.pieces))
	for w := range f.n {
		floats.Add(x, f.theta[w])
		floats.Add(ws, f.weight[w])
	}
	for k, m := range f.mail {
		r := f.pieces[k.p]
		floats.Add(x[r[0]:r[1]], m.x)
		ws[k.p] += m.w
	}
	return x, ws
}

// TestAveragingConservesTheMean: equal-weight group averages (DS-Sync's
// groups, any partition of the workers) and push-sum messages (in flight
// included) leave the sum of the workers' models and weights unchanged;
// staleness weights do not claim to.
func TestAveragingConservesTheMean(t *testing.T) {
	s := smallSplit(t, 3, 4, 300, 2)
	cfg := baseConfig(ModelMLP, 6)
	cfg.Pieces = []float64{3, 1}
	f := newFleet(t, cfg, s, 9)
	for w := range 6 {
		f.Step(0, w) // the models now differ
	}
	before, wb := sumModels(f)
	// DS-Sync-like groups, piece by piece.
	f.Average(1, []int{0, 1, 2}, nil, 0)
	f.Average(1, []int{3, 4}, nil, 0)
	f.Average(1, []int{5, 0}, nil, 1)
	// Push-sum on a shift graph: everyone sends to w+1, one piece, and
	// receives half of them so far.
	for w := range 6 {
		f.Do(Op{Kind: OpSend, W: w, Peer: (w + 1) % 6, Piece: 1, Iter: 0})
	}
	for w := range 3 {
		f.Do(Op{Kind: OpRecv, W: (w + 1) % 6, Peer: w, Piece: 1, Iter: 0})
	}
	after, wa := sumModels(f)
	if d := maxAbsDiff(before, after); d > 1e-12 {
		t.Errorf("the sum of the models moved by %g", d)
	}
	if d := maxAbsDiff(wb, wa); d > 1e-12 {
		t.Errorf("the push-sum mass moved by %g", d)
	}
	for w := 3; w < 6; w++ {
		f.Do(Op{Kind: OpRecv, W: (w + 1) % 6, Peer: w, Piece: 1, Iter: 0})
	}
	for w := range 6 {
		if got := f.weight[w][1]; math.Abs(got-1) > 1e-15 {
			t.Errorf("worker %d's push-sum weight %g after a regular exchange, want 1", w, got)
		}
	}
	// The mean is what one all-reduce would give.
	m := f.Mean()
	f.Average(2, []int{0, 1, 2, 3, 4, 5}, nil, 0)
	f.Average(2, []int{0, 1, 2, 3, 4, 5}, nil, 1)
	if d := maxAbsDiff(m, f.Params(0)); d > 1e-12 {
		t.Errorf("Mean differs from the all-reduced model by %g", d)
	}
	// Staleness weights: equal versions give equal weights, a stale member less.
	if w := f.StalenessWeights([]int{0, 1}); w[0] != 0.5 || w[1] != 0.5 {
		t.Errorf("equal versions weighted %v", w)
	}
	f.Step(3, 0)
	f.Step(3, 0)
	w := f.StalenessWeights([]int{0, 1})
	if !(math.Abs(w[0]-0.75) < 1e-15 && math.Abs(w[1]-0.25) < 1e-15) {
		t.Errorf("versions %d and %d weighted %v, want 3/4 and 1/4 (1/(1+s))", f.Version(0), f.Version(1), w)
	}
}

// TestReduceAdopt: CREW's result is the members' average at formation,
// whatever happens to non-members meanwhile; a released member keeps its
// model.
func TestReduceAdopt(t *testing.T) {
	s := smallSplit(t, 3, 4, 300, 2)
	f := newFleet(t, baseConfig(ModelSoftmax, 4), s, 2)
	for w := range 4 {
		f.Step(0, w)
	}
	want := make([]float64, f.np)
	for _, w := range []int{0, 1, 2} {
		floats.AddScaled(want, 1.0/3, f.theta[w])
	}
	own2 := f.Params(2)
	f.Do(Op{Kind: OpReduce, Group: []int{0, 1, 2}, Iter: 7})
	f.Step(1, 3)
	f.Do(Op{Kind: OpAdopt, W: 1, Iter: 7})
	f.Do(Op{Kind: OpAdopt, W: 0, Iter: 7})
	f.Do(Op{Kind: OpRelease, W: 2, Iter: 7})
	if d := maxAbsDiff(f.Params(0), want); d > 1e-15 {
		t.Errorf("adopted model differs from the average at formation by %g", d)
	}
	if d := maxAbsDiff(f.Params(2), own2); d != 0 {
		t.Errorf("released worker's model changed by %g", d)
	}
	if len(f.held) != 0 {
		t.Errorf("%d results still held after every member left", len(f.held))
	}
}

// TestASP: the server applies each pushed gradient with lr / workers and a
// pull copies the server's piece.
func TestASP(t *testing.T) {
	s := smallSplit(t, 3, 4, 300, 2)
	cfg := baseConfig(ModelSoftmax, 2)
	f := newFleet(t, cfg, s, 4)
	init := f.Params(0)
	f.Grad(0, 0)
	f.Grad(0, 1)
	if d := maxAbsDiff(f.Params(0), init); d != 0 {
		t.Fatalf("a gradient moved the worker's own model by %g", d)
	}
	f.Do(Op{Kind: OpPush, W: 1})
	f.Do(Op{Kind: OpPush, W: 0})
	want := append([]float64(nil), init...)
	floats.AddScaled(want, -cfg.LR/2, f.grad[0])
	floats.AddScaled(want, -cfg.LR/2, f.grad[1])
	if d := maxAbsDiff(f.Server(), want); d > 1e-15 {
		t.Errorf("server differs from init - lr/n (g0 + g1) by %g", d)
	}
	f.Do(Op{Kind: OpPull, W: 0})
	if d := maxAbsDiff(f.Params(0), f.Server()); d != 0 {
		t.Errorf("pulled model differs from the server's by %g", d)
	}
}

// TestReplay: replaying a fleet's recorded schedule on a fresh fleet
// gives the same models bit for bit.
func TestReplay(t *testing.T) {
	s := smallSplit(t, 3, 5, 400, 2)
	cfg := baseConfig(ModelMLP, 3)
	f := newFleet(t, cfg, s, 11)
	for k := range 10 {
		for w := range 3 {
			f.Step(float64(k), w)
		}
		f.Average(float64(k), []int{k % 3, (k + 1) % 3}, f.StalenessWeights([]int{k % 3, (k + 1) % 3}), 0)
		f.Round(float64(k), k%3)
	}
	g := newFleet(t, cfg, s, 11)
	if err := g.Replay(f.Schedule()); err != nil {
		t.Fatal(err)
	}
	for w := range 3 {
		if d := maxAbsDiff(f.Params(w), g.Params(w)); d != 0 {
			t.Errorf("worker %d: replay differs by %g", w, d)
		}
	}
}

// TestPartitions: both partitions use every training row once; Dirichlet
// with a small alpha skews the workers' labels, iid does not.
func TestPartitions(t *testing.T) {
	s := smallSplit(t, 10, 3, 5000, 1)
	skew := func(shards [][]int) float64 { // mean over workers of the largest class share
		var m float64
		for _, sh := range shards {
			c := make([]int, 10)
			for _, i := range sh {
				c[s.Train.Labels[i]]++
			}
			top := 0
			for _, v := range c {
				top = max(top, v)
			}
			m += float64(top) / float64(len(sh)) / float64(len(shards))
		}
		return m
	}
	for _, tc := range []struct {
		how      string
		alpha    float64
		min, max float64
	}{{PartitionIID, 0, 0.1, 0.2}, {PartitionDirichlet, 0.1, 0.5, 1}, {PartitionDirichlet, 1000, 0.1, 0.2}} {
		sh, err := Shards(s.Train, s.TrainIdx, 8, tc.how, tc.alpha, streams(1)("p"))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]int{}
		for _, x := range sh {
			if len(x) == 0 {
				t.Errorf("%s %g: an empty shard", tc.how, tc.alpha)
			}
			for _, i := range x {
				seen[i]++
			}
		}
		if len(seen) != len(s.TrainIdx) {
			t.Errorf("%s: %d rows used of %d", tc.how, len(seen), len(s.TrainIdx))
		}
		for i, k := range seen {
			if k != 1 {
				t.Errorf("%s: row %d used %d times", tc.how, i, k)
			}
		}
		if k := skew(sh); k < tc.min || k > tc.max {
			t.Errorf("%s alpha %g: mean top-class share %.3f, want %g..%g", tc.how, tc.alpha, k, tc.min, tc.max)
		}
	}
}

// TestMeanIgnoresMapOrder: with many push-sum messages in flight the
// mean is the same to the bit however often it is taken (the messages are
// summed in a fixed order, not Go's random map order, which gave gossip's
// learning series different last digits from run to run).
func TestMeanIgnoresMapOrder(t *testing.T) {
	s := smallSplit(t, 3, 4, 300, 2)
	cfg := baseConfig(ModelMLP, 8)
	f := newFleet(t, cfg, s, 9)
	for w := range 8 {
		f.Step(0, w)
	}
	for w := range 8 {
		for d := 1; d < 8; d++ {
			f.Do(Op{Kind: OpSend, W: w, Peer: (w + d) % 8, Piece: 0, Iter: 0})
		}
	}
	if len(f.mail) < 20 {
		t.Fatalf("only %d messages in flight: the test exercises nothing", len(f.mail))
	}
	want := f.Mean()
	for i := range 50 {
		got := f.Mean()
		for j := range want {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
				t.Fatalf("Mean call %d differs at parameter %d: %v against %v", i, j, got[j], want[j])
			}
		}
	}
}
