package netsim

import "slices"

// nextSeq advances the scheduling sequence number, renumbering the
// pending events first when it would outgrow the bits a key holds.
func (s *Sim) nextSeq() {
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
	// ascending order is a valid heap.
	for i, t := range all {
		k := mkKey(t.k.at, uint64(i+1), t.k.slot())
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
}
