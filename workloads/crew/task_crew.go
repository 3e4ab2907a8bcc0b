package crew

import (
	"slices"

	"syncsim/netsim"
	"syncsim/netsim/fluid"
)

// leg is one initiator's copy of one block on its way to the block's
// aggregator.
type leg struct {
	h     fluid.Handle
	gen   uint32
	live  bool  // a transfer is under way
	carry Block // chunks the transfer under way carries, in order
	got   Block // chunks that have reached dst (or are local)
	dst   int   // worker the chunks go to
	want  Block // the chunks dst must end up with; nil before the plan
}

// memberLegs are one worker's scatter legs, indexed by block. Before its
// P is formed (non-blocking scatter) they belong to no task.
type memberLegs struct {
	w    int
	legs []leg
	t    *crewTask // nil before formation
	mi   int       // index in t.P
}

// preScatter is a ready worker's non-blocking scatter by the default
// plan, started before its P is known (Sec. IV-A2).
type preScatter = memberLegs

// startPreScatter starts worker w's non-blocking scatter: block b of the
// default plan goes to worker b, chunks in increasing order.
func (c *Cluster) startPreScatter(w int) *preScatter {
	split := c.defaultSplit()
	pid := c.formingGroup().pid
	ml := &memberLegs{w: w, legs: make([]leg, c.n), mi: -1}
	for b := range split {
		lg := &ml.legs[b]
		lg.dst = b
		if b == w {
			lg.got = append(Block(nil), split[b]...)
			continue
		}
		if split[b].Len() > 0 {
			c.sendLeg(ml, b, split[b], pid)
		}
	}
	return ml
}

// sendLeg sends chunks of leg b of ml to the leg's dst.
func (c *Cluster) sendLeg(ml *memberLegs, b int, chunks Block, pid int) {
	lg := &ml.legs[b]
	lg.gen++
	lg.live = true
	lg.carry = chunks
	gen := lg.gen
	lg.h = c.net.send(ml.w, lg.dst, c.ch.Bytes(chunks), ClassScatter, pid, func() { ml.arrived(c, b, gen) })
}

// arrived books the chunks of leg b's transfer as delivered.
func (ml *memberLegs) arrived(c *Cluster, b int, gen uint32) {
	lg := &ml.legs[b]
	if gen != lg.gen || !lg.live {
		return
	}
	lg.live = false
	if dup := lg.got.Intersect(lg.carry); dup.Len() > 0 {
		c.fail("worker %d delivered chunks %v of block %d to worker %d twice", ml.w, dup, b, lg.dst)
	}
	lg.got = lg.got.Union(lg.carry)
	lg.carry = nil
	if lg.want != nil {
		lg.got = lg.got.Intersect(lg.want) // discards were booked with the plan
	}
	if ml.t != nil {
		ml.t.legProgress(ml.mi, b)
	}
}

// stop cancels leg b's transfer, if any; the chunks it had fully sent
// will arrive and join got. It returns those chunks.
func (ml *memberLegs) stop(c *Cluster, b int) Block {
	lg := &ml.legs[b]
	if !lg.live {
		return nil
	}
	sent, _ := c.net.cancel(lg.h)
	done := c.ch.Sent(lg.carry, sent)
	lg.got = lg.got.Union(done)
	lg.live = false
	lg.gen++
	lg.carry = nil
	return done
}

// cancel stops every leg; it returns the number of chunks that had reached
// (or will reach) other workers, all of which are now discarded.
func (ml *memberLegs) cancel(c *Cluster) int {
	n := 0
	for b := range ml.legs {
		ml.stop(c, b)
		if ml.legs[b].dst != ml.w {
			n += ml.legs[b].got.Len()
		}
		ml.legs[b].got = nil
	}
	return n
}

// mleg is the multicast of one reduced block to one initiator.
type mleg struct {
	h    fluid.Handle
	gen  uint32
	live bool
}

// task states
const (
	tActive uint8 = iota
	tComplete
	tAbandoned
)

