package fluid

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"

	"syncsim/netsim"
)

// flush recomputes the rates of every transfer affected by the changes
// marked since the last flush, and re-arms the completion timer.
func (e *Engine) flush() {
	if len(e.dirty) == 0 {
		return
	}
	if e.full {
		for l := range e.links {
			e.markDirty(netsim.LinkID(l))
		}
	}
	e.collect()
	if len(e.comp) > 0 {
		e.recomputes++
		e.rerated += uint64(len(e.comp))
		for _, t := range e.comp {
			e.advance(t)
			t.prev = t.rate
		}
		e.allocate()
		e.reproject()
	}
	e.rearm()
}

// collect gathers into e.comp the active transfers that share links,
// transitively, with the dirty links (breadth-first over links), and clears
// the dirty marks. On return e.queue holds the component's links.
func (e *Engine) collect() {
	e.cepoch++
	ep := e.cepoch
	e.comp = e.comp[:0]
	e.queue = e.queue[:0]
	for _, l := range e.dirty {
		ls := &e.links[l]
		ls.dirty = false
		if ls.cmark != ep {
			ls.cmark = ep
			e.queue = append(e.queue, l)
		}
	}
	e.dirty = e.dirty[:0]
	for qi := 0; qi < len(e.queue); qi++ {
		ls := &e.links[e.queue[qi]]
		for _, t := range ls.trs {
			if t.cmark == ep {
				continue
			}
			t.cmark = ep
			e.comp = append(e.comp, t)
			for _, m := range t.path {
				if ms := &e.links[m]; ms.cmark != ep {
					ms.cmark = ep
					e.queue = append(e.queue, int32(m))
				}
			}
		}
	}
}

// allocate sets the rate of every transfer in e.comp according to the mode.
func (e *Engine) allocate() {
	for _, l := range e.queue {
		ls := &e.links[l]
		ls.resid = ls.cap
	}
	if e.mode == MaxMin || len(e.comp) == 1 {
		e.fill(e.comp)
		return
	}
	// FCFS: ranks by activation time, each rank filled max-min on what the
	// earlier ranks left (package documentation). Priority: ranks by (key,
	// activation time).
	if e.mode == Priority {
		slices.SortFunc(e.comp, func(a, b *transfer) int {
			if c := cmp.Compare(a.key, b.key); c != 0 {
				return c
			}
			return cmp.Compare(a.seq, b.seq)
		})
	} else {
		e.orderComp()
	}
	for i := 0; i < len(e.comp); {
		j := i + 1
		for j < len(e.comp) && e.comp[j].start == e.comp[i].start && e.comp[j].key == e.comp[i].key {
			j++
		}
		if j == i+1 {
			e.fillOne(e.comp[i])
		} else {
			e.fill(e.comp[i:j])
		}
		i = j
	}
}

// orderComp puts e.comp in activation order: by sorting it when it is
// small, or else by walking the engine's list of active transfers (kept in
// activation order) and picking the component's, in O(active).
func (e *Engine) orderComp() {
	n := len(e.comp)
	if n*bits.Len(uint(n)) < e.active {
		slices.SortFunc(e.comp, func(a, b *transfer) int { return cmp.Compare(a.seq, b.seq) })
		return
	}
	ep := e.cepoch
	e.comp = e.comp[:0]
	for t := e.first; t != nil; t = t.nextAct {
		if t.cmark == ep {
			e.comp = append(e.comp, t)
		}
	}
	if len(e.comp) != n {
		panic("fluid: active list out of step with the links' transfer lists")
	}
}

// reproject updates the projected completion of every transfer in e.comp
// whose rate changed, and enforces the no-stall invariant. A transfer
// whose rate is unchanged keeps its projection: recomputing it from the
// advanced remainder could only move it by rounding.
//
// The ordered set is updated lazily. t.finish is the projection; the set
// holds at most one live entry per transfer, at t.entryAt <= t.finish. A
// projection that moves later leaves the entry where it is: when the entry
// comes due, completeDue re-queues it at t.finish. A projection that moves
// earlier gets a new entry and the old one turns stale; stale entries are
// recognised when they come due (or swept when they are many) and
// dropped. Arrivals, which slow transfers down, then cost no B-tree work.
func (e *Engine) reproject() {
	now := e.sim.Now()
	for _, t := range e.comp {
		if t.rate <= 0 {
			e.checkStall(t)
		}
		if t.rate == t.prev && (t.inTree || t.rate == 0) {
			continue
		}
		f := projectFinish(now, t.remaining, t.rate)
		t.finish = f
		if f == netsim.Never || (t.inTree && t.entryAt <= f) {
			continue
		}
		if t.inTree {
			e.stale++
		}
		e.tree.ReplaceOrInsert(item{at: f, id: t.id, t: t})
		t.entryAt, t.inTree = f, true
	}
	if e.stale > sweepMin && 2*e.stale > e.tree.Len() {
		e.sweep()
	}
}

// sweepMin is the number of stale entries below which they are left to
// be dropped when they come due (a bound on wasted memory, not a model
// constant).
const sweepMin = 1024

// live reports whether it is its transfer's current entry.
func live(it item) bool {
	t := it.t
	return it.id == t.id && t.st == stActive && t.inTree && it.at == t.entryAt
}

// sweep deletes every stale entry from the ordered set.
func (e *Engine) sweep() {
	e.items = e.items[:0]
	e.tree.Ascend(func(it item) bool {
		if !live(it) {
			e.items = append(e.items, it)
		}
		return true
	})
	for _, it := range e.items {
		e.tree.Delete(it)
	}
	clear(e.items)
	e.stale = 0
}

// checkStall panics unless a zero-rate transfer is blocked by a link with
// no capacity left (zero capacity, or under FCFS and Priority saturated by
// higher ranks).
func (e *Engine) checkStall(t *transfer) {
	for _, l := range t.path {
		ls := &e.links[l]
		if ls.cap == 0 || (e.mode != MaxMin && ls.resid == 0) {
			return
		}
	}
	panic(fmt.Sprintf("fluid: no-stall invariant: transfer %d (%d bytes left) has rate 0 but no exhausted link", t.id, int64(t.remaining)))
}

// rearm points the completion timer at the earliest projection.
func (e *Engine) rearm() {
	it, ok := e.tree.Min()
	if !ok {
		e.timer.Stop()
		return
	}
	if e.timer.Armed() && e.timer.Deadline() == it.at {
		return
	}
	e.timer.Set(it.at)
}
