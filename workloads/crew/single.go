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
	sim := nt.Sim
	start := sim.Now()
	var end netsim.Time = -1
	finish := func() { end = sim.Now() }
	hosts := func(ws []int) []netsim.NodeID {
		out := make([]netsim.NodeID, len(ws))
		for i, w := range ws {
			out[i] = nt.Host(w)
		}
		return out
	}
	opts := netsim.BulkOpts{Class: ClassOther}
	bulk := &countingBulk{nt: nt}
	switch opt.Scheme {
	case CREW, OPR, A2A:
		c, err := NewCluster(nt, Config{Options: opt, Estimate: est, ComputeScale: 1})
		if err != nil {
			return SingleResult{}, err
		}
		ok := false
		c.onTaskEnd = func(_ int, done bool, _ netsim.Time) { ok = done; finish() }
		for _, w := range P {
			c.wstate[w] = wReady
			c.enqueue(w)
		}
		sim.Run(netsim.Never)
		if err := c.Check(); err != nil {
			return SingleResult{}, err
		}
		if !ok {
			if c.lpCount > 0 && !(c.lpSum/float64(c.lpCount) < netsim.MaxSeconds) {
				return SingleResult{}, fmt.Errorf("%v: %w: its plan takes %.4g s (the LP's objective), beyond the %.3g s (106 days) the simulated clock holds",
					opt.Scheme, ErrIncomplete, c.lpSum/float64(c.lpCount), netsim.MaxSeconds)
			}
			return SingleResult{}, fmt.Errorf("%v: %w", opt.Scheme, ErrIncomplete)
		}
		if c.lpCount > 0 {
			res.LPObjective = c.lpSum / float64(c.lpCount)
			res.SplitT = c.splitSum / float64(c.lpCount)
		}
	case PS:
		ps := ChoosePS(est, nt.Delay)
		res.Server = ps
		var workers []int
		for _, w := range P {
			if w != ps {
				workers = append(workers, w)
			}
		}
		if len(workers) == 0 {
			end = start
			break
		}
		if err := collective.PSPushPull(sim, bulk, hosts(workers), nt.Host(ps), opt.Model, opts, finish); err != nil {
			return SingleResult{}, err
		}
		sim.Run(netsim.Never)
	case Ring:
		ring := GreedyRing(est, P, r)
		if err := collective.RingAllReduce(sim, bulk, hosts(ring), opt.Model, opts, finish); err != nil {
			return SingleResult{}, err
		}
		sim.Run(netsim.Never)
	case BLINK, ToA:
		var trees []Tree
		var share []float64
		if opt.Scheme == BLINK {
			trees, share = BlinkTrees(est, P)
		} else {
			d := make([][]float64, n)
			for i := range d {
				d[i] = make([]float64, n)
				for j := range d[i] {
					d[i][j] = nt.Delay[i][j].Seconds()
				}
			}
			segs := max(opt.TreeSegments, 1)
			trees = []Tree{ToATree(est, d, P, float64(opt.Model)*8, segs, opt.AnnealSteps, r)}
			share = []float64{1}
		}
		res.Trees = len(trees)
		parts := collective.EqualChunks(opt.Model, 1)
		if len(trees) > 1 {
			var err error
			if parts, err = collective.WeightedChunks(opt.Model, share); err != nil {
				return SingleResult{}, err
			}
		}
		left := len(trees)
		for i, t := range trees {
			err := collective.PipelinedTree(sim, bulk, hosts(t.Nodes), t.collective(), collective.TreeAllReduce, parts[i], max(opt.TreeSegments, 1), opts, func() {
				if left--; left == 0 {
					finish()
				}
			})
			if err != nil {
				return SingleResult{}, err
			}
		}
		sim.Run(netsim.Never)
	default:
		return SingleResult{}, fmt.Errorf("unknown scheme %v", opt.Scheme)
	}
	if end < 0 {
		return SingleResult{}, fmt.Errorf("%v: %w", opt.Scheme, ErrIncomplete)
	}
	res.Time = end - start
	res.Transfers, res.Bytes = nt.Transfers, nt.BytesSent
	return res, nil
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
