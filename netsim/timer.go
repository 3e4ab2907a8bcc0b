package netsim

// Timer is a re-armable one-shot timer that is cheap to move: Set to a later
// deadline writes one field and the pending event re-queues itself when it
// fires early; Set to an earlier deadline queues one new event and the old
// one is ignored when it surfaces. Retransmission timers, which move on every
// acknowledgement, therefore cost almost nothing.
//
// A Timer is used by value inside its owner; call Init before use.
type Timer struct {
	s        *Sim
	h        Handler
	kind     int32
	deadline Time
	pending  Time // At of the live queued event, or -1
	gen      int64
	armed    bool
}

// Init binds the timer to a Sim and to the handler that receives
// Event{Kind: kind} when it expires.
func (t *Timer) Init(s *Sim, h Handler, kind int32) {
	t.s, t.h, t.kind, t.pending = s, h, kind, -1
}

// Set arms the timer to expire at time at, replacing any earlier setting.
func (t *Timer) Set(at Time) {
	if at < t.s.now {
		at = t.s.now
	}
	t.armed = true
	t.deadline = at
	if t.pending >= 0 && t.pending <= at {
		return // the queued event will re-queue itself for the new deadline
	}
	t.gen++
	t.pending = at
	t.s.scheduleTimer(at, t, t.gen)
}

// SetAfter arms the timer to expire d after now.
func (t *Timer) SetAfter(d Time) { t.Set(t.s.now + d) }

// Stop disarms the timer.
func (t *Timer) Stop() { t.armed = false }

// Armed reports whether the timer will fire.
func (t *Timer) Armed() bool { return t.armed }

// Deadline is the time the timer fires if armed.
func (t *Timer) Deadline() Time { return t.deadline }

// HandleEvent implements Handler for the timer's own queued events.
func (t *Timer) HandleEvent(ev Event) {
	if ev.Arg != t.gen {
		return // superseded by an earlier Set
	}
	t.pending = -1
	if !t.armed {
		return
	}
	if t.deadline > ev.At {
		t.gen++
		t.pending = t.deadline
		t.s.scheduleTimer(t.deadline, t, t.gen)
		return
	}
	t.armed = false
	t.h.HandleEvent(Event{At: ev.At, H: t.h, Kind: t.kind})
}
