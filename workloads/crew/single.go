package crew

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"syncsim/netsim"
	"syncsim/workloads/collective"
)

// ErrIncomplete is RunSingle's error when the partial reduce is not over
// once no event is left: its transfers would end after the simulated
// clock's end (a huge model over slow links), which are never scheduled.
var ErrIncomplete = errors.New("the partial reduce did not complete")

// SingleResult is one partial reduce on an idle network (Fig. 4).
type SingleResult struct {
	// Time from the moment P is known to the last member holding the
	// reduced model.
	Time netsim.Time
	// LPObjective is the objective of the weights CREW and OPR planned
	// with (seconds), NaN for the other schemes; SplitT is T_scatter +
	// T_multicast (Eq. 1a + 1b) of the split into chunks they used.
	LPObjective float64
	SplitT      float64
	// Transfers and Bytes count what the scheme handed to the engine.
	Transfers uint64
	Bytes     netsim.Bytes
	// Server is PS's server (-1 for other schemes); Trees the number of
	// trees BLINK used.
	Server int
	Trees  int
}

// RunSingle runs one partial reduce of the workers P, all ready at time
// 0, by opt.Scheme over nt; est is the bandwidth matrix the scheme plans
// with (nil: the real one) and r the randomness of Ring's start and ToA's
// annealing. It runs the simulation until the partial reduce is over.
func RunSingle(nt *Net, opt Options, est Matrix, P []int, r *rand.Rand) (SingleResult, error) {
	n := nt.N()
	if err := opt.Validate(n); err != nil {
		return SingleResult{}, err
	}
	if len(P) != opt.P {
		return SingleResult{}, fmt.Errorf("%d workers in P, p = %d", len(P), opt.P)
	}
	seen := make([]bool, n)
	for _, w := range P {
		if w < 0 || w >= n || seen[w] {
			return SingleResult{}, fmt.Errorf("P = %v: workers must be distinct, in 0..%d", P, n-1)
		}
		seen[w] = true
	}
	if est == nil {
		est = nt.BW
	}
	res := SingleResult{LPObjective: math.NaN(), SplitT: math.NaN(), Server: -1}
	sr := &singleRun{nt: nt, opt: opt, est: est, P: P, r: r, res: &res, start: nt.Sim.Now(), end: -1,
		opts: netsim.BulkOpts{Class: ClassOther}, bulk: &countingBulk{nt: nt}}
	if err := schemes[opt.Scheme].single(sr); err != nil {
		return SingleResult{}, err
	}
	if sr.end < 0 {
		return SingleResult{}, fmt.Errorf("%v: %w", opt.Scheme, ErrIncomplete)
	}
	res.Time = sr.end - sr.start
	res.Transfers, res.Bytes = nt.Transfers, nt.BytesSent
	return res, nil
}

// singleRun is one partial reduce of RunSingle as a scheme's single
// function sees it: the network, the options and estimates, the workers
// P, the randomness, the result to fill, and finish, which it calls (or
// has called) when the last member holds the reduced model.
type singleRun struct {
	nt         *Net
	opt        Options
	est        Matrix
	P          []int
	r          *rand.Rand
	res        *SingleResult
	start, end netsim.Time // end < 0 until finish
	opts       netsim.BulkOpts
	bulk       *countingBulk
}

// finish records that the partial reduce is over.
func (s *singleRun) finish() { s.end = s.nt.Sim.Now() }

// hosts are the hosts of workers ws.
func (s *singleRun) hosts(ws []int) []netsim.NodeID {
	out := make([]netsim.NodeID, len(ws))
	for i, w := range ws {
		out[i] = s.nt.Host(w)
	}
	return out
}

// singleCluster runs the partial reduce in a Cluster, as training does
// (CREW, OPR, A2A): P ready at once.
func singleCluster(s *singleRun) error {
	sim, opt := s.nt.Sim, s.opt
	c, err := NewCluster(s.nt, Config{Options: opt, Estimate: s.est, ComputeScale: 1})
	if err != nil {
		return err
	}
	ok := false
	c.onTaskEnd = func(_ int, done bool, _ netsim.Time) { ok = done; s.finish() }
	for _, w := range s.P {
		c.wstate[w] = wReady
		c.enqueue(w)
	}
	sim.Run(netsim.Never)
	if err := c.Check(); err != nil {
		return err
	}
	if !ok {
		if c.lpCount > 0 && !(c.lpSum/float64(c.lpCount) < netsim.MaxSeconds) {
			return fmt.Errorf("%v: %w: its plan takes %.4g s (the LP's objective), beyond the %.3g s (106 days) the simulated clock holds",
				opt.Scheme, ErrIncomplete, c.lpSum/float64(c.lpCount), netsim.MaxSeconds)
		}
		return fmt.Errorf("%v: %w", opt.Scheme, ErrIncomplete)
	}
	if c.lpCount > 0 {
		s.res.LPObjective = c.lpSum / float64(c.lpCount)
		s.res.SplitT = c.splitSum / float64(c.lpCount)
	}
	return nil
}

