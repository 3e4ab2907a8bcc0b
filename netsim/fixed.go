package netsim

import (
	"fmt"
	"unsafe"
)

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
//
// The slot's lowest bit tells a port (1) from a link (0); the next is set
// for a link into a BodyReader, whose arrivals load the next packet's
// body early (Sim.loadEarly).

// Bits of a fixed slot below the link's or port's number.
const (
	fixedPort   = 1 << iota // a port's start-next event, not a link's arrival
	fixedReader             // a link into a BodyReader (loadEarly)
	fixedShift              // the number's shift
)

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
	kind := uint32(0)
	r, _ := l.fwd.(BodyReader)
	if r != nil && r.ReadsBodies() {
		kind = fixedReader
	} else {
		r = nil
	}
	l.fslot = s.fix(len(s.flinks), kind)
	s.flinks = append(s.flinks, l)
	s.freaders = append(s.freaders, r)
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
	pt.fslot = s.fix(len(s.fports), fixedPort)
	s.fports = append(s.fports, pt)
	return pt.fslot
}

// fix is the fixed slot of the i-th link or port, kind its low bits
// (fixedPort, fixedReader).
func (s *Sim) fix(i int, kind uint32) uint32 {
	if i >= fixedBit>>fixedShift {
		panic(fmt.Sprintf("netsim: more than %d links or ports in one Sim", fixedBit>>fixedShift))
	}
	return fixedBit | uint32(i)<<fixedShift | kind
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
	i := (slot &^ fixedBit) >> fixedShift
	if slot&fixedPort == 0 {
		s.flinks[i].arrive(s, at, slot)
		return
	}
	s.starts++
	pt := s.fports[i]
	pt.pending = false
	pt.startNext(at)
}

// BodyReader is a Forwarder that reads the bodies of some of the packets
// it is handed: a host all of them, a switch with an ingress program
// those of the kinds the program is shown. A link into one loads the
// body of its next packet early when that packet is one the far node
// reads (Sim.loadEarly).
type BodyReader interface {
	Forwarder
	// ReadsBodies reports whether the node reads any body at all (a
	// switch without a program reads none). A link asks once, when its
	// Sim first numbers it (in the first run, after set-up); a node that
	// starts reading bodies later is handed its packets all the same,
	// only without the early loads.
	ReadsBodies() bool
	// ReadsBody reports whether the node reads the body of the packet
	// of descriptor d when it arrives.
	ReadsBody(d *Desc) bool
}

// loadEarly is called by an arrival on the link of fixed slot slot, a
// link into a BodyReader, once it has delivered what was due: d is the
// packet it delivers next. If the far node will read d's body, loadEarly
// prefetches the body now, so that its lines are on their way into the
// caches while other events run. The body was last written by its
// sender, often milliseconds before, and its first read at the far node
// missed every cache: at a full-size INA point 13 percent of the CPU
// profile for hosts alone, 4 percent more at the aggregating switches
// (docs/performance-history.md, "The next body loaded early").
func (s *Sim) loadEarly(slot uint32, d *Desc) {
	if r := s.freaders[(slot&^fixedBit)>>fixedShift]; r.ReadsBody(d) {
		s.loadBody(d)
	}
}

// loadBody prefetches d's body (loadEarly's load) and counts it.
func (s *Sim) loadBody(d *Desc) {
	prefetchPacket(unsafe.Pointer(s.pool.at(d.ref())))
	s.early++
}
