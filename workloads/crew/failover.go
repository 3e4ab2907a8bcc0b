package crew

// Failover of a partial reduce (Sec. IV-B): when a connection between a
// block's aggregator and a member is noticed broken, or the aggregator
// fails, the chunks of the block that still need it move to a replacement
// aggregator chosen by Eq. 3; a lost initiator, no candidate or an
// unreachable controller abandon the partial reduce.

// lacking is the chunks of block b that member mi neither holds nor will
// receive (results already on their way from the block's aggregator).
func (t *crewTask) lacking(b, mi int) Block {
	return t.held[mi].from(t.split[b]).Minus(t.agg[b].mc[mi].arriving(t.c)).Minus(t.skip[mi])
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
	var cut []int
	for b, o := range t.owner {
		if t.split[b].Len() == 0 || (o != u && o != v) {
			continue
		}
		z := u + v - o
		mi := t.pos[z]
		if mi < 0 || z == o {
			continue
		}
		copyDone := t.planned[mi] && t.ml[mi].legs[b] != nil && t.ml[mi].legs[b].dst == o && t.ml[mi].legs[b].got.Equal(t.split[b])
		if !copyDone || t.lacking(b, mi).Len() > 0 {
			affected = append(affected, b)
			cut = append(cut, mi)
		}
	}
	t.failover(affected, cut)
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
	var affected, cut []int
	for b, o := range t.owner {
		if o != w || t.split[b].Len() == 0 {
			continue
		}
		for mi := range t.P {
			if t.lacking(b, mi).Len() > 0 {
				affected = append(affected, b)
				cut = append(cut, -1)
				break
			}
		}
	}
	t.failover(affected, cut)
}

// failover moves what each block in blocks still needs to a replacement
// aggregator, or abandons the partial reduce. cut[i] is the member whose
// connection to the block's aggregator broke (-1: the aggregator is
// lost).
func (t *crewTask) failover(blocks, cut []int) {
	if len(blocks) == 0 {
		return
	}
	if !t.c.ctrlUp {
		t.abandon()
		return
	}
	for i, b := range blocks {
		moved := t.moving(b, cut[i])
		if moved.Len() == 0 {
			continue
		}
		k := t.replacement(b, float64(moved.Len())/float64(t.c.cfg.Chunks))
		if k < 0 {
			t.abandon()
			return
		}
		t.reassign(b, k, moved)
		if t.state != tActive {
			return
		}
	}
}

// moving is the chunks of block b that go to the replacement. FailoverMove
// (and a lost aggregator) moves every chunk some member will lack;
// FailoverSplit moves only the chunks that need the broken connection to
// member cut: those the aggregator has not reduced, or whose result cut
// will lack. The aggregator keeps multicasting the rest to the members it
// still reaches.
func (t *crewTask) moving(b, cut int) Block {
	if t.c.cfg.Failover == FailoverSplit && cut >= 0 {
		kept := t.agg[b].red.Minus(t.lacking(b, cut))
		return t.split[b].Minus(kept)
	}
	var m Block
	for mi := range t.P {
		m = m.Union(t.lacking(b, mi))
	}
	return m
}

// replacement picks the new aggregator of a block's share (of the model)
// by Eq. 3 among the workers that are alive and have working connections
// to and from every member of P (CREW: any worker; OPR: the members), or
// returns -1. The load l is the candidate's (Eq3Candidate) or each
// member's (Eq3Literal), counted over this task (Eq3Task) or every task
// under way (Eq3Running).
func (t *crewTask) replacement(b int, share float64) int {
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
			l := t.loadOf(k)
			if c.cfg.Eq3 == Eq3Literal {
				l = t.loadOf(i)
			}
			score = max(score, (l+share)/min(c.view[i][k], c.view[k][i]))
		}
		if best < 0 || score < bestScore {
			best, bestScore = k, score
		}
	}
	return best
}

// loadOf is the model share worker w reduces, in this task or in every
// task under way (Options.Eq3Scope).
func (t *crewTask) loadOf(w int) float64 {
	if t.c.cfg.Eq3Scope == Eq3Task {
		return t.load[w]
	}
	l := 0.0
	for _, u := range t.c.tasks {
		if ct, ok := u.(*crewTask); ok && ct.state == tActive {
			l += ct.load[w]
		}
	}
	return l
}

// reassign makes k the aggregator of the chunks moved out of block b: they
// become a new block, every member streams its copy of them to k, and k
// multicasts their results to the members that lack them. The copies of
// those chunks at the old aggregator are discarded, its reductions and
// multicasts of them stop; members keep the results they hold.
func (t *crewTask) reassign(b, k int, moved Block) {
	c := t.c
	c.failovers++
	o := t.owner[b]
	share := float64(moved.Len()) / float64(c.cfg.Chunks)
	t.load[o] -= share
	t.load[k] += share
	t.share[b] -= share
	t.split[b] = t.split[b].Minus(moved)
	nb := len(t.split)
	t.split = append(t.split, moved)
	t.owner = append(t.owner, k)
	t.share = append(t.share, share)
	a := t.agg[b]
	a.gen++ // pending reductions of b are of moved chunks: the kept ones are reduced
	na := newBlockAgg(moved, len(t.P))
	t.agg = append(t.agg, na)
	for mi := range t.P {
		// The old aggregator stops multicasting moved chunks. Results of
		// moved chunks already on their way arrive (those of a transfer
		// stopped now included); the new aggregator does not send them
		// again.
		if s := a.mc[mi]; s != nil {
			if s.live && s.cur.Intersect(moved).Len() > 0 {
				c.stop(s)
			}
			s.queue = s.queue.Minus(moved)
			t.skip[mi] = t.skip[mi].Union(s.arriving(c).Intersect(moved))
			c.pump(s)
		}
		// Copies of moved chunks at the old aggregator are lost.
		if s := t.ml[mi].legs[b]; s != nil && t.planned[mi] {
			if s.live && s.cur.Intersect(moved).Len() > 0 {
				c.stop(s)
			}
			if s.dst != t.P[mi] {
				c.discarded += int64(s.got.Intersect(moved).Len())
			}
			s.got = s.got.Minus(moved)
			s.queue = s.queue.Minus(moved)
			s.want = t.split[b]
			c.pump(s)
		}
	}
	for mi, w := range t.P {
		ml := t.ml[mi]
		for len(ml.legs) <= nb {
			ml.legs = append(ml.legs, nil)
		}
		if !t.planned[mi] {
			continue // planArrives streams the new block
		}
		s := c.scatterStream(ml, nb, k, t.id)
		ml.legs[nb] = s
		s.want = moved
		if w == k {
			s.got = append(Block(nil), moved...)
			t.copyArrived(mi, nb, moved)
			continue
		}
		c.push(s, moved)
	}
}
