package netsim

import "fmt"

// Sim is one single-threaded, seeded simulation: a clock, an event queue, a
// packet pool and the root of its random streams. There is no package-level
// state, so many Sims run side by side in goroutines.
type Sim struct {
	now       Time
	seq       uint64
	heap      *heap4     // fast path when the default queue is used
	q         eventQueue // the queue in use (heap or B-tree)
	cancelled map[uint64]struct{}
	stopped   bool
	halted    bool
	events    uint64
	// monitor, when set, is called once every monitorEvery events; it
	// returns false to halt the run (see SetMonitor).
	monitor      func(now Time, events uint64) bool
	monitorEvery uint64
	monitorNext  uint64
	seed         uint64
	pool         PacketPool
}

// Option configures a Sim.
type Option func(*Sim)

// WithBtreeQueue makes the Sim use the B-tree event queue instead of the
// 4-ary heap. Results are identical; only speed differs.
func WithBtreeQueue() Option {
	return func(s *Sim) { s.heap = nil; s.q = newBtreeQueue() }
}

// New returns an empty simulation at time zero whose random streams derive
// from seed.
func New(seed uint64, opts ...Option) *Sim {
	h := &heap4{h: make([]Event, 0, 1024)}
	s := &Sim{heap: h, q: h, seed: seed, monitorNext: ^uint64(0)}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Now is the current virtual time.
func (s *Sim) Now() Time { return s.now }

// Seed is the seed all random streams of this Sim derive from.
func (s *Sim) Seed() uint64 { return s.seed }

// Events is the number of events fired so far.
func (s *Sim) Events() uint64 { return s.events }

// Pending is the number of events in the queue (cancelled ones included until
// they reach the head).
func (s *Sim) Pending() int { return s.q.len() }

// Packets is the Sim's packet pool.
func (s *Sim) Packets() *PacketPool { return &s.pool }

// Schedule arranges for h to receive an event at time at. Scheduling in the
// past is an engine invariant violation and panics.
func (s *Sim) Schedule(at Time, h Handler, kind int32, p *Packet, arg int64) EventID {
	if at < s.now {
		panic(fmt.Sprintf("netsim: event scheduled in the past (at %v, now %v)", at, s.now))
	}
	s.seq++
	e := Event{At: at, H: h, P: p, Arg: arg, Kind: kind, seq: s.seq}
	if s.heap != nil {
		s.heap.push(e)
	} else {
		s.q.push(e)
	}
	return EventID(s.seq)
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
// has already fired or was already cancelled has no effect: its bookkeeping
// entry is dropped once the entries outnumber twice the queued events (a
// scan of the queue), so the entries never exceed 2 x Pending + 64.
// (Timers, which are rearmed often, use their own generation counters.)
func (s *Sim) Cancel(id EventID) {
	if id == 0 {
		return
	}
	if s.cancelled == nil {
		s.cancelled = make(map[uint64]struct{})
	}
	s.cancelled[uint64(id)] = struct{}{}
	if len(s.cancelled) > 2*s.q.len()+64 {
		keep := make(map[uint64]struct{}, s.q.len())
		s.q.each(func(seq uint64) {
			if _, ok := s.cancelled[seq]; ok {
				keep[seq] = struct{}{}
			}
		})
		s.cancelled = keep
	}
}

// cancelledEntries is the number of cancellation entries held (for tests).
func (s *Sim) cancelledEntries() int { return len(s.cancelled) }

// Stop makes Run return after the current event.
func (s *Sim) Stop() { s.stopped = true }

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

// Run fires events in (time, sequence) order until the next event is later
// than until, the queue is empty, or Stop is called. Unless stopped, the clock
// then advances to until (when until is not Never).
func (s *Sim) Run(until Time) {
	s.stopped = false
	if s.halted {
		return
	}
	for !s.stopped {
		var ev Event
		if h := s.heap; h != nil {
			if len(h.h) == 0 || h.h[0].At > until {
				break
			}
			ev = h.pop()
		} else {
			top := s.q.peek()
			if top == nil || top.At > until {
				break
			}
			ev = s.q.pop()
		}
		if s.cancelled != nil {
			if _, ok := s.cancelled[ev.seq]; ok {
				delete(s.cancelled, ev.seq)
				continue
			}
		}
		s.now = ev.At
		s.events++
		ev.H.HandleEvent(ev)
		if s.events >= s.monitorNext {
			s.monitorNext += s.monitorEvery
			if !s.monitor(s.now, s.events) {
				s.halted, s.stopped = true, true
			}
		}
	}
	if !s.stopped && until != Never && s.now < until {
		s.now = until
	}
	if len(s.cancelled) > 0 && s.q.len() == 0 {
		s.cancelled = nil
	}
}
