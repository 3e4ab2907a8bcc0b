package learnrig

import (
	"syncsim/netsim"
	"syncsim/workloads/crew"
	"syncsim/workloads/dssync"
	"syncsim/workloads/learn"
	"syncsim/workloads/syncctl"
)

// DSSync is the recorder of a dssync job (job 0 of the rig): every scheme
// of the DS-Sync evaluation as its paper defines it.
//
//   - Group schemes (DS-Sync's groups, Sec. III-A step 4, and BSP's one
//     group for ring, tree and hierarchical all-reduce): each worker takes
//     a local SGD step on its gradient (Pseudo Code 1 line 18,
//     optimizer.step) and the group averages its members' models piece by
//     piece (line 23, DS_Sync.Average). With one group of all workers this
//     is BSP exactly: the mean of x - lr g_i is x - lr mean(g_i).
//   - Gossip: stochastic gradient push (Assran et al. 2019) on the
//     directed exponential graph, one peer per iteration: local step on
//     the de-biased model z = x / w, then x and w are halved, one half
//     sent to the peer and the peer's half added (push-sum).
//   - ASP: each worker's gradient, computed at the model it last pulled,
//     is applied by the server as it arrives (piece by piece, Hogwild-
//     style), with lr by default (asp_lr=same; scaled: lr / workers),
//     and the worker
//     pulls the server's current piece.
func (g *Rig) DSSync(scheme string) dssync.Recorder {
	if g == nil {
		return nil
	}
	return &dssyncRec{g: g, f: g.Fleets[0], asp: scheme == "asp"}
}

type dssyncRec struct {
	g   *Rig
	f   *learn.Fleet
	asp bool
}

func (d *dssyncRec) t() float64 { return d.g.now(0) }

func (d *dssyncRec) Computed(w, _ int) {
	defer d.g.sim.Poke()
	if d.asp {
		d.f.Grad(d.t(), w)
		return
	}
	d.f.Step(d.t(), w)
}

func (d *dssyncRec) GroupAveraged(t, l int, members []int) {
	d.f.Do(learn.Op{Kind: learn.OpAverage, T: d.t(), Group: members, Piece: l, Iter: t})
}

func (d *dssyncRec) GossipSent(w, dst, t, l int) {
	d.f.Do(learn.Op{Kind: learn.OpSend, T: d.t(), W: w, Peer: dst, Piece: l, Iter: t})
}

func (d *dssyncRec) GossipMerged(w, src, t, l int) {
	d.f.Do(learn.Op{Kind: learn.OpRecv, T: d.t(), W: w, Peer: src, Piece: l, Iter: t})
}

func (d *dssyncRec) Pushed(w, _, l int) {
	d.f.Do(learn.Op{Kind: learn.OpPush, T: d.t(), W: w, Piece: l})
}

func (d *dssyncRec) Pulled(w, _, l int) {
	d.f.Do(learn.Op{Kind: learn.OpPull, T: d.t(), W: w, Piece: l})
}

func (d *dssyncRec) IterationDone(w, _ int) { d.f.Round(d.t(), w) }

// SyncCtl is the recorder of an sr-cluster run: all reduce (one group of
// every worker), partial reduce and selective reduce. A worker's round
// is one local step and one synchronisation; a group's all-reduce gives
// every member the weighted average of the members' models (Sec. II-C:
// "synchronize their locally updated models in a weighted manner"), with
// the rig's pr_weights.
func (g *Rig) SyncCtl() syncctl.Recorder {
	if g == nil {
		return nil
	}
	return &syncctlRec{g: g, f: g.Fleets[0]}
}

type syncctlRec struct {
	g *Rig
	f *learn.Fleet
}

func (s *syncctlRec) Computed(w int) {
	s.f.Step(s.g.now(0), w)
	s.g.sim.Poke()
}

func (s *syncctlRec) Synced(group []int) {
	t := s.g.now(0)
	s.f.Average(t, group, s.g.weights(s.f, group), 0)
	for _, w := range group {
		s.f.Round(t, w)
	}
}

// weights are a group's averaging weights under pr_weights (nil: equal).
func (g *Rig) weights(f *learn.Fleet, group []int) []float64 {
	if g.Weights == "staleness" {
		return f.StalenessWeights(group)
	}
	return nil
}

// Crew is the recorder of a crew-training run (CREW, OPR and A2A): a
// worker's local iteration is a local step; a partial reduce gives every
// member of P the same average of P's models (CREW Sec. II, strong
// consistency "following P-Reduce"), computed from the models at the
// formation of P (they do not change while the members wait) and adopted
// by each member when it holds the whole result, which ends its round.
func (g *Rig) Crew() crew.Recorder {
	if g == nil {
		return nil
	}
	return &crewRec{g: g, f: g.Fleets[0], task: map[int]int{}}
}

type crewRec struct {
	g    *Rig
	f    *learn.Fleet
	task map[int]int // worker -> partial reduce it waits in
}

func (c *crewRec) Computed(w int) {
	c.f.Step(c.g.now(0), w)
	c.g.sim.Poke()
}

func (c *crewRec) Formed(pid int, members []int) {
	c.f.Do(learn.Op{Kind: learn.OpReduce, T: c.g.now(0), Group: members, Weights: c.g.weights(c.f, members), Iter: pid})
	for _, w := range members {
		c.task[w] = pid
	}
}

func (c *crewRec) Holds(w int) {
	t := c.g.now(0)
	c.f.Do(learn.Op{Kind: learn.OpAdopt, T: t, W: w, Iter: c.task[w]})
	delete(c.task, w)
	c.f.Round(t, w)
}

func (c *crewRec) Released(w int) {
	c.f.Do(learn.Op{Kind: learn.OpRelease, T: c.g.now(0), W: w, Iter: c.task[w]})
	delete(c.task, w)
}

// Iterations replays a BSP job whose iteration k ended at ends[k] (every
// worker holding the exact sum of iteration k's gradients: the INA
// protocols and BytePS, PA-ATP Sec. V): job k of the rig takes, for each
// iteration, one local step per worker and the average of all workers,
// which is SGD on the concatenated batch. The schedule does not depend on
// the timing, so it is applied after the network run, at the recorded
// times.
func (g *Rig) Iterations(job int, ends []netsim.Time) {
	if g == nil {
		return
	}
	f := g.Fleets[job]
	all := make([]int, f.Workers())
	for i := range all {
		all[i] = i
	}
	for _, e := range ends {
		t := (e - g.start[job]).Seconds()
		for w := range all {
			f.Step(t, w)
			g.sim.Poke()
		}
		f.Average(t, all, nil, 0)
		for w := range all {
			f.Round(t, w)
		}
	}
}
