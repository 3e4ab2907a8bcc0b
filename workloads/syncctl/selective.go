package syncctl

import (
	"fmt"
	"math"
	"math/rand/v2"

	"syncsim/netsim"
	"syncsim/workloads/training"
)

// SelectiveConfig are the parameters of Alg. 3.
type SelectiveConfig struct {
	P     int     // minimum group size p
	Eta   float64 // BAG relaxation eta (Alg. 1)
	Theta float64 // BPAWR threshold factor theta (Alg. 2)
	Dt    float64 // waiting slot Delta t, seconds
	// C forces a full (weighted) all reduce of all n workers every C
	// rounds (Alg. 3, line 5); 0 disables it.
	C int
	// BWError is e: the controller's estimate of a bandwidth b is
	// b (1 + e x), i.e. an error of b*e*x with x ~ U[-1, 1] drawn afresh
	// for every worker each time the controller refreshes its estimates
	// (Alg. 3, line 9; Sec. IV-B5). Must be in [0, 1).
	BWError float64
	// Cold makes the controller learn the compute-time distribution online
	// (cold start, Sec. IV-B5) instead of knowing each worker's
	// distribution in advance (warm start).
	Cold bool
	// MinSamples is the cold-start warm-up (training.DefaultMinSamples if
	// zero): until then the learnt CDF is 0 and nobody is predicted ready.
	MinSamples int
	// ExactConditional replaces Eq. 4's F(t+dt) by the true conditional
	// probability (F(t+dt)-F(t))/(1-F(t)).
	ExactConditional bool
	// Seed is the reading of BAG's line 6 (p+1 as printed, or p as the
	// text says), for the grouping of line 11 and BPAWR's g*.
	Seed BAGSeed
	// KRound is the reading of Alg. 2, line 8 (floor or round).
	KRound KRounding
}

// SelectiveReduce is Alg. 3 of the selective-reduce paper.
//
// Each Step is one pass of the loop (lines 4-27). With C > 0 and
// k % C == 0 it waits until all n workers are ready and synchronises them
// all; otherwise, when more than p workers are ready (line 8, "len(Q) > p"
// as printed) it refreshes the bandwidth estimates (line 9), collects the
// computing workers S (line 10), groups the ready ones with BAG (line 11),
// and asks BPAWR about each group in order (lines 12-22): slow workers that
// BPAWR would replace move to the next group (lines 14-16) and Launch
// groups are popped and synchronised asynchronously (lines 17-21), each
// launch incrementing k. k also counts the full all reduces, so that one
// happens every C rounds (the printed line 7 omits the increment, which
// would repeat the full all reduce forever). Finally it waits up to Dt for
// the next ready worker (line 24).
//
// Wasted wait (Sec. IV-A2: "a group of workers might be configured to wait
// for more ready workers; if no newly ready workers join finally, we call
// these wait time slots wasted"): a worker starts waiting the first time
// BPAWR puts it in a WaitReplace group; when it is finally launched, its
// wait (from that moment to the launch) is wasted if no member of the
// launched group became ready after the wait began. Waits still open at
// the end of the run are not booked.
type SelectiveReduce struct {
	cfg       SelectiveConfig
	prm       BPAWRParams
	rng       *rand.Rand
	emp       *training.Empirical
	pred      Predictor
	k         int
	waits     int
	waitStart []netsim.Time // per worker: start of its wait, or -1
	est       []float64
	s         []Training
}

