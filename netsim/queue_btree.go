package netsim

import "github.com/google/btree"

// btreeQueue is the B-tree event queue. Keys (At, seq) are unique, as the
// B-tree requires. It is kept for comparison and for workloads where very
// many events share a timestamp.
type btreeQueue struct {
	t *btree.BTreeG[Event]
}

func newBtreeQueue() *btreeQueue {
	return &btreeQueue{t: btree.NewG(32, func(a, b Event) bool { return a.before(&b) })}
}

func (q *btreeQueue) len() int { return q.t.Len() }

func (q *btreeQueue) push(e Event) { q.t.ReplaceOrInsert(e) }

func (q *btreeQueue) pop() Event {
	e, _ := q.t.DeleteMin()
	return e
}

func (q *btreeQueue) peek() *Event {
	e, ok := q.t.Min()
	if !ok {
		return nil
	}
	return &e
}

func (q *btreeQueue) each(f func(seq uint64)) {
	q.t.Ascend(func(e Event) bool { f(e.seq); return true })
}
