package learn

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Config is what a Fleet trains and how.
type Config struct {
	Model  string // one of ModelNames
	Hidden int    // hidden units of the MLPs, the CNN's dense layer
	// LR is the SGD learning rate of a worker's local step; Batch its
	// mini-batch size.
	LR    float64
	Batch int
	// Opt is the optimiser of every local step and of the parameter
	// server (the zero value: plain SGD), Schedule the learning rate over
	// a worker's steps (the zero value: LR throughout). A worker's
	// momentum stays its own: averaging moves models, not velocities, as
	// in local SGD, where each worker steps its optimiser and then
	// averages (DS-Sync Pseudo Code 1, lines 18 and 23). Under BSP, whose
	// updates are linear, the workers' mean velocity is then exactly the
	// velocity of SGD on the concatenated batch (TestBSPIsBigBatchSGD).
	// The parameter server keeps its own velocity and applies pushes with
	// ASPLR x the schedule's factor at the pushing worker's step.
	Opt      Optimizer
	Schedule Schedule
	// Workers is the number of data-parallel workers.
	Workers int
	// Partition ("iid" or "dirichlet") and DirichletAlpha divide the
	// training set among the workers.
	Partition      string
	DirichletAlpha float64
	// TargetAcc is the test accuracy whose first crossing gives the time
	// and iterations to accuracy.
	TargetAcc float64
	// EvalEvery is the spacing of evaluations in mean completed rounds
	// per worker; EvalSamples the number of test rows each evaluation
	// uses (0 or more than the test set: all of them). The final
	// evaluation always uses the whole test set.
	EvalEvery   float64
	EvalSamples int
	// EvalModel is the model whose accuracy is the run's score (one of
	// EvalModelNames; "": EvalAverage). Every evaluation also scores the
	// others (Result).
	EvalModel string
	// SWAFactor, when positive, keeps every worker's exponential moving
	// average of its model, updated at the end of each of its rounds
	// (DS-Sync Sec. III-A step 5, Pseudo Code 1 line 26:
	// SWA = f SWA + (1 - f) model); the ensemble is their average at the
	// end.
	SWAFactor float64
	// ASPLR is the learning rate the parameter server applies to each
	// pushed gradient (0: LR / Workers, see Fleet.Push).
	ASPLR float64
	// Pieces are the relative sizes of the pieces the scheme synchronises
	// separately (layer-wise synchronisation); nil or one entry: the whole
	// model is one piece. Piece i is a contiguous range of the parameter
	// vector, input side first, sized in proportion.
	Pieces []float64
	// Record keeps every Op applied (Fleet.Schedule).
	Record bool
}

// Streams returns the random stream of a named component.
type Streams func(name string) *rand.Rand

// Fleet is the workers' models under one synchronisation scheme: it
// applies Ops (local SGD steps, group averages, push-sum messages,
// parameter-server pushes and pulls, round ends) as the simulated scheme
// reports them.
type Fleet struct {
	cfg    Config
	model  Model
	split  *Split
	n, np  int
	pieces [][2]int // parameter ranges of the pieces

	theta   [][]float64 // worker models (push-sum: the numerators x_i)
	weight  [][]float64 // push-sum weights per worker per piece
	grad    [][]float64 // each worker's latest gradient
	vel     [][]float64 // each worker's momentum (nil without momentum)
	srvVel  []float64   // the parameter server's momentum
	version []int       // local steps each model embodies (max over averages)
	steps   []int       // local gradients computed per worker
	rounds  []int       // rounds completed per worker
	swa     [][]float64
	server  []float64 // the parameter server's model (asynchronous schemes)
	init    []float64 // the common initial model
	mail    map[mailKey]*message
	held    map[int]*held // reduced results waiting for their members
	sample  []*sampler

	x    *mat.Dense // a batch's features
	y    []int
	tmp  []float64
	zbuf []float64

	sched []Op
	track *tracker
}

// mailKey addresses a push-sum message in flight: from worker from to
// worker to, piece p of iteration t.
type mailKey struct{ from, to, p, t int }

// mailKeys returns the keys of the messages in flight in a fixed order
// (piece, sender, receiver, iteration), so that sums over them do not
// depend on Go's map order.
func (f *Fleet) mailKeys() []mailKey {
	keys := make([]mailKey, 0, len(f.mail))
	for k := range f.mail {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b mailKey) int {
		return cmp.Or(cmp.Compare(a.p, b.p), cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to), cmp.Compare(a.t, b.t))
	})
	return keys
}

// message is half of a sender's numerator and weight for one piece.
type message struct {
	x []float64
	w float64
}

