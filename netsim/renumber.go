package netsim

import "slices"

// nextSeq advances the scheduling sequence number, renumbering the
// pending events first when it would outgrow the bits a key holds. In a
// build with the tag syncsim_lifo (ties_lifo.go) the number counts down
// from maxSeq instead, so that among events of the same time the last
// scheduled fires first.
func (s *Sim) nextSeq() {
	if lifoTies {
		if s.seq <= maxSeq-s.seqLimit+1 {
			s.renumber()
		}
		s.seq--
		return
	}
	if s.seq >= s.seqLimit {
		s.renumber()
	}
	s.seq++
}

// renumber gives the pending events the sequence numbers 1..n in their
// (time, sequence) order and sets the counter to n, so events scheduled
// next still follow every pending one of the same time: the order of all
// events, and so every result, is that of unbounded sequence numbers. A
// key holds 39 bits of sequence, so this happens once per 5.5e11 events
// scheduled.
func (s *Sim) renumber() {
	type tagged struct {
		k   key
		far bool
	}
	if s.held {
		s.held = false
		s.heap.pop()
	}
	var all []tagged
	if s.far != nil {
		if s.heap != nil {
			for _, k := range s.heap.h {
				all = append(all, tagged{k, false})
			}
			s.heap.h = s.heap.h[:0]
		} else {
			for _, k := range s.cal.drain(nil) {
				all = append(all, tagged{k, false})
			}
		}
		for _, k := range s.far.h {
			all = append(all, tagged{k, true})
		}
		s.far.h = s.far.h[:0]
	} else {
		for s.q.len() > 0 {
			all = append(all, tagged{s.q.pop(), false})
		}
	}
	slices.SortFunc(all, func(a, b tagged) int {
		if a.k.before(&b.k) {
			return -1
		}
		return 1
	})
	// The calendar keeps its window, whose start no key precedes;
	// ascending order is a valid heap. Counting down (lifoTies), the
	// pending events take the n numbers up to maxSeq and the counter
	// continues below them.
	base := uint64(0)
	if lifoTies {
		base = maxSeq - uint64(len(all))
	}
	for i, t := range all {
		k := mkKey(t.k.at, base+uint64(i+1), t.k.slot())
		switch {
		case s.far == nil:
			s.q.push(k)
		case t.far:
			s.far.h = append(s.far.h, k)
		case s.heap != nil:
			s.heap.h = append(s.heap.h, k)
		default:
			s.cal.push(k)
		}
	}
	s.seq = uint64(len(all))
	if lifoTies {
		s.seq = base + 1
	}
}
