package crew

import (
	"slices"

	"syncsim/netsim"
)

// memberLegs are one worker's scatter streams, indexed by block. Before
// its P is formed (non-blocking scatter) they belong to no task.
type memberLegs struct {
	w    int
	legs []*stream
	t    *crewTask // nil before formation
	mi   int       // index in t.P
}

// preScatter is a ready worker's non-blocking scatter by the default
// plan, started before its P is known (Sec. IV-A2).
type preScatter = memberLegs

// scatterStream starts ml's stream of block b towards dst for partial
// reduce pid.
func (c *Cluster) scatterStream(ml *memberLegs, b, dst, pid int) *stream {
	s := c.newStream(ml.w, dst, ClassScatter, pid)
	s.onArrive = func(m Block) {
		if ml.t != nil {
			ml.t.copyArrived(ml.mi, b, m)
		}
	}
	return s
}

// startPreScatter starts worker w's non-blocking scatter: block b of the
// default plan goes to worker b, chunks in increasing order.
func (c *Cluster) startPreScatter(w int) *preScatter {
	split := c.defaultSplit()
	pid := c.formingGroup().pid
	ml := &memberLegs{w: w, legs: make([]*stream, c.n), mi: -1}
	for b := range split {
		s := c.scatterStream(ml, b, b, pid)
		ml.legs[b] = s
		if b == w {
			s.got = append(Block(nil), split[b]...)
			continue
		}
		c.push(s, split[b])
	}
	return ml
}

// cancel stops every leg; the chunks that had reached (or will reach)
// other workers are discarded and counted.
func (ml *memberLegs) cancel(c *Cluster) {
	for _, s := range ml.legs {
		if s != nil {
			c.reset(s)
		}
	}
}

// task states
const (
	tActive uint8 = iota
	tComplete
	tAbandoned
)

// blockAgg is an aggregator's state for one block of a partial reduce:
// how many copies of each chunk it holds, what it has reduced, and its
// multicast streams back to the members.
type blockAgg struct {
	idx  chunkIndex
	cnt  []int32 // copies at the aggregator, by position in idx
	red  Block   // chunks reduced
	gen  uint32  // bumped when the block moves: pending reductions drop
	busy netsim.Time
	mc   []*stream // per member; nil until the first chunk goes out
}

// crewTask is one partial reduce by CREW or OPR: weighted scatter of the
// blocks to their aggregators, controlled reduce, way-back multicast
// (Sec. III), chunk by chunk (Options.Pipeline), with failover (Sec.
// IV-B, failover.go).
type crewTask struct {
	c     *Cluster
	id    int
	P     []int
	pos   []int // worker -> index in P, or -1
	pool  []int // block b's first aggregator (CREW: worker b; OPR: P[b])
	split Split // chunks of each block; failover may shrink blocks and append new ones
	owner []int // block b's aggregator now
	share []float64
	load  []float64 // per worker: model share it reduces in this task
	ml    []*memberLegs
	agg   []*blockAgg
	held  []chunkSet // per member: chunks whose result it holds
	skip  []Block    // per member: results on their way from a replaced aggregator
	done  []bool
	left  int

	planned []bool      // per member: the plan has reached it
	aggAt   netsim.Time // when aggregators know P
	formed  netsim.Time
	state   uint8
}

func newCrewTask(c *Cluster, pid int, P []int, pre []*preScatter) *crewTask {
	t := &crewTask{c: c, id: pid, P: append([]int(nil), P...), formed: c.sim.Now()}
	t.pos = make([]int, c.n)
	for i := range t.pos {
		t.pos[i] = -1
	}
	for mi, w := range t.P {
		t.pos[w] = mi
	}
	if c.cfg.Scheme == OPR {
		// Blocks in worker order, so that with p = n OPR is CREW exactly.
		t.pool = append([]int(nil), t.P...)
		slices.Sort(t.pool)
	} else {
		t.pool = make([]int, c.n)
		for b := range t.pool {
			t.pool[b] = b
		}
	}
	nb, p := len(t.pool), len(t.P)
	t.ml = make([]*memberLegs, p)
	for mi, w := range t.P {
		if pre != nil && pre[mi] != nil {
			t.ml[mi] = pre[mi]
		} else {
			t.ml[mi] = &memberLegs{w: w, legs: make([]*stream, nb)}
		}
		t.ml[mi].t, t.ml[mi].mi = t, mi
	}
	t.held = make([]chunkSet, p)
	for mi := range t.held {
		t.held[mi] = newChunkSet(c.cfg.Chunks)
	}
	t.skip = make([]Block, p)
	t.done = make([]bool, p)
	t.left = p
	t.planned = make([]bool, p)
	t.load = make([]float64, c.n)
	if c.ov != nil {
		for mi, w := range t.P {
			c.ovJoin(w, t, mi)
		}
	}
	return t
}

func (t *crewTask) pid() int { return t.id }

func (t *crewTask) member(w int) bool { return t.pos[w] >= 0 && !t.done[t.pos[w]] }

