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
// continues. A link's share never decreases as others freeze (a frozen
// transfer took no more than the link's share), so a min-heap of shares
// with lazily discarded stale entries finds each bottleneck in O(log L).
// Ties are broken by link id, so the order is deterministic; the rates do
// not depend on it.
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
	e.heap.reset()
	for _, l := range e.touched {
		ls := &e.links[l]
		ls.ver++
		e.heap.push(shareEnt{share: ls.resid / float64(ls.n), link: l, ver: ls.ver})
	}
	for e.heap.len() > 0 {
		ent := e.heap.pop()
		ls := &e.links[ent.link]
		if ent.ver != ls.ver || ls.n == 0 {
			continue
		}
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
			ms.ver++
			if ms.n > 0 {
				e.heap.push(shareEnt{share: ms.resid / float64(ms.n), link: m, ver: ms.ver})
			}
		}
	}
}

// shareEnt is a link's fair share at the time it was pushed.
type shareEnt struct {
	share float64
	link  int32
	ver   uint32
}

func (a shareEnt) less(b shareEnt) bool {
	return a.share < b.share || (a.share == b.share && a.link < b.link)
}

// shareHeap is a binary min-heap of shares, allocation-free once grown.
type shareHeap struct{ h []shareEnt }

func (h *shareHeap) reset()   { h.h = h.h[:0] }
func (h *shareHeap) len() int { return len(h.h) }

func (h *shareHeap) push(x shareEnt) {
	h.h = append(h.h, x)
	i := len(h.h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.h[i].less(h.h[p]) {
			break
		}
		h.h[i], h.h[p] = h.h[p], h.h[i]
		i = p
	}
}

func (h *shareHeap) pop() shareEnt {
	top := h.h[0]
	n := len(h.h) - 1
	h.h[0] = h.h[n]
	h.h = h.h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h.h[r].less(h.h[l]) {
			m = r
		}
		if !h.h[m].less(h.h[i]) {
			break
		}
		h.h[i], h.h[m] = h.h[m], h.h[i]
		i = m
	}
	return top
}
