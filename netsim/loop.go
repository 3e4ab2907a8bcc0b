package netsim

// Run fires events in (time, sequence) order until the next event is later
// than until, the queue is empty, or Stop is called. Unless stopped, the clock
// then advances to until (when until is not Never).
func (s *Sim) Run(until Time) {
	if s.par != nil && s.par.root == s {
		s.par.run(until)
		for _, p := range s.par.parts {
			p.settleAll()
		}
		return
	}
	defer s.settleAll()
	s.stopped = false
	if s.halted {
		return
	}
	s.runUntil(until)
	if !s.stopped && until != Never && s.now < until {
		s.now = until
		if s.cal != nil {
			s.cal.passed(until)
		}
	}
}

// runUntil fires events up to until on whichever queue is in use,
// following the switches between heap and calendar, and leaves nothing
// held.
func (s *Sim) runUntil(until Time) {
	for {
		switch {
		case s.heap != nil:
			if !s.runHeap(until) {
				if s.held {
					s.held = false
					s.heap.pop()
				}
				return
			}
		case s.cal != nil:
			if !s.runCal(until) {
				return
			}
		default:
			s.runQueue(until)
			return
		}
	}
}

// runHeap is Run's loop on the binary heap. The firing event's key stays at
// the root (held) while its handler runs, so that the handler's first
// Schedule replaces it with one sift down. Every checkEvery events it
// looks at the heap's size; it returns true when it switched to the
// calendar (with nothing held), false when it is done.
func (s *Sim) runHeap(until Time) bool {
	h, fh := s.heap, s.far
	for !s.stopped {
		if s.held {
			s.held = false
			h.pop()
		}
		if s.check--; s.check <= 0 && s.heapToCalendar() {
			return true
		}
		var k key
		switch {
		case len(fh.h) > 0 && (len(h.h) == 0 || fh.h[0].before(&h.h[0])):
			if k = fh.h[0]; k.at > until {
				return false
			}
			fh.pop()
		case len(h.h) > 0:
			if k = h.h[0]; k.at > until {
				return false
			}
			s.held = true
		default:
			return false
		}
		if slot := k.slot(); slot&fixedBit != 0 {
			s.fireFixed(slot, k.at) // a link or port: no payload (fixed.go)
		} else if !s.fire(k) {
			continue
		}
		if s.events >= s.monitorNext {
			s.checkMonitor()
		}
	}
	return false
}

// runCal is Run's loop on the calendar and its overflow heap. It returns
// true when it switched to the heap, false when it is done.
func (s *Sim) runCal(until Time) bool {
	c := s.cal
	for !s.stopped {
		if c.small && s.calendarToHeap() {
			return true
		}
		k, ok := c.take(until)
		if !ok {
			return false
		}
		if slot := k.slot(); slot&fixedBit != 0 {
			s.fireFixed(slot, k.at) // a link or port: no payload (fixed.go)
		} else if !s.fire(k) {
			continue
		}
		if s.events >= s.monitorNext {
			s.checkMonitor()
		}
	}
	return false
}

// runQueue is Run's loop on any keyQueue (the B-tree).
func (s *Sim) runQueue(until Time) {
	for !s.stopped {
		k, ok := s.q.min()
		if !ok || k.at > until {
			break
		}
		s.q.pop()
		if !s.fire(k) {
			continue
		}
		if s.events >= s.monitorNext {
			s.checkMonitor()
		}
	}
}

// peek returns the earliest pending key, or false when none is pending.
// Nothing may be held.
func (s *Sim) peek() (key, bool) {
	if s.far == nil {
		return s.q.min()
	}
	var p *key
	if s.heap != nil {
		if len(s.heap.h) > 0 {
			p = &s.heap.h[0]
		}
	} else {
		p = s.cal.head()
	}
	if len(s.far.h) > 0 && (p == nil || lt(&s.far.h[0], p) != 0) {
		return s.far.h[0], true
	}
	if p == nil {
		return key{}, false
	}
	return *p, true
}

// popPeeked removes k, which peek just returned.
func (s *Sim) popPeeked(k key) {
	switch {
	case s.far == nil:
		s.q.pop()
	case len(s.far.h) > 0 && s.far.h[0] == k:
		s.far.pop()
		if s.cal != nil {
			s.cal.passed(k.at)
		}
	case s.heap != nil:
		s.heap.pop()
	default:
		s.cal.pop(k)
	}
}
