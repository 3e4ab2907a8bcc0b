package fluid

// snap is the fraction of a link's capacity below which a residual is
// treated as exhausted: it absorbs float64 rounding left after subtracting
// rates (1e-9 of 100 Gbps is 100 bit/s).
const snap = 1e-9

// fill allocates max-min fair rates to the transfers of group by
// progressive filling on the links' residual capacities (ls.resid), and
// subtracts the allocated rates from those residuals.
//
// Progressive filling raises every unfrozen transfer's rate together; the
// first link to saturate is the one with the smallest fair share
// resid/n (n = unfrozen group transfers crossing it). Its transfers freeze
// at that share, their rates leave every link they cross, and filling
// continues. The links wait in an indexed min-heap keyed by share, so each
// bottleneck is found in O(log L) and each link whose share changes is
// re-keyed in place. Ties are broken by link id, so the order is
// deterministic; the rates do not depend on it.
func (e *Engine) fill(group []*transfer) {
	e.fepoch++
	fe := e.fepoch
	e.touched = e.touched[:0]
	for _, t := range group {
		t.fgroup, t.frozen, t.rate = fe, false, 0
		for _, l := range t.path {
			ls := &e.links[l]
			if ls.fmark != fe {
				ls.fmark, ls.n = fe, 0
				e.touched = append(e.touched, int32(l))
			}
			ls.n++
		}
	}
	h := &e.heap
	h.reset()
	for _, l := range e.touched {
		ls := &e.links[l]
		ls.share = ls.resid / float64(ls.n)
		h.push(e.links, l)
	}
	for h.len() > 0 {
		ls := &e.links[h.pop(e.links)]
		share := ls.resid / float64(ls.n)
		if share < 0 {
			share = 0
		}
		e.chepoch++
		ch := e.chepoch
		e.changed = e.changed[:0]
		for _, t := range ls.trs {
			if t.fgroup != fe || t.frozen {
				continue
			}
			t.frozen, t.rate = true, share
			for _, m := range t.path {
				ms := &e.links[m]
				ms.resid -= share
				if ms.resid < snap*ms.cap {
					ms.resid = 0
				}
				ms.n--
				if ms.chg != ch {
					ms.chg = ch
					e.changed = append(e.changed, int32(m))
				}
			}
		}
		for _, m := range e.changed {
			ms := &e.links[m]
			if ms.hpos < 0 {
				continue // already the bottleneck just popped
			}
			if ms.n == 0 {
				h.remove(e.links, m)
				continue
			}
			ms.share = ms.resid / float64(ms.n)
			h.fix(e.links, m)
		}
	}
}

// fillOne is fill for a group of one transfer: it takes the smallest
// residual on its path.
func (e *Engine) fillOne(t *transfer) {
	r := e.links[t.path[0]].resid
	for _, l := range t.path[1:] {
		r = min(r, e.links[l].resid)
	}
	r = max(r, 0)
	t.rate = r
	for _, l := range t.path {
		ls := &e.links[l]
		ls.resid -= r
		if ls.resid < snap*ls.cap {
			ls.resid = 0
		}
	}
}

// linkHeap is an indexed binary min-heap of link ids ordered by
// (links[l].share, l); each link records its position in hpos (-1 when
// absent). It allocates nothing once grown.
type linkHeap struct{ h []int32 }

func (h *linkHeap) reset()   { h.h = h.h[:0] }
func (h *linkHeap) len() int { return len(h.h) }

func heapLess(ls []linkState, a, b int32) bool {
	sa, sb := ls[a].share, ls[b].share
	return sa < sb || (sa == sb && a < b)
}

func (h *linkHeap) swap(ls []linkState, i, j int) {
	h.h[i], h.h[j] = h.h[j], h.h[i]
	ls[h.h[i]].hpos = int32(i)
	ls[h.h[j]].hpos = int32(j)
}

func (h *linkHeap) up(ls []linkState, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !heapLess(ls, h.h[i], h.h[p]) {
			return
		}
		h.swap(ls, i, p)
		i = p
	}
}

func (h *linkHeap) down(ls []linkState, i int) {
	n := len(h.h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && heapLess(ls, h.h[r], h.h[l]) {
			m = r
		}
		if !heapLess(ls, h.h[m], h.h[i]) {
			return
		}
		h.swap(ls, i, m)
		i = m
	}
}

func (h *linkHeap) push(ls []linkState, l int32) {
	h.h = append(h.h, l)
	ls[l].hpos = int32(len(h.h) - 1)
	h.up(ls, len(h.h)-1)
}

// pop removes and returns the link with the smallest share.
func (h *linkHeap) pop(ls []linkState) int32 {
	top := h.h[0]
	h.remove(ls, top)
	return top
}

// remove takes link l out of the heap.
func (h *linkHeap) remove(ls []linkState, l int32) {
	i := int(ls[l].hpos)
	n := len(h.h) - 1
	if i != n {
		h.swap(ls, i, n)
	}
	h.h = h.h[:n]
	ls[l].hpos = -1
	if i < n {
		h.fix(ls, h.h[i])
	}
}

// fix restores the heap order after link l's share changed.
func (h *linkHeap) fix(ls []linkState, l int32) {
	i := int(ls[l].hpos)
	h.up(ls, i)
	h.down(ls, int(ls[l].hpos))
}
