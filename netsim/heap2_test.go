package netsim

import (
	"slices"
	"testing"
)

// TestHeap2Order: pushes, pops and replaceTop on random keys, with many
// equal times, return the keys in (time, sequence) order, whatever the
// heap's size (siftDown's one-child and two-children ends included).
func TestHeap2Order(t *testing.T) {
	rng := Stream(7, "heap2")
	for _, size := range []int{1, 2, 3, 4, 5, 7, 8, 9, 31, 200, 3000} {
		q := &heap2{}
		var ref []key
		var seq uint64
		next := func(now Time) key {
			seq++
			return mkKey(now+Time(rng.IntN(50)), seq, uint32(seq&(maxSlots-1)))
		}
		for len(q.h) < size {
			k := next(0)
			q.push(k)
			ref = append(ref, k)
		}
		cmpKeys := func(a, b key) int {
			if a.before(&b) {
				return -1
			}
			if b.before(&a) {
				return 1
			}
			return 0
		}
		var now Time
		for op := 0; op < 20*size+100 && len(ref) > 0; op++ {
			slices.SortFunc(ref, cmpKeys)
			if q.h[0] != ref[0] {
				t.Fatalf("size %d, op %d: head (%v, %d), want (%v, %d)", size, op, q.h[0].at, q.h[0].seq(), ref[0].at, ref[0].seq())
			}
			now = ref[0].at
			switch rng.IntN(3) {
			case 0: // the hold pattern: the head's event schedules another
				k := next(now)
				q.replaceTop(k)
				ref[0] = k
			case 1:
				q.pop()
				ref = ref[1:]
			default:
				k := next(now)
				q.push(k)
				ref = append(ref, k)
			}
		}
	}
}