// crewTask is one partial reduce by CREW or OPR: weighted scatter of the
// blocks to their aggregators, controlled reduce, way-back multicast
// (Sec. III), with failover (Sec. IV-B).
type crewTask struct {
	c      *Cluster
	id     int
	P      []int
	pos    []int // worker -> index in P, or -1
	pool   []int // block b's first aggregator (CREW: worker b; OPR: P[b])
	owner  []int // block b's aggregator now
	split  Split
	share  []float64 // block b's share of the model (chunks / k)
	load   []float64 // per worker: model share it reduces in this task
	ml     []*memberLegs
	legOK  [][]bool // [member][block] counted in scDone
	scDone []int    // per block: members whose copy has fully arrived
	reduce []bool   // per block: reduced (its multicast may be under way)
	redGen []uint32
	mc     [][]mleg // [block][member]
	has    [][]bool // [block][member] result delivered
	res    []int    // per member: blocks whose result it holds
	need   int      // non-empty blocks
	done   []bool
	left   int

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
			t.ml[mi] = &memberLegs{w: w, legs: make([]leg, nb)}
			for b := range t.ml[mi].legs {
				t.ml[mi].legs[b].dst = t.pool[b]
			}
		}
		t.ml[mi].t, t.ml[mi].mi = t, mi
	}
	t.legOK = make([][]bool, p)
	for mi := range t.legOK {
		t.legOK[mi] = make([]bool, nb)
	}
	t.scDone = make([]int, nb)
	t.reduce = make([]bool, nb)
	t.redGen = make([]uint32, nb)
	t.mc = make([][]mleg, nb)
	t.has = make([][]bool, nb)
	for b := range t.mc {
		t.mc[b] = make([]mleg, p)
		t.has[b] = make([]bool, p)
	}
	t.res = make([]int, p)
	t.done = make([]bool, p)
	t.left = p
	t.planned = make([]bool, p)
	t.load = make([]float64, c.n)
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
		for b := range t.ml[0].legs {
			t.ml[0].stop(c, b)
		}
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
		if blk.Len() > 0 {
			t.need++
		}
	}
	t.aggAt = t.formed + c.cfg.Control
	for mi := range t.P {
		mi := mi
		c.after(c.cfg.Control, func() { t.planArrives(mi) })
	}
}

// planArrives: member mi learns P and the split. Chunks its non-blocking
// scatter already delivered to an aggregator that no longer owns them are
// discarded; the rest of each block is sent (or the transfer under way
// continues when it carries exactly what is missing).
func (t *crewTask) planArrives(mi int) {
	if t.state != tActive {
		return
	}
	c := t.c
	t.planned[mi] = true
	ml := t.ml[mi]
	w := t.P[mi]
	for b, target := range t.split {
		lg := &ml.legs[b]
		o := t.owner[b]
		if target.Len() == 0 {
			// No chunk belongs here: whatever arrived is discarded.
			ml.stop(c, b)
			if lg.dst != w {
				c.discarded += int64(lg.got.Len())
			}
			lg.got, lg.want = nil, Block{}
			continue
		}
		if o == w {
			ml.stop(c, b)
			lg.dst, lg.got, lg.want = w, append(Block(nil), target...), target
			t.legProgress(mi, b)
			continue
		}
		D := lg.got
		var sentCh Block
		if lg.live {
			sent, _ := c.net.sentBytes(lg.h)
			sentCh = c.ch.Sent(lg.carry, sent)
			D = D.Union(sentCh)
		}
		if lg.dst != o {
			// Delivered to a worker that is not the aggregator: all lost.
			c.discarded += int64(D.Len())
			D = nil
		}
		keep := D.Intersect(target)
		c.discarded += int64(D.Minus(target).Len())
		need := target.Minus(keep)
		if lg.live && lg.dst == o && need.Len() > 0 && need.Equal(lg.carry.Minus(sentCh)) {
			lg.want = target // the transfer under way carries the rest
			continue
		}
		inFlight := lg.live && sentCh.Len() > 0
		ml.stop(c, b)
		lg.dst, lg.got, lg.want = o, keep, target
		switch {
		case need.Len() > 0:
			c.sendLeg(ml, b, need, t.id)
		case inFlight:
			// The chunks kept are still on the wire: an empty transfer
			// arrives behind them after the propagation delay.
			c.sendLeg(ml, b, nil, t.id)
		default:
			t.legProgress(mi, b)
		}
	}
}

