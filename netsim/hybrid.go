package netsim

import "math/bits"

// The default event queue is a hybrid. While few events are pending the
// near ones wait in a binary heap whose root is held while it fires
// (heap2, queue.go): a sift of a handful of levels with branch-free
// comparisons costs less than the calendar's fixed bookkeeping. Once the
// heap holds calendarAbove keys or more, the near events move to a
// calendar queue (calendar.go), whose cost does not grow with their
// number; when the calendar's busiest stretch since its last adaptation
// held fewer than heapBelow keys, they move back. Both keep the exact
// (time, sequence) order, so a switch never changes which event fires
// next, and when it happens depends only on the events: every run of
// the same model switches at the same events.
//
// The thresholds come from instruction counts of the two structures
// (docs/performance-history.md, "The event queue at scale"): the calendar costs more below about 100 pending
// events and less above a few hundred.
const (
	calendarAbove = 256
	heapBelow     = 64
	// checkEvery is how many events the heap runs between looks at its
	// size.
	checkEvery = 1 << 12
)

// heapToCalendar moves the near events from the heap to the calendar when
// the heap holds calendarAbove keys or more, and reports whether it did.
// Nothing may be held.
func (s *Sim) heapToCalendar() bool {
	s.check = checkEvery
	h := s.heap
	if len(h.h) < s.calAbove {
		return false
	}
	c := s.idleCal
	if c == nil {
		c = newCalendar(s.far)
		c.below = s.heapBelow
	}
	// The last geometry (or the initial one), with at least twice as
	// many buckets as keys; the next adaptation fits the width.
	logN := max(uint(bits.Len64(uint64(c.mask))), uint(bits.Len(uint(len(h.h))))+1)
	c.resize(min(logN, calMaxLog), c.shift, s.now)
	for _, k := range h.h {
		c.push(k)
	}
	c.small = false
	h.h = h.h[:0]
	s.heap, s.idleHeap, s.cal, s.idleCal = nil, h, c, nil
	return true
}

// calendarToHeap moves the near events from the calendar to the heap,
// which the calendar asked for (calendar.small), and reports true.
func (s *Sim) calendarToHeap() bool {
	c := s.cal
	h := s.idleHeap
	for _, k := range c.drain(c.ad.scratch[:0]) {
		h.push(k)
	}
	c.ad.scratch = c.ad.scratch[:0]
	c.small = false
	s.cal, s.idleCal, s.heap, s.idleHeap = nil, c, h, nil
	s.check = checkEvery
	return true
}

// withSwitch sets the hybrid's thresholds: the calendar takes over at
// above pending near events and hands back below below. Benchmarks and
// tests use it to hold one structure: above of MaxInt keeps the heap;
// above and below of 0 move to the calendar at the first look and keep
// it.
func withSwitch(above, below int) Option {
	return func(s *Sim) { s.calAbove, s.heapBelow = above, below }
}
