package netsim

import (
	"fmt"
	"time"
)

// Sim is one single-threaded, seeded simulation: a clock, an event queue, a
// packet pool and the root of its random streams. There is no package-level
// state, so many Sims run side by side in goroutines.
//
// The event queue orders small keys (time, sequence, slot); each event's
// handler and payload sit in a slab slot, written when the event is
// scheduled and read when it fires, and reused through a free list.
type Sim struct {
	now Time
	seq uint64
	// The default queue holds near events in a binary heap (heap) while
	// few are pending and in a calendar (cal) while many are (see
	// hybrid.go); exactly one of the two is set. Beside it a heap (far)
	// holds timers and the events beyond the calendar's window. With
	// WithBtreeQueue all three are nil and q holds every event.
	heap *heap2
	cal  *calendar
	far  *heap2
	q    keyQueue
	// held: the heap's root is the event firing now, logically removed;
	// the next Schedule replaces it (one sift instead of a pop and a
	// push), else Run pops it before looking at the next event.
	held bool
	// The structure not in use, kept for the next switch, and the events
	// left before the heap's size is looked at again.
	idleHeap *heap2
	idleCal  *calendar
	check    int
	// The switching thresholds (calendarAbove and heapBelow, but for
	// tests).
	calAbove, heapBelow int
	slab                slab
	// flinks and fports are the links and ports this Sim has numbered
	// for events without a payload (fixed.go).
	flinks []*Link
	// settling lists the ports that plan departures and may hold
	// planned packets, settled when Run returns (plan.go).
	settling []*Port
	fports   []*Port
	// freaders[i] is flinks[i]'s far node when it reads bodies (a
	// BodyReader whose ReadsBodies held when the link was numbered), else
	// nil.
	freaders []BodyReader
	stopped  bool
	halted   bool
	events   uint64
	// monitor, when set, is called once every monitorEvery events; it
	// returns false to halt the run (see SetMonitor).
	monitor      func(now Time, events uint64) bool
	monitorEvery uint64
	monitorNext  uint64
	seed         uint64
	pool         PacketPool
	// seqLimit is the largest sequence number before renumbering
	// (maxSeq; tests lower it).
	seqLimit uint64

	// guard is set on the coordinator of a partitioned network while a
	// window runs: touching it then is a misuse (see parallel.go).
	guard bool
	// par is the parallel engine of a partitioned network, on its
	// coordinator and on every partition; index is the partition's.
	par   *parallel
	index int
	// delivering is the link whose HandleEvent is running, if any.
	delivering *Link
	// early counts the bodies prefetched ahead of their delivery
	// (loadEarly, fixed.go).
	early uint64
	// starts and others count, among events, a port's start of its next
	// packet and events with a payload; the rest are link arrivals
	// (EventMix).
	starts, others uint64
	// books are the packet books of the nodes this Sim runs.
	books Stats
	// outMin is the earliest arrival posted to another partition in the
	// current window (Never if none); winEvents and winCPU are the last
	// window's events and CPU time, for the Profile.
	outMin    Time
	winEvents uint64
	winCPU    time.Duration
	// label names a partition by its first switch (or node).
	label string
}

// Option configures a Sim.
type Option func(*Sim)

// WithBtreeQueue makes the Sim use the B-tree event queue instead of the
// heaps and the calendar. Results are identical; only speed differs.
func WithBtreeQueue() Option {
	return func(s *Sim) { s.heap, s.far = nil, nil; s.q = newBtreeQueue() }
}

