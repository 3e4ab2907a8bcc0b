package netsim

import "fmt"

// Links and ports are the handlers of almost every event of a packet-level
// run (an arrival at the far end of a link, the start of the next
// serialisation at a port), and their events carry nothing but the time:
// the link knows its packets, the port its queue. So they take no slab
// payload. A Sim numbers each link and port the first time it schedules
// one, and the key's slot holds that number with fixedBit set: the
// scheduling skips the slab's free list and stores, and firing calls the
// link or port directly, with no payload to read and free and no Event to
// build. The keys, their sequence numbers and so the order of events are
// those of Schedule.

// linkSlot is l's fixed slot in s, its receiving Sim (rsim), numbering
// l on first use. Partitioning, which gives links and ports other Sims,
// clears the numbers (partition.go).
func (s *Sim) linkSlot(l *Link) uint32 {
	if l.fslot != 0 {
		return l.fslot
	}
	return s.numberLink(l)
}

// numberLink gives l the next link number in s (linkSlot's slow path,
// apart so that linkSlot inlines).
func (s *Sim) numberLink(l *Link) uint32 {
	l.fslot = s.fix(len(s.flinks), 0)
	s.flinks = append(s.flinks, l)
	return l.fslot
}

// portSlot is pt's fixed slot in s, its Sim, numbering pt on first use.
func (s *Sim) portSlot(pt *Port) uint32 {
	if pt.fslot != 0 {
		return pt.fslot
	}
	return s.numberPort(pt)
}

// numberPort gives pt the next port number in s (portSlot's slow path).
func (s *Sim) numberPort(pt *Port) uint32 {
	pt.fslot = s.fix(len(s.fports), 1)
	s.fports = append(s.fports, pt)
	return pt.fslot
}

// fix is the fixed slot of the i-th link (kind 0) or port (kind 1).
func (s *Sim) fix(i int, kind uint32) uint32 {
	if i >= fixedBit/2 {
		panic(fmt.Sprintf("netsim: more than %d links or ports in one Sim", fixedBit/2))
	}
	return fixedBit | uint32(i)<<1 | kind
}

// scheduleFixed is Schedule for the link or port of a fixed slot: the
// same checks, sequence number and queues, no payload and no EventID
// (these events are never cancelled).
func (s *Sim) scheduleFixed(at Time, slot uint32) {
	if at < s.now || s.guard {
		s.badSchedule(at)
	}
	s.nextSeq()
	s.pushKey(mkKey(at, s.seq, slot))
}

// fireFixed runs the event of a fixed slot at time at (fire's work for
// these; the run loops call it directly).
func (s *Sim) fireFixed(slot uint32, at Time) {
	s.now = at
	s.events++
	i := (slot &^ fixedBit) >> 1
	if slot&1 == 0 {
		s.flinks[i].arrive(s, at, slot)
		return
	}
	pt := s.fports[i]
	pt.pending = false
	pt.startNext(at)
}