// NewFleet prepares cfg's workers on split: every worker starts from the
// same initial model, drawn from the stream "learn/init".
func NewFleet(cfg Config, split *Split, streams Streams) (*Fleet, error) {
	if cfg.Workers < 1 {
		return nil, fmt.Errorf("learning: %d workers", cfg.Workers)
	}
	if !(cfg.LR > 0) || math.IsInf(cfg.LR, 0) {
		return nil, fmt.Errorf("learning: lr %g, want a positive number", cfg.LR)
	}
	if cfg.Batch < 1 {
		return nil, fmt.Errorf("learning: batch %d, want >= 1", cfg.Batch)
	}
	if !(cfg.TargetAcc > 0 && cfg.TargetAcc <= 1) {
		return nil, fmt.Errorf("learning: target_acc %g, want 0 < target_acc <= 1", cfg.TargetAcc)
	}
	if !(cfg.EvalEvery > 0) {
		return nil, fmt.Errorf("learning: eval_every %g, want > 0", cfg.EvalEvery)
	}
	if err := checkEvalModel(cfg.EvalModel); err != nil {
		return nil, err
	}
	if !(cfg.SWAFactor >= 0 && cfg.SWAFactor < 1) {
		return nil, fmt.Errorf("learning: swa_factor %g, want 0 <= f < 1", cfg.SWAFactor)
	}
	if err := cfg.Opt.Check(); err != nil {
		return nil, fmt.Errorf("learning: %w", err)
	}
	if err := cfg.Schedule.Check(cfg.LR); err != nil {
		return nil, fmt.Errorf("learning: %w", err)
	}
	m, err := NewModel(cfg.Model, split.Dim(), split.Classes(), cfg.Hidden)
	if err != nil {
		return nil, err
	}
	shards, err := Shards(split.Train, split.TrainIdx, cfg.Workers, cfg.Partition, cfg.DirichletAlpha, streams("learn/partition"))
	if err != nil {
		return nil, err
	}
	if cfg.ASPLR == 0 {
		cfg.ASPLR = cfg.LR / float64(cfg.Workers)
	}
	n, np := cfg.Workers, m.NumParams()
	f := &Fleet{cfg: cfg, model: m, split: split, n: n, np: np, mail: map[mailKey]*message{}, held: map[int]*held{},
		theta: make([][]float64, n), weight: make([][]float64, n), grad: make([][]float64, n),
		version: make([]int, n), steps: make([]int, n), rounds: make([]int, n), sample: make([]*sampler, n),
		x: mat.NewDense(cfg.Batch, split.Dim(), nil), y: make([]int, cfg.Batch), tmp: make([]float64, np)}
	f.pieces = cutPieces(np, cfg.Pieces)
	init := make([]float64, np)
	m.Init(init, streams("learn/init"))
	f.init = init
	for w := range n {
		f.theta[w] = append([]float64(nil), init...)
		f.grad[w] = make([]float64, np)
		f.weight[w] = make([]float64, len(f.pieces))
		for p := range f.weight[w] {
			f.weight[w][p] = 1
		}
		f.sample[w] = newSampler(shards[w], streams("learn/batch/"+strconv.Itoa(w)))
	}
	if cfg.Opt.Momentum > 0 {
		f.vel = make([][]float64, n)
		for w := range n {
			f.vel[w] = make([]float64, np)
		}
	}
	if cfg.SWAFactor > 0 {
		f.swa = make([][]float64, n)
		for w := range n {
			f.swa[w] = append([]float64(nil), init...)
		}
	}
	f.track = newTracker(f, streams("learn/eval"))
	return f, nil
}

// cutPieces cuts np parameters into ranges in proportion to sizes.
func cutPieces(np int, sizes []float64) [][2]int {
	if len(sizes) <= 1 {
		return [][2]int{{0, np}}
	}
	var total float64
	for _, s := range sizes {
		total += max(s, 0)
	}
	out := make([][2]int, len(sizes))
	var cum float64
	prev := 0
	for i, s := range sizes {
		cum += max(s, 0)
		end := int(math.Round(cum / total * float64(np)))
		if i == len(sizes)-1 {
			end = np
		}
		end = min(max(end, prev), np)
		out[i] = [2]int{prev, end}
		prev = end
	}
	return out
}

// Workers is the number of workers.
func (f *Fleet) Workers() int { return f.n }

// NumPieces is the number of separately synchronised pieces.
func (f *Fleet) NumPieces() int { return len(f.pieces) }

// Model is the fleet's model.
func (f *Fleet) Model() Model { return f.model }

// Params returns worker w's parameters (push-sum: the de-biased z = x /
// weight, piece by piece), as a new slice.
func (f *Fleet) Params(w int) []float64 {
	out := append([]float64(nil), f.theta[w]...)
	for p, r := range f.pieces {
		if wt := f.weight[w][p]; wt != 1 {
			floats.Scale(1/wt, out[r[0]:r[1]])
		}
	}
	return out
}

// Server returns the parameter server's model (nil if no push arrived).
func (f *Fleet) Server() []float64 { return f.server }

// Version is the number of local steps worker w's model embodies.
func (f *Fleet) Version(w int) int { return f.version[w] }

// Rounds is the number of rounds worker w completed.
func (f *Fleet) Rounds(w int) int { return f.rounds[w] }

// Steps is the number of local gradients worker w computed.
func (f *Fleet) Steps(w int) int { return f.steps[w] }

// Schedule is every Op applied so far (Config.Record).
func (f *Fleet) Schedule() []Op { return f.sched }

// computeGrad draws worker w's next batch and computes its gradient at
// its current (de-biased) model into f.grad[w].
func (f *Fleet) computeGrad(w int) {
	f.sample[w].next(f.split.Train, f.x, f.y)
	at := f.theta[w]
	if f.biased(w) {
		at = f.Params(w)
	}
	f.model.Grad(at, f.grad[w], f.x, f.y)
	f.cfg.Opt.decay(f.grad[w], at)
	f.steps[w]++
}

// lr is the learning rate of worker w's latest gradient (its step
// Steps(w) - 1) for base rate base.
func (f *Fleet) lr(base float64, w int) float64 {
	return base * f.cfg.Schedule.Factor(f.cfg.LR, max(f.steps[w]-1, 0))
}

// velocity is worker w's momentum (nil without momentum).
func (f *Fleet) velocity(w int) []float64 {
	if f.vel == nil {
		return nil
	}
	return f.vel[w]
}

// biased reports whether worker w holds push-sum weights other than 1.
func (f *Fleet) biased(w int) bool {
	for _, x := range f.weight[w] {
		if x != 1 {
			return true
		}
	}
	return false
}