// New returns an empty simulation at time zero whose random streams derive
// from seed.
func New(seed uint64, opts ...Option) *Sim {
	s := &Sim{heap: &heap2{h: make([]key, 0, 256)}, far: &heap2{}, check: checkEvery, calAbove: calendarAbove, heapBelow: heapBelow, slab: newSlab(256), seed: seed, monitorNext: ^uint64(0), seqLimit: maxSeq}
	if lifoTies {
		s.seq = maxSeq + 1 // counting down (ties_lifo.go)
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Now is the current virtual time.
func (s *Sim) Now() Time {
	if s.guard {
		s.misuse()
	}
	return s.now
}

// Seed is the seed all random streams of this Sim derive from.
func (s *Sim) Seed() uint64 { return s.seed }

// Events is the number of events fired so far (on a partitioned
// network's coordinator: by every partition and the coordinator).
func (s *Sim) Events() uint64 {
	if s.par != nil && s.par.root == s {
		n := s.events
		for _, p := range s.par.parts {
			n += p.events
		}
		return n
	}
	return s.events
}

// EventMix splits Events by kind: arrivals at the far end of a link,
// starts of a waiting packet's serialisation at a port (port.go), and
// the events with a payload (timers and what applications and set-up
// schedule).
func (s *Sim) EventMix() (arrivals, starts, others uint64) {
	n, st, o := s.events, s.starts, s.others
	if s.par != nil && s.par.root == s {
		for _, p := range s.par.parts {
			n, st, o = n+p.events, st+p.starts, o+p.others
		}
	}
	return n - st - o, st, o
}

// Pending is the number of events in the queue (cancelled ones included until
// they reach the head).
func (s *Sim) Pending() int {
	switch {
	case s.heap != nil:
		n := s.heap.len() + s.far.len()
		if s.held {
			n--
		}
		return n
	case s.cal != nil:
		return s.cal.len() + s.far.len()
	}
	return s.q.len()
}

// Packets is the Sim's packet pool.
func (s *Sim) Packets() *PacketPool {
	if s.guard {
		s.misuse()
	}
	return &s.pool
}

// Schedule arranges for h to receive an event at time at. Scheduling in the
// past is an engine invariant violation and panics.
func (s *Sim) Schedule(at Time, h Handler, kind int32, p *Packet, arg int64) EventID {
	if at < s.now || s.guard {
		s.badSchedule(at)
	}
	s.nextSeq()
	sb := &s.slab
	if sb.free < 0 {
		sb.grow()
	}
	slot := uint32(sb.free)
	e := &sb.s[slot]
	sb.free = e.arg
	e.h, e.p, e.arg, e.kind = h, p, arg, kind
	s.pushKey(mkKey(at, s.seq, slot))
	return EventID(uint64(e.gen)<<32 | uint64(slot))
}

// pushKey hands k to the queue in use: the heap (replacing the firing
// event's key when it is still held at the root), the calendar, or the
// B-tree. Schedule and scheduleFixed share it (one call more per event
// than each having its own copy: +0.8 % instructions on the quick INA
// point and at 16 hosts, cachegrind).
func (s *Sim) pushKey(k key) {
	if hp := s.heap; hp != nil {
		if s.held {
			s.held = false
			hp.replaceTop(k)
		} else {
			hp.push(k)
		}
	} else if c := s.cal; c != nil {
		c.push(k)
	} else {
		s.q.push(k)
	}
}

// badSchedule panics for an event scheduled at at: in the past, or on
// the coordinator of a partitioned network inside a window.
func (s *Sim) badSchedule(at Time) {
	if s.guard {
		s.misuse()
	}
	panic(fmt.Sprintf("netsim: event scheduled in the past (at %v, now %v)", at, s.now))
}

// scheduleTimer is Schedule for timer events. With the calendar they wait
// in the overflow heap: a transport keeps one retransmission timer per
// flow, mostly a millisecond or more ahead and often stale (the flow ended
// or moved its deadline), so thousands of them would otherwise stretch the
// calendar's window over the packet events, which are microseconds
// ahead. Run fires the earlier of the two heads, so the (time, sequence)
// order is exactly that of one queue.
func (s *Sim) scheduleTimer(at Time, h Handler, arg int64) {
	if s.far == nil {
		s.Schedule(at, h, 0, nil, arg)
		return
	}
	if at < s.now || s.guard {
		s.badSchedule(at)
	}
	s.nextSeq()
	sb := &s.slab
	if sb.free < 0 {
		sb.grow()
	}
	slot := uint32(sb.free)
	e := &sb.s[slot]
	sb.free = e.arg
	e.h, e.p, e.arg, e.kind = h, nil, arg, 0
	s.far.push(mkKey(at, s.seq, slot))
}

// After schedules an event d after now.
func (s *Sim) After(d Time, h Handler, kind int32, p *Packet, arg int64) EventID {
	return s.Schedule(s.now+d, h, kind, p, arg)
}

// AfterFunc runs f at now+d. It allocates; use it for set-up and rare events.
func (s *Sim) AfterFunc(d Time, f func()) EventID {
	return s.Schedule(s.now+d, HandlerFunc(func(Event) { f() }), 0, nil, 0)
}

// At runs f at time t. It allocates; use it for set-up and rare events.
func (s *Sim) At(t Time, f func()) EventID {
	return s.Schedule(t, HandlerFunc(func(Event) { f() }), 0, nil, 0)
}

// Cancel prevents a scheduled event from firing. Cancelling an event that
// has already fired or was already cancelled has no effect. It costs O(1)
// and no memory: the event's slab slot is marked, and the slot is freed
// when its key reaches the head of the queue. (Timers, which are rearmed
// often, use their own generation counters.)
func (s *Sim) Cancel(id EventID) {
	if e := s.slab.lookup(id); e != nil {
		e.h, e.p = nil, nil
	}
}

// Stop makes Run return after the current event.
func (s *Sim) Stop() {
	if s.guard {
		s.misuse()
	}
	s.stopped = true
}

// SetMonitor arranges for m to be called after every `every` events that
// Run fires, with the current time and event count. When m returns false,
// Run returns after the current event and Halted reports true: a caller
// uses it to notice cancellation, report progress or detect a stall
// without an event of its own in the queue, so results are the same with
// or without a monitor. A nil m or every of 0 removes the monitor. The
// check costs one comparison per event.
func (s *Sim) SetMonitor(every uint64, m func(now Time, events uint64) bool) {
	if m == nil || every == 0 {
		s.monitor, s.monitorEvery, s.monitorNext = nil, 0, ^uint64(0)
		return
	}
	s.monitor, s.monitorEvery, s.monitorNext = m, every, s.events+every
}

// Halted reports whether a monitor (SetMonitor) stopped the last Run.
func (s *Sim) Halted() bool { return s.halted }

// Stopped reports whether Stop was called during the last Run.
func (s *Sim) Stopped() bool { return s.stopped }

// fire frees k's slot and delivers its event, unless it was cancelled
// (then it reports false, and neither the clock nor the count moves).
func (s *Sim) fire(k key) bool {
	slot := k.slot()
	if slot&fixedBit != 0 {
		s.fireFixed(slot, k.at)
		return true
	}
	e := &s.slab.s[slot]
	hd := e.h
	if hd == nil {
		s.slab.release(slot)
		return false
	}
	ev := Event{At: k.at, H: hd, P: e.p, Arg: e.arg, Kind: e.kind}
	s.slab.release(slot)
	s.now = k.at
	s.events++
	s.others++
	hd.HandleEvent(ev)
	return true
}

// Poke calls the monitor now, out of its cadence, for a handler whose own
// work is long: a learning step of a CNN takes milliseconds of CPU and an
// evaluation seconds, so the monitor's cadence of events can be minutes
// apart and an interrupted command would wait for them. When the monitor
// returns false, Run returns after the current event and Halted reports
// true, as at its cadence. Poke does nothing on a nil Sim, without a monitor, once
// halted, or on the coordinator of a partitioned run inside a window.
// A monitor only stops a run, so results are the same with or without it.
func (s *Sim) Poke() {
	if s == nil || s.monitor == nil || s.guard || s.halted {
		return
	}
	if !s.monitor(s.now, s.events) {
		s.halted, s.stopped = true, true
	}
}

// checkMonitor calls the monitor at its cadence and halts on false.
func (s *Sim) checkMonitor() {
	s.monitorNext += s.monitorEvery
	if !s.monitor(s.now, s.events) {
		s.halted, s.stopped = true, true
	}
}

// guarded returns s after checking that it is not the coordinator of a
// partitioned run inside a window.
func (s *Sim) guarded() *Sim {
	if s.guard {
		s.misuse()
	}
	return s
}