// legProgress checks whether member mi's copy of block b is complete at
// the block's aggregator.
func (t *crewTask) legProgress(mi, b int) {
	if t.state != tActive || t.legOK[mi][b] {
		return
	}
	lg := &t.ml[mi].legs[b]
	if lg.live || lg.want == nil || lg.dst != t.owner[b] || !lg.got.Equal(lg.want) || t.split[b].Len() == 0 {
		return
	}
	t.legOK[mi][b] = true
	t.scDone[b]++
	if t.scDone[b] == len(t.P) {
		t.startReduce(b)
	}
}

// startReduce: the aggregator holds every initiator's copy of block b. It
// reduces them once it knows P (controlled reduce, Sec. III), taking
// (p - 1) block sizes at ReduceRate, then multicasts the result.
func (t *crewTask) startReduce(b int) {
	c := t.c
	if t.reduce[b] {
		return
	}
	d := max(t.aggAt-c.sim.Now(), 0)
	if r := c.cfg.ReduceRate; r > 0 {
		d += netsim.FromSeconds(float64(len(t.P)-1) * float64(c.ch.Bytes(t.split[b])) * 8 / r)
	}
	t.redGen[b]++
	gen := t.redGen[b]
	c.after(d, func() {
		if t.state == tActive && t.redGen[b] == gen {
			t.reduce[b] = true
			t.multicast(b)
		}
	})
}

// multicast sends block b's result from its aggregator to every member
// that lacks it (way-back multicast).
func (t *crewTask) multicast(b int) {
	c := t.c
	o := t.owner[b]
	size := c.ch.Bytes(t.split[b])
	for mi, w := range t.P {
		if t.has[b][mi] {
			continue
		}
		if w == o {
			t.result(b, mi)
			continue
		}
		m := &t.mc[b][mi]
		m.gen++
		m.live = true
		gen := m.gen
		mi := mi
		m.h = c.net.send(o, w, size, ClassMulticast, t.id, func() {
			if t.mc[b][mi].gen == gen && t.mc[b][mi].live {
				t.mc[b][mi].live = false
				t.result(b, mi)
			}
		})
	}
}

// result: member mi holds block b's reduced result.
func (t *crewTask) result(b, mi int) {
	if t.state != tActive {
		return
	}
	if t.has[b][mi] {
		t.c.fail("partial reduce %d: worker %d received block %d's result twice", t.id, t.P[mi], b)
		return
	}
	t.has[b][mi] = true
	t.res[mi]++
	if t.res[mi] == t.need {
		t.finishMember(mi)
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

// complete checks the books of a finished partial reduce: every
// aggregator received every chunk of its block from every initiator, and
// every member got every block.
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
			lg := &t.ml[mi].legs[b]
			if !lg.got.Equal(blk) || lg.dst != t.owner[b] || lg.live {
				c.fail("partial reduce %d: aggregator %d of block %d holds %v from worker %d, want %v", t.id, t.owner[b], b, lg.got, t.P[mi], blk)
			}
			if !t.has[b][mi] {
				c.fail("partial reduce %d: worker %d lacks block %d", t.id, t.P[mi], b)
			}
		}
	}
	if len(t.P) > 1 && chunks != c.cfg.Chunks {
		c.fail("partial reduce %d: blocks hold %d chunks of %d", t.id, chunks, c.cfg.Chunks)
	}
	c.accepted += int64(chunks * len(t.P))
	c.taskEnded(t, true, t.formed)
}

// abandon gives the partial reduce up: every transfer stops and the
// members that lack the result train on without it.
func (t *crewTask) abandon() {
	if t.state != tActive {
		return
	}
	c := t.c
	t.state = tAbandoned
	for _, ml := range t.ml {
		for b := range ml.legs {
			ml.stop(c, b)
		}
	}
	for b := range t.mc {
		for mi := range t.mc[b] {
			if m := &t.mc[b][mi]; m.live {
				c.net.cancel(m.h)
				m.live = false
				m.gen++
			}
		}
	}
	for mi, w := range t.P {
		if !t.done[mi] {
			c.memberReleased(w)
		}
	}
	c.taskEnded(t, false, t.formed)
}

