package netsim

// key is what the event queue orders: the firing time, the scheduling
// sequence number (unique per Sim, so keys never tie) and the slot of the
// event's payload in the Sim's slab. At 24 bytes it is what moves on every
// heap step; the 40-byte payload stays put.
type key struct {
	at   Time
	seq  uint64
	slot uint32
}

// before is the total event order: time, then scheduling sequence.
func (k *key) before(o *key) bool {
	return k.at < o.at || (k.at == o.at && k.seq < o.seq)
}

// keyQueue is the scheduler's priority queue of keys, ordered by (at, seq).
// Two implementations exist: a 4-ary implicit heap (the default, faster on
// every workload measured, see BenchmarkScheduler) and a B-tree
// (WithBtreeQueue).
type keyQueue interface {
	push(k key)
	// pop removes and returns the smallest key; the queue must not be empty.
	pop() key
	// min returns the smallest key, or false when the queue is empty.
	min() (key, bool)
	len() int
}

// heap4 is an allocation-free 4-ary min-heap of keys.
// Invariant: for every i > 0, h[(i-1)/4] is not after h[i].
type heap4 struct {
	h []key
}

func (q *heap4) len() int { return len(q.h) }

func (q *heap4) min() (key, bool) {
	if len(q.h) == 0 {
		return key{}, false
	}
	return q.h[0], true
}

func (q *heap4) push(k key) {
	q.h = append(q.h, k)
	h := q.h
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) >> 2
		if !k.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = k
}

func (q *heap4) pop() key {
	h := q.h
	top := h[0]
	n := len(h) - 1
	last := h[n]
	q.h = h[:n]
	if n > 0 {
		q.siftDown(last, n)
	}
	return top
}

// replaceTop replaces the smallest key by k: one sift down instead of a pop
// and a push.
func (q *heap4) replaceTop(k key) { q.siftDown(k, len(q.h)) }

// siftDown places k at the root of h[:n] and moves it down to its place.
// A node with four children finds the smallest with three comparisons
// (a tournament) on one bounds-checked sub-slice.
func (q *heap4) siftDown(k key, n int) {
	h := q.h[:n]
	i := 0
	for {
		c := 4*i + 1
		if c+4 <= n {
			cs := h[c : c+4 : c+4]
			m := 0
			if cs[1].before(&cs[0]) {
				m = 1
			}
			m2 := 2
			if cs[3].before(&cs[2]) {
				m2 = 3
			}
			if cs[m2].before(&cs[m]) {
				m = m2
			}
			if !cs[m].before(&k) {
				break
			}
			h[i] = cs[m]
			i = c + m
			continue
		}
		if c >= n {
			break
		}
		m := c
		for j := c + 1; j < n; j++ {
			if h[j].before(&h[m]) {
				m = j
			}
		}
		if h[m].before(&k) {
			h[i] = h[m]
			i = m
		}
		break
	}
	h[i] = k
}
