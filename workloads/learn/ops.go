package learn

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// OpKind is what a scheme does to the workers' models.
type OpKind uint8

// The operations.
const (
	// OpStep: worker W computes a gradient at its current model on its
	// next mini-batch and takes a local step of the optimiser (schemes
	// that average models: BSP, partial and selective reduce, CREW,
	// DS-Sync, gossip).
	OpStep OpKind = iota
	// OpGrad: worker W computes a gradient at its current model on its
	// next mini-batch and keeps it for pushes (ASP).
	OpGrad
	// OpAverage: the members of Group replace piece Piece of their models
	// by the Weights-weighted average of the members' (in Group order).
	OpAverage
	// OpSend: worker W sends half of piece Piece (numerator and push-sum
	// weight) to worker Peer and keeps the other half (stochastic gradient
	// push).
	OpSend
	// OpRecv: worker W adds the message of piece Piece from worker Peer.
	OpRecv
	// OpPush: the parameter server applies worker W's latest gradient to
	// piece Piece of its model.
	OpPush
	// OpPull: worker W replaces piece Piece of its model by the server's.
	OpPull
	// OpRound: worker W completed a round (an iteration: compute and
	// synchronisation).
	OpRound
	// OpReduce: the Weights-weighted average of the members of Group is
	// computed and held as result number Iter; the members' models are
	// left as they are (CREW's reduce, delivered member by member).
	OpReduce
	// OpAdopt: worker W replaces its model by result Iter.
	OpAdopt
	// OpRelease: worker W leaves result Iter without adopting it.
	OpRelease
)

var opNames = [...]string{"step", "grad", "average", "send", "recv", "push", "pull", "round", "reduce", "adopt", "release"}

func (k OpKind) String() string {
	if int(k) < len(opNames) {
		return opNames[k]
	}
	return fmt.Sprintf("op(%d)", k)
}

// Op is one operation of a schedule, at simulated time T (seconds). Iter
// is the iteration of a push-sum message (OpSend, OpRecv) or the number
// of a held result (OpReduce, OpAdopt, OpRelease).
type Op struct {
	Kind    OpKind
	T       float64
	W, Peer int
	Piece   int
	Iter    int
	Group   []int
	Weights []float64
}

// Step is OpStep for worker w at time t.
func (f *Fleet) Step(t float64, w int) { f.Do(Op{Kind: OpStep, T: t, W: w}) }

// Grad is OpGrad for worker w at time t.
func (f *Fleet) Grad(t float64, w int) { f.Do(Op{Kind: OpGrad, T: t, W: w}) }

// Average is OpAverage of piece p among group with weights (nil: equal).
func (f *Fleet) Average(t float64, group []int, weights []float64, p int) {
	f.Do(Op{Kind: OpAverage, T: t, Group: group, Weights: weights, Piece: p})
}

// Round is OpRound for worker w at time t.
func (f *Fleet) Round(t float64, w int) { f.Do(Op{Kind: OpRound, T: t, W: w}) }

// Do applies op. A malformed op (a worker out of range, a message that
// was never sent) is a bug of the scheme that reported it and panics.
func (f *Fleet) Do(op Op) {
	f.check(op)
	if f.cfg.Record {
		c := op
		c.Group = append([]int(nil), op.Group...)
		c.Weights = append([]float64(nil), op.Weights...)
		f.sched = append(f.sched, c)
	}
	switch op.Kind {
	case OpStep:
		f.computeGrad(op.W)
		f.cfg.Opt.step(f.theta[op.W], f.velocity(op.W), f.grad[op.W], f.lr(f.cfg.LR, op.W))
		f.version[op.W]++
	case OpGrad:
		f.computeGrad(op.W)
	case OpAverage:
		f.average(op)
	case OpSend:
		r := f.pieces[op.Piece]
		x := f.theta[op.W][r[0]:r[1]]
		floats.Scale(0.5, x)
		f.weight[op.W][op.Piece] *= 0.5
		k := mailKey{op.W, op.Peer, op.Piece, op.Iter}
		if f.mail[k] != nil {
			panic(fmt.Sprintf("learn: worker %d sends piece %d of iteration %d to %d twice", op.W, op.Piece, op.Iter, op.Peer))
		}
		f.mail[k] = &message{x: append([]float64(nil), x...), w: f.weight[op.W][op.Piece]}
	case OpRecv:
		k := mailKey{op.Peer, op.W, op.Piece, op.Iter}
		m := f.mail[k]
		if m == nil {
			panic(fmt.Sprintf("learn: worker %d receives piece %d of iteration %d from %d, which sent none", op.W, op.Piece, op.Iter, op.Peer))
		}
		delete(f.mail, k)
		r := f.pieces[op.Piece]
		floats.Add(f.theta[op.W][r[0]:r[1]], m.x)
		f.weight[op.W][op.Piece] += m.w
	case OpPush:
		if f.server == nil {
			f.server = append([]float64(nil), f.init...) // the common initial model
		}
		if f.srvVel == nil && f.cfg.Opt.Momentum > 0 {
			f.srvVel = make([]float64, f.np)
		}
		r := f.pieces[op.Piece]
		var v []float64
		if f.srvVel != nil {
			v = f.srvVel[r[0]:r[1]]
		}
		f.cfg.Opt.step(f.server[r[0]:r[1]], v, f.grad[op.W][r[0]:r[1]], f.lr(f.cfg.ASPLR, op.W))
	case OpPull:
		if f.server == nil {
			return
		}
		r := f.pieces[op.Piece]
		copy(f.theta[op.W][r[0]:r[1]], f.server[r[0]:r[1]])
	case OpReduce:
		f.reduce(op)
	case OpAdopt, OpRelease:
		h := f.held[op.Iter]
		if h == nil || !h.members[op.W] {
			panic(fmt.Sprintf("learn: worker %d %vs result %d, which it is not waiting for", op.W, op.Kind, op.Iter))
		}
		if op.Kind == OpAdopt {
			copy(f.theta[op.W], h.x)
			clear1(f.weight[op.W])
			f.version[op.W] = h.version
		}
		delete(h.members, op.W)
		if len(h.members) == 0 {
			delete(f.held, op.Iter)
		}
	case OpRound:
		f.rounds[op.W]++
		if f.swa != nil {
			// DS-Sync Pseudo Code 1 line 26.
			a := f.cfg.SWAFactor
			cur := f.theta[op.W]
			if f.biased(op.W) {
				cur = f.Params(op.W)
			}
			floats.Scale(a, f.swa[op.W])
			floats.AddScaled(f.swa[op.W], 1-a, cur)
		}
		f.track.round(op.T)
	}
}

