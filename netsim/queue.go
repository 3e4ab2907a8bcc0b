package netsim

// eventQueue is the scheduler's priority queue, ordered by (At, seq). Two
// implementations exist: a 4-ary implicit heap (the default, faster when
// timestamps rarely tie) and a B-tree; BenchmarkScheduler compares them.
type eventQueue interface {
	push(e Event)
	pop() Event
	peek() *Event
	len() int
	// each calls f with the sequence number of every queued event.
	each(f func(seq uint64))
}

// heap4 is an allocation-free 4-ary min-heap of events stored by value.
// Invariant: for every i > 0, h[(i-1)/4] is not after h[i].
type heap4 struct {
	h []Event
}

func (q *heap4) len() int { return len(q.h) }

func (q *heap4) peek() *Event {
	if len(q.h) == 0 {
		return nil
	}
	return &q.h[0]
}

func (q *heap4) push(e Event) {
	q.h = append(q.h, e)
	i := len(q.h) - 1
	for i > 0 {
		p := (i - 1) >> 2
		if !e.before(&q.h[p]) {
			break
		}
		q.h[i] = q.h[p]
		i = p
	}
	q.h[i] = e
}

func (q *heap4) pop() Event {
	h := q.h
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h[n] = Event{}
	h = h[:n]
	q.h = h
	if n == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := c + 4
		if end > n {
			end = n
		}
		for j := c + 1; j < end; j++ {
			if h[j].before(&h[m]) {
				m = j
			}
		}
		if !h[m].before(&last) {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = last
	return top
}

func (q *heap4) each(f func(seq uint64)) {
	for i := range q.h {
		f(q.h[i].seq)
	}
}
