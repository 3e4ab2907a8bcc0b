package netsim

import "github.com/google/btree"

// btreeQueue is the B-tree event queue. Keys (at, seq) are unique, as the
// B-tree requires. It is kept behind the same interface as the heap for
// comparison and for workloads where very many events share a timestamp.
type btreeQueue struct {
	t *btree.BTreeG[key]
}

func newBtreeQueue() *btreeQueue {
	return &btreeQueue{t: btree.NewG(32, func(a, b key) bool { return a.before(&b) })}
}

func (q *btreeQueue) len() int { return q.t.Len() }

func (q *btreeQueue) push(k key) { q.t.ReplaceOrInsert(k) }

func (q *btreeQueue) pop() key {
	k, _ := q.t.DeleteMin()
	return k
}

func (q *btreeQueue) min() (key, bool) { return q.t.Min() }