// average applies OpAverage: every member gets sum_j a_j x_j, piece by
// piece; push-sum weights are averaged alike. The versions of the members
// become the largest among them (the freshest update they now share).
func (f *Fleet) average(op Op) {
	g := op.Group
	if len(g) < 2 {
		return
	}
	r := f.pieces[op.Piece]
	acc := f.tmp[:r[1]-r[0]]
	clear(acc)
	var wsum float64
	for i, m := range g {
		a := 1 / float64(len(g))
		if op.Weights != nil {
			a = op.Weights[i]
		}
		floats.AddScaled(acc, a, f.theta[m][r[0]:r[1]])
		wsum += a * f.weight[m][op.Piece]
	}
	v := 0
	for _, m := range g {
		v = max(v, f.version[m])
	}
	for _, m := range g {
		copy(f.theta[m][r[0]:r[1]], acc)
		f.weight[m][op.Piece] = wsum
		if op.Piece == len(f.pieces)-1 || len(f.pieces) == 1 {
			f.version[m] = v
		}
	}
}

// held is a reduced model waiting for its members to adopt it.
type held struct {
	x       []float64
	version int
	members map[int]bool
}

// reduce applies OpReduce.
func (f *Fleet) reduce(op Op) {
	if f.held[op.Iter] != nil {
		panic(fmt.Sprintf("learn: result %d reduced twice", op.Iter))
	}
	h := &held{x: make([]float64, f.np), members: map[int]bool{}}
	for i, m := range op.Group {
		a := 1 / float64(len(op.Group))
		if op.Weights != nil {
			a = op.Weights[i]
		}
		floats.AddScaled(h.x, a, f.theta[m])
		h.version = max(h.version, f.version[m])
		h.members[m] = true
	}
	f.held[op.Iter] = h
}

// clear1 sets every element of x to 1.
func clear1(x []float64) {
	for i := range x {
		x[i] = 1
	}
}

// check panics on an op that names a worker, peer, piece or weight that
// does not exist.
func (f *Fleet) check(op Op) {
	bad := func(what string, v int) {
		panic(fmt.Sprintf("learn: %v op names %s %d (have %d workers, %d pieces)", op.Kind, what, v, f.n, len(f.pieces)))
	}
	switch op.Kind {
	case OpAverage, OpReduce:
		if op.Weights != nil && len(op.Weights) != len(op.Group) {
			panic(fmt.Sprintf("learn: average of %d workers with %d weights", len(op.Group), len(op.Weights)))
		}
		var s float64
		for _, a := range op.Weights {
			s += a
		}
		if op.Weights != nil && math.Abs(s-1) > 1e-9 {
			panic(fmt.Sprintf("learn: average weights sum to %g, not 1", s))
		}
		for _, m := range op.Group {
			if m < 0 || m >= f.n {
				bad("worker", m)
			}
		}
	default:
		if op.W < 0 || op.W >= f.n {
			bad("worker", op.W)
		}
	}
	if op.Kind == OpSend || op.Kind == OpRecv {
		if op.Peer < 0 || op.Peer >= f.n || op.Peer == op.W {
			bad("peer", op.Peer)
		}
	}
	if op.Piece < 0 || op.Piece >= len(f.pieces) {
		bad("piece", op.Piece)
	}
}

// StalenessWeights are the weights of a partial reduce that discount
// stale models: s_j = max_k v_k - v_j for the members' versions v, and
// weight proportional to 1 / (1 + s_j), normalised. This reads the
// "dynamic weights concerning the relative iteration counts of the
// involved workers" of the selective-reduce paper (Sec. II-C, citing
// DynSGD, whose update of staleness s is scaled by 1 / (s + 1)). Equal
// versions give equal weights.
func (f *Fleet) StalenessWeights(group []int) []float64 {
	vmax := 0
	for _, m := range group {
		vmax = max(vmax, f.version[m])
	}
	out := make([]float64, len(group))
	var s float64
	for i, m := range group {
		out[i] = 1 / float64(1+vmax-f.version[m])
		s += out[i]
	}
	for i := range out {
		out[i] /= s
	}
	return out
}
