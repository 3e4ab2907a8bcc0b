package netsim

import "math/bits"

// calendar is the scheduler's queue of near events: a calendar queue
// (R. Brown, "Calendar queues", CACM 31(10), 1988) over a ring of
// buckets, each 1<<shift picoseconds wide, that covers the window
// [cur, cur+len) of bucket indices (at>>shift). A bucket holds up to
// calSlots keys sorted by (time, sequence) in two cache lines of a flat
// array, and a bitmap marks the non-empty buckets, so the earliest key is
// found with a count of trailing zeros instead of Brown's scan of days.
//
// A key beyond the window goes to the overflow heap (far, shared with
// the timers), one whose bucket is full to a small heap of its own
// (over: bursts of events at one time, which no width separates);
// take fires the earliest of the three heads, so the order is exactly
// that of one queue whichever structure holds a key. The ring therefore
// never grows while the simulation runs, and holds no pointers.
//
// The simulation is monotone (no key is pushed before the last one popped
// and no event is scheduled before now), which the ring relies on: every
// key held lies in [cur, cur+len), so ring positions never collide, and
// the search for the earliest key starts from hd, which only a push moves
// back.
//
// Pushing a key costs a shift, a compare and a store (keys mostly arrive
// in time order within a bucket); popping costs an index step; so neither
// grows with the pending count the way a heap's sift does, as long as the
// buckets stay sparse. The width and bucket count adapt to the workload
// every adaptEvery pops (adapt.go).
type calendar struct {
	keys  []slots  // bucket i's keys
	spans []span   // the occupied slots of each bucket
	bits  []uint64 // bit i set: bucket i is not empty
	mask  int64    // buckets - 1
	shift uint     // bucket width: 1<<shift ps
	// cur is the window's start: no key held, nor any key pushed
	// later, has a bucket index below it (it never passes now's
	// bucket). hd is at or below the earliest held key's bucket
	// (calEmpty when the ring is empty).
	cur  int64
	hd   int64
	n    int    // keys held (not counting the overflow heap)
	far  *heap2 // the overflow heap, beside the timers
	over heap2  // keys whose bucket was full
	ad   adaptation
	// small is set when the last period held fewer than below keys, too
	// few for the calendar to pay (see hybrid.go).
	small bool
	below int
}

// slots are a bucket's keys: two cache lines.
type slots [calSlots]key

// calEmpty is hd when the ring holds no key: after every bucket index.
const calEmpty = int64(^uint64(0) >> 1)

// span is a bucket's occupied slots, [lo, hi).
type span struct{ lo, hi uint8 }

// calSlots is a bucket's capacity: eight 16-byte keys, two cache lines.
// Events of a busy fabric cluster within a bucket without sharing a time
// (packets of one size leave ports in step): on the quick ina-leafspine
// point 13 % of the ring's pushes found a four-key bucket full and went
// to the burst heap, 0.5 % find an eight-key one full (docs/performance-history.md,
// "Buckets of eight keys").
const calSlots = 8

// Initial geometry, before the first adaptation: 64 buckets of 65.5 ns,
// a window of 4.2 us, about a packet-level fabric's link delay.
const (
	calInitShift = 16
	calInitLog   = 6
)

// newCalendar returns an empty calendar that spills into far.
func newCalendar(far *heap2) *calendar {
	c := &calendar{far: far}
	c.resize(calInitLog, calInitShift, 0)
	return c
}

// resize makes the ring 1<<logN buckets of 1<<shift ps starting at the
// bucket of time from. The calendar must be empty. The arrays are kept
// when they are large enough, so a ring that shrinks and grows again
// allocates nothing.
func (c *calendar) resize(logN, shift uint, from Time) {
	n := 1 << logN
	if cap(c.spans) < n {
		c.keys = make([]slots, n)
		c.spans = make([]span, n)
		c.bits = make([]uint64, (n+63)/64)
	}
	c.keys = c.keys[:n]
	c.spans = c.spans[:n]
	c.bits = c.bits[:(n+63)/64]
	c.mask = int64(n - 1)
	c.shift = shift
	c.cur = int64(from) >> shift
	c.hd = calEmpty
}

// len is the number of keys in the ring and the burst heap (the overflow
// heap apart).
func (c *calendar) len() int { return c.n + len(c.over.h) }

// push adds k, or hands it to the overflow heap when it lies beyond the
// window, or to the burst heap when its bucket is full. k must not be
// before the last key popped.
func (c *calendar) push(k key) {
	bi := int64(k.at) >> (c.shift & 63)
	if bi-c.cur > c.mask {
		c.spill(k, c.far, &c.ad.beyond)
		return
	}
	i := bi & c.mask
	sp := &c.spans[i]
	ks := &c.keys[i]
	switch {
	case sp.lo == sp.hi:
		ks[0] = k
		*sp = span{0, 1}
		c.bits[i>>6] |= 1 << (i & 63)
	case sp.hi == calSlots:
		c.spill(k, &c.over, &c.ad.full)
		return
	default:
		// Insertion from the back: keys mostly come in time order.
		j, lo := int(sp.hi), int(sp.lo)
		for j > lo && lt(&k, &ks[(j-1)&(calSlots-1)]) != 0 {
			ks[j&(calSlots-1)] = ks[(j-1)&(calSlots-1)]
			j--
		}
		ks[j&(calSlots-1)] = k
		sp.hi++
	}
	c.ad.note(k.at, Time(c.cur<<(c.shift&63)))
	c.hd = min(c.hd, bi)
	c.n++
}