// singlePS is the PS baseline: every other member of P pushes its model to
// the server (ChoosePS) and pulls the sum back.
func singlePS(s *singleRun) error {
	ps := ChoosePS(s.est, s.nt.Delay)
	s.res.Server = ps
	var workers []int
	for _, w := range s.P {
		if w != ps {
			workers = append(workers, w)
		}
	}
	if len(workers) == 0 {
		s.end = s.start
		return nil
	}
	if err := collective.PSPushPull(s.nt.Sim, s.bulk, s.hosts(workers), s.nt.Host(ps), s.opt.Model, s.opts, s.finish); err != nil {
		return err
	}
	s.nt.Sim.Run(netsim.Never)
	return nil
}

// singleRing is the Ring baseline: a ring all-reduce over P in
// GreedyRing's order.
func singleRing(s *singleRun) error {
	ring := GreedyRing(s.est, s.P, s.r)
	if err := collective.RingAllReduce(s.nt.Sim, s.bulk, s.hosts(ring), s.opt.Model, s.opts, s.finish); err != nil {
		return err
	}
	s.nt.Sim.Run(netsim.Never)
	return nil
}

// singleTrees runs pipelined tree all-reduces over trees, the model split
// between them by share (one tree: all of it).
func singleTrees(s *singleRun, trees []Tree, share []float64) error {
	opt := s.opt
	s.res.Trees = len(trees)
	parts := collective.EqualChunks(opt.Model, 1)
	if len(trees) > 1 {
		var err error
		if parts, err = collective.WeightedChunks(opt.Model, share); err != nil {
			return err
		}
	}
	left := len(trees)
	for i, t := range trees {
		err := collective.PipelinedTree(s.nt.Sim, s.bulk, s.hosts(t.Nodes), t.collective(), collective.TreeAllReduce, parts[i], max(opt.TreeSegments, 1), s.opts, func() {
			if left--; left == 0 {
				s.finish()
			}
		})
		if err != nil {
			return err
		}
	}
	s.nt.Sim.Run(netsim.Never)
	return nil
}

// singleBLINK is the BLINK-like baseline: BlinkTrees' packing over P.
func singleBLINK(s *singleRun) error {
	trees, share := BlinkTrees(s.est, s.P)
	return singleTrees(s, trees, share)
}

// singleToA is the TopoAdopt-like baseline: one tree found by annealing.
func singleToA(s *singleRun) error {
	n := s.nt.N()
	d := make([][]float64, n)
	for i := range d {
		d[i] = make([]float64, n)
		for j := range d[i] {
			d[i][j] = s.nt.Delay[i][j].Seconds()
		}
	}
	segs := max(s.opt.TreeSegments, 1)
	tree := ToATree(s.est, d, s.P, float64(s.opt.Model)*8, segs, s.opt.AnnealSteps, s.r)
	return singleTrees(s, []Tree{tree}, []float64{1})
}

// countingBulk sends through the Net so that its counters see every
// transfer.
type countingBulk struct{ nt *Net }

func (b *countingBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	b.nt.Transfers++
	b.nt.BytesSent += size
	b.nt.bulk.Send(src, dst, size, opts, done)
}

// ChoosePS is the PS baseline's server (Sec. V-A): the worker with the
// largest average direct bandwidth to all the others, averaging both
// directions, (b_kj + b_jk)/2 over j != k; ties go to the smallest
// average latency, then the lowest index.
func ChoosePS(bw Matrix, delay [][]netsim.Time) int {
	n := bw.N()
	best, bestBW, bestLat := -1, 0.0, 0.0
	for k := 0; k < n; k++ {
		s, l := 0.0, 0.0
		for j := 0; j < n; j++ {
			if j != k {
				s += (bw[k][j] + bw[j][k]) / 2
				l += delay[k][j].Seconds()
			}
		}
		s /= float64(n - 1)
		l /= float64(n - 1)
		if best < 0 || s > bestBW || (s == bestBW && l < bestLat) {
			best, bestBW, bestLat = k, s, l
		}
	}
	return best
}

// GreedyRing orders P into the Ring baseline's ring (Sec. V-A): from a
// random worker of P, repeatedly the unvisited worker of P with the
// largest bandwidth from the last one (ties: the lowest index); the ring
// closes back to the start.
func GreedyRing(bw Matrix, P []int, r *rand.Rand) []int {
	ring := []int{P[r.IntN(len(P))]}
	used := map[int]bool{ring[0]: true}
	for len(ring) < len(P) {
		last := ring[len(ring)-1]
		next := -1
		for _, w := range P {
			if !used[w] && (next < 0 || bw[last][w] > bw[last][next] || (bw[last][w] == bw[last][next] && w < next)) {
				next = w
			}
		}
		ring = append(ring, next)
		used[next] = true
	}
	return ring
}
