package netsim

// heap4 is the 4-ary variant of heap2 (same interface and order), kept
// beside the benchmarks that chose the binary heap.
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
			cs := (*[4]key)(h[c : c+4])
			a := lt(&cs[1], &cs[0])
			b := 2 + lt(&cs[3], &cs[2])
			m := a + (b-a)&-lt(&cs[b&3], &cs[a&1])
			if lt(&cs[m&3], &k) == 0 {
				break
			}
			h[i] = cs[m&3]
			i = c + int(m)
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