// spill hands k to heap h and counts it in *why.
func (c *calendar) spill(k key, h *heap2, why *int) {
	h.push(k)
	*why++
}

// head returns the earliest key in the ring and the burst heap, or nil
// when both are empty. It moves hd to the ring's earliest bucket.
func (c *calendar) head() *key {
	p := c.ringHead()
	if o := c.over.h; len(o) > 0 && (p == nil || lt(&o[0], p) != 0) {
		return &o[0]
	}
	return p
}

// ringHead returns the earliest key in the ring, or nil when it is
// empty. It moves hd to that key's bucket.
func (c *calendar) ringHead() *key {
	i := c.hd & c.mask
	sp := c.spans[i]
	if sp.lo == sp.hi {
		if c.n == 0 {
			return nil
		}
		i = c.seek()
		sp = c.spans[i]
	}
	return &c.keys[i][sp.lo&(calSlots-1)]
}

// seek moves hd to the first non-empty bucket after it (one exists; hd's
// own is empty) and returns that bucket's position in the ring.
func (c *calendar) seek() int64 {
	i := c.hd & c.mask
	w := i >> 6
	// The rest of hd's word, then whole words around the ring.
	if m := c.bits[w] >> (i & 63); m != 0 {
		c.hd += int64(bits.TrailingZeros64(m))
		return c.hd & c.mask
	}
	nw := int64(len(c.bits))
	step := 64 - i&63
	for {
		w = (w + 1) & (nw - 1)
		if m := c.bits[w]; m != 0 {
			c.hd += step + int64(bits.TrailingZeros64(m))
			return c.hd & c.mask
		}
		step += 64
	}
}

// take removes and returns the earliest key of the ring, the burst heap
// and the overflow heap, unless it is later than until (then it reports
// false, as it does when all are empty). It is the scheduler's pop: one
// call per event.
func (c *calendar) take(until Time) (key, bool) {
	var p *key
	i := c.hd & c.mask
	sp := &c.spans[i]
	if sp.lo != sp.hi {
		p = &c.keys[i][sp.lo&(calSlots-1)]
	} else if c.n > 0 {
		i = c.seek()
		sp = &c.spans[i]
		p = &c.keys[i][sp.lo&(calSlots-1)]
	}
	// The heaps' heads are rarely first (timers are far ahead, bursts
	// rare), so the comparisons branch (predictably) on time first.
	var hp *heap2
	if o := c.over.h; len(o) > 0 && (p == nil || o[0].before(p)) {
		hp, p = &c.over, &o[0]
	}
	if f := c.far.h; len(f) > 0 && (p == nil || f[0].before(p)) {
		hp, p = c.far, &f[0]
	}
	if hp != nil {
		return c.takeHeap(hp, until)
	}
	if p == nil {
		return key{}, false
	}
	k := *p
	if k.at > until {
		return key{}, false
	}
	// k is the earliest pending key, so the window may start at its
	// bucket.
	c.cur = c.hd
	c.n--
	if sp.lo++; sp.lo == sp.hi {
		c.emptied(i, k.at)
	}
	return k, true
}

// takeHeap is take when the head of heap h (the burst or the overflow
// heap) is the earliest key.
func (c *calendar) takeHeap(h *heap2, until Time) (key, bool) {
	if h.h[0].at > until {
		return key{}, false
	}
	k := h.pop()
	c.passed(k.at)
	if c.ad.pops++; c.ad.pops >= adaptEvery {
		c.adapt(k.at)
	}
	return k, true
}

// pop removes k, which head just returned and which is the earliest
// pending anywhere.
func (c *calendar) pop(k key) {
	if len(c.over.h) > 0 && c.over.h[0] == k {
		c.over.pop()
		c.passed(k.at)
		return
	}
	i := c.hd & c.mask
	c.cur = c.hd
	c.n--
	sp := &c.spans[i]
	if sp.lo++; sp.lo == sp.hi {
		c.emptied(i, k.at)
	}
}

// emptied marks bucket i empty after its last key was popped at now, and
// adapts the geometry every adaptEvery emptied buckets.
func (c *calendar) emptied(i int64, now Time) {
	c.spans[i] = span{}
	c.bits[i>>6] &^= 1 << (i & 63)
	a := &c.ad
	a.maxN = max(a.maxN, c.n+1+len(c.over.h))
	if c.n == 0 {
		c.hd = calEmpty
	}
	if a.pops++; a.pops >= adaptEvery {
		c.adapt(now)
	}
}

// passed tells the ring that the overflow heap's head at time t fired:
// no key will be pushed before t, so the window may start at t's bucket.
func (c *calendar) passed(t Time) {
	if bi := int64(t) >> (c.shift & 63); bi > c.cur {
		c.cur = bi
		c.hd = max(c.hd, bi)
	}
}

// drain appends every key in the ring to ks, in no particular order, and
// empties the ring (its geometry stays).
func (c *calendar) drain(ks []key) []key {
	for i, sp := range c.spans {
		ks = append(ks, c.keys[i][sp.lo:sp.hi]...)
	}
	ks = append(ks, c.over.h...)
	c.over.h = c.over.h[:0]
	clear(c.spans)
	clear(c.bits)
	c.n = 0
	c.hd = calEmpty
	return ks
}