// start plans the partial reduce (LP or even weights, Alg. 1 or, after a
// non-blocking start, Alg. 2) and sends the plan to the members.
func (t *crewTask) start() {
	c := t.c
	if len(t.P) == 1 {
		// Nothing to exchange: one model is its own reduction.
		t.ml[0].cancel(c)
		t.finishMember(0)
		return
	}
	w, err := c.weights(t.P, t.pool)
	if err != nil {
		t.abandon()
		return
	}
	c.lpSum += w.Objective
	c.lpCount++
	if c.cfg.Scatter == NonBlocking && c.cfg.Scheme == CREW {
		t.split, _ = Rearrange(w.X, c.defaultSplit())
	} else {
		t.split = SplitFromScratch(w.X, c.cfg.Chunks)
	}
	t.owner = append([]int(nil), t.pool...)
	t.share = make([]float64, len(t.pool))
	for b, blk := range t.split {
		t.share[b] = float64(blk.Len()) / float64(c.cfg.Chunks)
		t.load[t.owner[b]] += t.share[b]
		t.agg = append(t.agg, newBlockAgg(blk, len(t.P)))
	}
	// T = T_scatter + T_multicast (Eq. 1a + 1b) of the split in chunks,
	// which Alg. 1's integer bounds move from the LP's x by up to a chunk
	// per block.
	ts, tm := Evaluate(c.view, t.P, t.pool, t.share, float64(c.cfg.Model)*8)
	c.splitSum += ts + tm
	t.aggAt = t.formed + c.cfg.Control
	for mi := range t.P {
		mi := mi
		c.after(c.cfg.Control, func() { t.planArrives(mi) })
	}
}

func newBlockAgg(blk Block, p int) *blockAgg {
	return &blockAgg{idx: newChunkIndex(blk), cnt: make([]int32, blk.Len()), mc: make([]*stream, p)}
}

// planArrives: member mi learns P and the split. Chunks its non-blocking
// scatter already delivered to an aggregator that no longer owns them are
// discarded; the rest of each block is streamed to its aggregator (a
// stream already heading there carries on, keeping its rank).
func (t *crewTask) planArrives(mi int) {
	if t.state != tActive {
		return
	}
	c := t.c
	t.planned[mi] = true
	ml := t.ml[mi]
	w := t.P[mi]
	for b, target := range t.split {
		o := t.owner[b]
		s := ml.legs[b]
		switch {
		case target.Len() == 0:
			// No chunk belongs here: whatever arrived is discarded.
			if s != nil {
				c.reset(s)
				s.want = Block{}
			}
			continue
		case s == nil:
			s = c.scatterStream(ml, b, o, t.id)
			ml.legs[b] = s
		case s.dst != o:
			c.retarget(s, o)
		}
		s.want = target
		avail := t.ovAvail(mi, target) // with overlap, what backprop has produced
		if o == w {
			s.got = append(Block(nil), avail...)
			t.copyArrived(mi, b, avail)
			continue
		}
		if drop := s.got.Minus(target); drop.Len() > 0 {
			c.discarded += int64(drop.Len())
			s.got = s.got.Intersect(target)
		}
		if s.live && s.cur.Minus(target).Len() > 0 {
			c.stop(s) // what had left arrives and is filtered by want
		}
		s.queue = avail.Minus(s.got).Minus(s.prop).Minus(s.cur)
		t.copyArrived(mi, b, s.got)
		c.pump(s)
	}
}

// copyArrived: chunks m of member mi's copy of block b have reached the
// block's aggregator. A chunk whose p copies are all there is reduced.
func (t *crewTask) copyArrived(mi, b int, m Block) {
	if t.state != tActive || !t.planned[mi] || b >= len(t.agg) || m.Len() == 0 {
		return
	}
	if t.ml[mi].legs[b].dst != t.owner[b] {
		return
	}
	a := t.agg[b]
	p := int32(len(t.P))
	if !t.split[b].within(m) {
		m = m.Intersect(t.split[b])
	}
	var ready Block
	for _, sp := range m {
		for ch := sp.Lo; ch <= sp.Hi; ch++ {
			k := a.idx.pos(ch)
			a.cnt[k]++
			if a.cnt[k] == p {
				ready = ready.add(Span{ch, ch})
			}
		}
	}
	if ready.Len() > 0 {
		t.reduce(b, ready)
	}
}

// reduce: the aggregator of block b holds every initiator's copy of the
// chunks ready. It sums them once it knows P (controlled reduce, Sec.
// III), taking (p - 1) copies' bytes at ReduceRate one batch after
// another, then multicasts them.
func (t *crewTask) reduce(b int, ready Block) {
	c := t.c
	a := t.agg[b]
	now := c.sim.Now()
	end := max(now, t.aggAt)
	if r := c.cfg.ReduceRate; r > 0 {
		end = max(end, a.busy) + netsim.FromSeconds(float64(len(t.P)-1)*float64(c.ch.Bytes(ready))*8/r)
		a.busy = end
	}
	if end <= now {
		t.reduced(b, ready)
		return
	}
	gen := a.gen
	c.sim.AfterFunc(end-now, func() {
		if t.state == tActive && a.gen == gen {
			t.reduced(b, ready)
		}
	})
}

