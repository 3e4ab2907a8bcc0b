package netsim

import (
	"math/bits"
	"unsafe"
)

// key is what the event queue orders: the firing time, then one word
// holding the scheduling sequence number in its high bits (unique per
// Sim, so keys never tie) and the slot of the event's payload in the
// Sim's slab in its low slotBits, or, with fixedBit set, the link or port
// it is for (fixed.go). At 16 bytes, four keys share a cache line and a
// few thousand pending events fit the first-level cache; the 40-byte
// payload stays put.
type key struct {
	at Time
	ss uint64 // seq<<slotBits | slot
}

// Bounds of the packed key: at most maxSlots events with a payload
// pending at once, up to maxSlots/4 links and as many ports with events
// of their own (fixedBit), and sequence numbers up to maxSeq before the
// Sim renumbers its pending events (Sim.renumber), which keeps their
// order.
const (
	slotBits = 25
	slotMask = 1<<slotBits - 1
	maxSlots = 1 << 24
	fixedBit = maxSlots
	maxSeq   = 1<<(64-slotBits) - 1
)

// mkKey packs a key.
func mkKey(at Time, seq uint64, slot uint32) key {
	return key{at: at, ss: seq<<slotBits | uint64(slot)}
}

// slot is the key's slab slot, or its fixed handler with fixedBit set.
func (k *key) slot() uint32 { return uint32(k.ss & slotMask) }

// seq is the key's scheduling sequence number.
func (k *key) seq() uint64 { return k.ss >> slotBits }

// before is the total event order: time, then scheduling sequence.
func (k *key) before(o *key) bool {
	return k.at < o.at || (k.at == o.at && k.ss < o.ss)
}

// lt is k.before(o) as 0 or 1, computed without branches: times are
// non-negative, so (at, ss) compares as one unsigned 128-bit number whose
// subtraction borrows exactly when k is before o. Heap steps select
// children with it, which avoids the mispredicted branches of comparisons
// whose outcome is random.
func lt(k, o *key) uint64 {
	_, b := bits.Sub64(k.ss, o.ss, 0)
	_, b = bits.Sub64(uint64(k.at), uint64(o.at), b)
	return b
}

// keyQueue is a priority queue of keys, ordered by (at, seq). The
// scheduler's default is the hybrid of a binary heap and a calendar queue
// (hybrid.go), which it drives directly; the B-tree (WithBtreeQueue) goes
// through this interface, as the benchmarks' queues do.
type keyQueue interface {
	push(k key)
	// pop removes and returns the smallest key; the queue must not be empty.
	pop() key
	// min returns the smallest key, or false when the queue is empty.
	min() (key, bool)
	len() int
}

// heap2 is an allocation-free binary min-heap of keys.
// Invariant: for every i > 0, h[(i-1)/2] is not after h[i].
//
// The engine's own workloads are a hold pattern (the firing event's
// handler schedules the next one, replaceTop) on tens to hundreds of
// pending events (the hybrid hands more to the calendar): there a binary
// heap with branch-free comparisons, one dependent
// load and comparison per level, beat the 4-ary heap (heap4_test.go),
// whose level tournament costs two of each: 0.90x the CPU on the incast
// benchmark, equal on the background leaf-spine. The 4-ary heap's halved
// depth wins instead when pops and pushes of random keys alternate on
// 1e3-1e6 pending events (BenchmarkScheduler), which the engine does not
// do on its hot path.
type heap2 struct {
	h []key
}

func (q *heap2) len() int { return len(q.h) }

func (q *heap2) min() (key, bool) {
	if len(q.h) == 0 {
		return key{}, false
	}
	return q.h[0], true
}

func (q *heap2) push(k key) {
	q.h = append(q.h, k)
	h := q.h
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) >> 1
		if !k.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = k
}

func (q *heap2) pop() key {
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
func (q *heap2) replaceTop(k key) { q.siftDown(k, len(q.h)) }

// siftDown places k at the root of h[:n] and moves it down to its place,
// choosing the smaller child without a branch. (Walking the hole to a
// leaf first and moving k up from there, Floyd's bottom-up variant, saved
// 3 % of the instructions at 512 hosts but cost 3 % more at 16 and 40 %
// more mispredicted branches: not kept.)
//
// It is the scheduler's most frequent loop (one call per event), so it
// walks byte offsets into the array without bounds checks (every offset
// it touches is below n keys, which the compiler could not prove) and
// holds k in two registers: the checks, and k's address taken for the
// comparisons, kept k on the stack, reloaded at every level, and cost
// about 45 instructions a level against 32 now (-4 % of all
// instructions at 16 and at 512 hosts, cachegrind).
func (q *heap2) siftDown(k key, n int) {
	h := q.h[:n]
	if n == 0 {
		return
	}
	const size = unsafe.Sizeof(key{}) // two words: at, then ss
	base := unsafe.Pointer(unsafe.SliceData(h))
	end := uintptr(n) * size
	kat, kss := uint64(k.at), k.ss
	hole, c := uintptr(0), size // the hole's offset and its first child's
	for c+2*size <= end {
		cs := (*[4]uint64)(unsafe.Add(base, c))
		at, ss, at1, ss1 := cs[0], cs[1], cs[2], cs[3]
		// m: the second child is before the first (lt's borrow).
		_, m := bits.Sub64(ss1, ss, 0)
		_, m = bits.Sub64(at1, at, m)
		if m != 0 {
			at, ss = at1, ss1
		}
		if _, b := bits.Sub64(ss, kss, 0); !borrows(at, kat, b) {
			break
		}
		hs := (*[2]uint64)(unsafe.Add(base, hole))
		hs[0], hs[1] = at, ss
		hole = c + uintptr(m)*size
		c = 2*hole + size
	}
	if c+size == end {
		// One child (the last key), not yet compared when the loop ended
		// for want of a second.
		cs := (*[2]uint64)(unsafe.Add(base, c))
		if _, b := bits.Sub64(cs[1], kss, 0); borrows(cs[0], kat, b) {
			hs := (*[2]uint64)(unsafe.Add(base, hole))
			hs[0], hs[1] = cs[0], cs[1]
			hole = c
		}
	}
	hs := (*[2]uint64)(unsafe.Add(base, hole))
	hs[0], hs[1] = kat, kss
}

// borrows reports whether x - y - b borrows: the last step of lt's
// 128-bit comparison.
func borrows(x, y, b uint64) bool {
	_, b = bits.Sub64(x, y, b)
	return b != 0
}