// NewSelectiveReduce checks cfg. rng drives the bandwidth-estimation
// errors (pass a stream named for the controller, e.g.
// sim.Rand("syncctl/bw-estimate")); modelBytes is v.
func NewSelectiveReduce(cfg SelectiveConfig, modelBytes float64, rng *rand.Rand) (*SelectiveReduce, error) {
	switch {
	case cfg.P < 1:
		return nil, fmt.Errorf("selective reduce: p = %d, want >= 1", cfg.P)
	case !(cfg.Eta >= 0 && cfg.Eta < 1):
		return nil, fmt.Errorf("selective reduce: eta = %g, want 0 <= eta < 1", cfg.Eta)
	case !(cfg.Theta >= 0) || math.IsInf(cfg.Theta, 0):
		return nil, fmt.Errorf("selective reduce: theta = %g, want >= 0", cfg.Theta)
	case !(cfg.Dt > 0) || math.IsInf(cfg.Dt, 0):
		return nil, fmt.Errorf("selective reduce: dt = %g s, want > 0", cfg.Dt)
	case cfg.C < 0:
		return nil, fmt.Errorf("selective reduce: c = %d, want >= 0", cfg.C)
	case !(cfg.BWError >= 0 && cfg.BWError < 1):
		return nil, fmt.Errorf("selective reduce: bandwidth error e = %g, want 0 <= e < 1", cfg.BWError)
	case !(modelBytes > 0):
		return nil, fmt.Errorf("selective reduce: model size %g bytes, want > 0", modelBytes)
	case cfg.Seed != SeedPseudocode && cfg.Seed != SeedProse:
		return nil, fmt.Errorf("selective reduce: unknown BAG seed %d", int(cfg.Seed))
	case cfg.KRound != KFloor && cfg.KRound != KRound:
		return nil, fmt.Errorf("selective reduce: unknown k rounding %d", int(cfg.KRound))
	case rng == nil && cfg.BWError > 0:
		return nil, fmt.Errorf("selective reduce: bandwidth error needs a random stream")
	}
	s := &SelectiveReduce{
		cfg: cfg,
		prm: BPAWRParams{P: cfg.P, Eta: cfg.Eta, Theta: cfg.Theta, Dt: cfg.Dt, ModelBytes: modelBytes,
			Seed: cfg.Seed, KRound: cfg.KRound},
		rng: rng,
	}
	if cfg.Cold {
		min := cfg.MinSamples
		if min == 0 {
			min = training.DefaultMinSamples
		}
		s.emp = training.NewEmpirical(min, nil)
	}
	return s, nil
}

// CheckWorkers reports a p with which Alg. 3 can never launch a partial
// synchronisation on n workers. Line 8 launches only when len(Q) > p
// ready workers are queued (in both readings of BAG's seed), and at most n
// are, so p >= n never launches one. Only the full all reduces of line 5
// (c > 0) would run: with c = 1 every round is one, so p does not matter
// and the setting is allowed; with c >= 2 the first round would be one and
// the loop would then wait forever, so p >= n is refused unless c = 1.
// NewCluster calls it (WorkerChecker); experiments call it while
// validating their parameters, before a run.
func (cfg SelectiveConfig) CheckWorkers(n int) error {
	if cfg.P >= n && cfg.C != 1 {
		return fmt.Errorf("selective reduce: p = %d with %d workers never launches a group "+
			"(Alg. 3, line 8 launches only when more than p workers are ready); want p <= %d", cfg.P, n, n-1)
	}
	return nil
}

// CheckWorkers implements WorkerChecker: SelectiveConfig.CheckWorkers of
// the controller's configuration.
func (s *SelectiveReduce) CheckWorkers(n int) error { return s.cfg.CheckWorkers(n) }

// Name is "selective-reduce".
func (*SelectiveReduce) Name() string { return "selective-reduce" }

// Rounds is k, the number of synchronisations launched so far.
func (s *SelectiveReduce) Rounds() int { return s.k }

// Waits is the number of WaitReplace decisions BPAWR has made so far (one
// per group and controller pass).
func (s *SelectiveReduce) Waits() int { return s.waits }

func (s *SelectiveReduce) predictor(c *Cluster) Predictor {
	if s.pred != nil {
		return s.pred
	}
	var cdf func(w int) func(float64) float64
	if s.emp != nil {
		f := s.emp.CDF
		cdf = func(int) func(float64) float64 { return f }
	} else {
		cdf = func(w int) func(float64) float64 { return c.Dist(w).CDF }
	}
	if s.cfg.ExactConditional {
		s.pred = Conditional(cdf)
	} else {
		s.pred = Eq4(cdf)
	}
	return s.pred
}