// reduced: chunks of block b are reduced; the aggregator multicasts them
// to every member that lacks them (way-back multicast).
func (t *crewTask) reduced(b int, chunks Block) {
	c := t.c
	a := t.agg[b]
	chunks = chunks.Intersect(t.split[b])
	a.red = a.red.Union(chunks)
	o := t.owner[b]
	for mi, w := range t.P {
		need := t.held[mi].from(chunks)
		if t.skip[mi] != nil {
			need = need.Minus(t.skip[mi])
		}
		if need.Len() == 0 {
			continue
		}
		if w == o {
			t.result(mi, need)
			continue
		}
		s := a.mc[mi]
		if s == nil {
			s = c.newStream(o, w, ClassMulticast, t.id)
			mi := mi
			s.onArrive = func(m Block) { t.result(mi, m) }
			a.mc[mi] = s
		}
		c.push(s, need)
	}
}

// result: member mi holds the reduced chunks m.
func (t *crewTask) result(mi int, m Block) {
	if t.state != tActive {
		return
	}
	if dup := t.held[mi].add(m); dup.Len() > 0 {
		t.c.fail("partial reduce %d: worker %d received the result of chunks %v twice", t.id, t.P[mi], dup)
		return
	}
	if !t.done[mi] && t.held[mi].Len() == t.c.cfg.Chunks {
		t.finishMember(mi)
	} else if t.c.ov != nil {
		t.c.ovResult(t.P[mi]) // a forward pass may wait for these
	}
}

// finishMember: member mi has the whole reduced model.
func (t *crewTask) finishMember(mi int) {
	t.done[mi] = true
	t.left--
	t.c.memberDone(t.P[mi])
	if t.left == 0 {
		t.complete()
	}
}

// complete checks the books of a finished partial reduce: the blocks
// partition the k chunks, every aggregator received every chunk of its
// block from every initiator, and every member holds every chunk's
// result.
func (t *crewTask) complete() {
	c := t.c
	t.state = tComplete
	chunks := 0
	for b, blk := range t.split {
		if blk.Len() == 0 {
			continue
		}
		chunks += blk.Len()
		for mi := range t.P {
			s := t.ml[mi].legs[b]
			if s == nil || !s.got.Equal(blk) || s.dst != t.owner[b] {
				c.fail("partial reduce %d: aggregator %d of block %d lacks chunks of %v from worker %d", t.id, t.owner[b], b, blk, t.P[mi])
			}
		}
	}
	if len(t.P) > 1 {
		if chunks != c.cfg.Chunks {
			c.fail("partial reduce %d: blocks hold %d chunks of %d", t.id, chunks, c.cfg.Chunks)
		}
		for mi := range t.P {
			if t.held[mi].Len() != c.cfg.Chunks {
				c.fail("partial reduce %d: worker %d holds %d results of %d", t.id, t.P[mi], t.held[mi].Len(), c.cfg.Chunks)
			}
		}
		c.accepted += int64(chunks * len(t.P))
	}
	t.release()
	c.taskEnded(t, true, t.formed)
}

// release stops every stream of the task (all of them idle after a
// completion) and drops their late arrivals.
func (t *crewTask) release() {
	c := t.c
	for _, ml := range t.ml {
		for _, s := range ml.legs {
			if s != nil {
				c.stop(s)
				s.epoch++
			}
		}
	}
	for _, a := range t.agg {
		a.gen++
		for _, s := range a.mc {
			if s != nil {
				c.stop(s)
				s.epoch++
			}
		}
	}
}

// abandon gives the partial reduce up: every transfer stops and the
// members that lack the result train on without it.
func (t *crewTask) abandon() {
	if t.state != tActive {
		return
	}
	c := t.c
	t.state = tAbandoned
	t.release()
	for mi, w := range t.P {
		if !t.done[mi] {
			c.memberReleased(w)
		}
	}
	c.taskEnded(t, false, t.formed)
}

// chunkIndex gives each chunk of a block its position among the block's
// chunks.
type chunkIndex struct {
	spans Block
	off   []int // position of each span's first chunk
}

func newChunkIndex(b Block) chunkIndex {
	x := chunkIndex{spans: append(Block(nil), b...), off: make([]int, len(b))}
	n := 0
	for i, s := range b {
		x.off[i] = n
		n += s.Hi - s.Lo + 1
	}
	return x
}

// pos is chunk ch's position, or -1 if it is not in the block.
func (x chunkIndex) pos(ch int) int {
	i, ok := slices.BinarySearchFunc(x.spans, ch, func(s Span, c int) int {
		switch {
		case s.Hi < c:
			return -1
		case s.Lo > c:
			return 1
		}
		return 0
	})
	if !ok {
		return -1
	}
	return x.off[i] + ch - x.spans[i].Lo
}