// connDown handles a detected outage of connection u-v: every block whose
// aggregator still needs that connection (a copy from, or a result to, a
// member at the other end) gets a replacement aggregator by Eq. 3; if one
// has none, or the controller is unreachable (the standalone mode), the
// partial reduce is abandoned.
func (t *crewTask) connDown(u, v int) {
	if t.state != tActive || t.split == nil {
		return
	}
	var affected []int
	for b, o := range t.owner {
		if t.split[b].Len() == 0 || (o != u && o != v) {
			continue
		}
		z := u + v - o
		mi := t.pos[z]
		if mi < 0 || z == o {
			continue
		}
		if !t.legOK[mi][b] || !t.has[b][mi] {
			affected = append(affected, b)
		}
	}
	t.failover(affected)
}

// nodeDown handles a detected failure of worker w: an initiator's model
// is lost, so the partial reduce is abandoned; an aggregator's unfinished
// blocks get replacements.
func (t *crewTask) nodeDown(w int) {
	if t.state != tActive {
		return
	}
	if t.pos[w] >= 0 {
		t.abandon()
		return
	}
	if t.split == nil {
		return
	}
	var affected []int
	for b, o := range t.owner {
		if o != w || t.split[b].Len() == 0 {
			continue
		}
		for mi := range t.P {
			if !t.has[b][mi] {
				affected = append(affected, b)
				break
			}
		}
	}
	t.failover(affected)
}

// failover moves each block in blocks to a replacement aggregator, or
// abandons the partial reduce.
func (t *crewTask) failover(blocks []int) {
	if len(blocks) == 0 {
		return
	}
	if !t.c.ctrlUp {
		t.abandon()
		return
	}
	for _, b := range blocks {
		k := t.replacement(b)
		if k < 0 {
			t.abandon()
			return
		}
		t.reassign(b, k)
		if t.state != tActive {
			return
		}
	}
}

// replacement picks the new aggregator of block b by Eq. 3 among the
// workers that are alive and have working connections to and from every
// member of P (CREW: any worker; OPR: the members), or returns -1.
func (t *crewTask) replacement(b int) int {
	c := t.c
	cands := t.pool
	best, bestScore := -1, 0.0
	for _, k := range cands {
		if k == t.owner[b] || !c.usable(k) {
			continue
		}
		ok := true
		for _, i := range t.P {
			if !c.viewUp(i, k) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		score := 0.0
		for _, i := range t.P {
			if i == k {
				continue
			}
			l := t.load[k]
			if c.cfg.Eq3 == Eq3Literal {
				l = t.load[i]
			}
			score = max(score, (l+t.share[b])/min(c.est[i][k], c.est[k][i]))
		}
		if best < 0 || score < bestScore {
			best, bestScore = k, score
		}
	}
	return best
}

// reassign makes k block b's aggregator: the copies and partial results
// at the old aggregator are discarded, every member sends its copy to k,
// and k multicasts the result to the members that lack it.
func (t *crewTask) reassign(b, k int) {
	c := t.c
	c.failovers++
	o := t.owner[b]
	t.load[o] -= t.share[b]
	t.load[k] += t.share[b]
	t.owner[b] = k
	t.redGen[b]++
	t.reduce[b] = false
	t.scDone[b] = 0
	for mi := range t.mc[b] {
		if m := &t.mc[b][mi]; m.live {
			c.net.cancel(m.h)
			m.live = false
			m.gen++
		}
	}
	for mi, w := range t.P {
		ml := t.ml[mi]
		lg := &ml.legs[b]
		ml.stop(c, b)
		if lg.dst != w {
			c.discarded += int64(lg.got.Len())
		}
		t.legOK[mi][b] = false
		lg.dst, lg.got = k, nil
		if !t.planned[mi] {
			lg.want = nil // planArrives sends the block to k
			continue
		}
		lg.want = t.split[b]
		if w == k {
			lg.got = append(Block(nil), t.split[b]...)
			t.legProgress(mi, b)
			continue
		}
		c.sendLeg(ml, b, t.split[b], t.id)
	}
}