// Step is one pass of Alg. 3's loop.
func (s *SelectiveReduce) Step(c *Cluster, w int) netsim.Time {
	if s.waitStart == nil {
		s.waitStart = make([]netsim.Time, c.N())
		for i := range s.waitStart {
			s.waitStart[i] = -1
		}
	}
	if w >= 0 && s.emp != nil {
		s.emp.Observe(c.LastCompute(w))
	}
	q := c.Queue()
	switch {
	case s.cfg.C > 0 && s.k%s.cfg.C == 0:
		if len(q) == c.Active() && len(q) > 0 { // line 5 (n workers)
			s.launch(c, append([]int(nil), q...))
		}
	case len(q) > s.cfg.P: // line 8
		s.selectAndLaunch(c, q)
	}
	if len(c.Queue()) == 0 {
		return 0
	}
	return netsim.FromSeconds(s.cfg.Dt)
}

func (s *SelectiveReduce) selectAndLaunch(c *Cluster, q []int) {
	// line 9: updated (estimated) bandwidth of every worker
	n := c.N()
	if cap(s.est) < n {
		s.est = make([]float64, n)
	}
	s.est = s.est[:n]
	for i := range s.est {
		b := c.BW(i)
		if s.cfg.BWError > 0 {
			b *= 1 + s.cfg.BWError*(2*s.rng.Float64()-1)
		}
		s.est[i] = b
	}
	// line 10: workers in training
	s.s = s.s[:0]
	c.Computing(func(id int, elapsed float64) {
		s.s = append(s.s, Training{ID: id, BW: s.est[id], Elapsed: elapsed})
	})
	// line 11
	members := make([]Member, len(q))
	for i, id := range q {
		members[i] = Member{ID: id, BW: s.est[id]}
	}
	groups := BAGWith(members, s.cfg.P, s.cfg.Eta, s.cfg.Seed)
	pred := s.predictor(c)
	set := s.s
	var launch [][]int
	for i := range groups {
		var res BPAWRResult
		res, set = BPAWR(set, groups[i], s.prm, pred)
		g := groups[i]
		if len(res.Delta) > 0 && i+1 < len(groups) { // lines 14-16
			g = without(g, res.Delta)
			groups[i] = g
			groups[i+1] = append(groups[i+1], res.Delta...)
		}
		switch res.Decision {
		case Launch:
			ids := make([]int, len(g))
			for j, m := range g {
				ids[j] = m.ID
			}
			launch = append(launch, ids)
		case WaitReplace:
			s.waits++
			now := c.Sim().Now()
			for _, m := range g {
				if s.waitStart[m.ID] < 0 {
					s.waitStart[m.ID] = now
				}
			}
		}
	}
	for _, g := range launch {
		s.launch(c, g)
	}
}

// launch starts group g (Alg. 3, lines 7 and 19; asynchronous), counts the
// round (line 20) and books the wasted waits of its members.
func (s *SelectiveReduce) launch(c *Cluster, g []int) {
	now := c.Sim().Now()
	for _, w := range g {
		start := s.waitStart[w]
		if start < 0 {
			continue
		}
		s.waitStart[w] = -1
		joined := false
		for _, x := range g {
			if c.QueuedAt(x) > start {
				joined = true
				break
			}
		}
		if !joined {
			c.AddWastedWait(w, now-start)
		}
	}
	c.Launch(g)
	s.k++
}

// without returns g minus the members in d (by ID), keeping g's order.
func without(g, d []Member) []Member {
	out := make([]Member, 0, len(g))
outer:
	for _, m := range g {
		for _, x := range d {
			if x.ID == m.ID {
				continue outer
			}
		}
		out = append(out, m)
	}
	return out
}
