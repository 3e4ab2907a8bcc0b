package netsim

// Handler receives the events scheduled for it. Events carry a small value
// payload (a kind, a packet and an integer) instead of a closure, so the
// per-packet path allocates nothing.
type Handler interface {
	HandleEvent(ev Event)
}

// Event is one scheduled occurrence. Events are totally ordered by (At, seq):
// among events at the same time, the one scheduled first fires first.
type Event struct {
	At   Time    // when the event fires
	H    Handler // who receives it
	P    *Packet // optional packet payload
	Arg  int64   // optional integer payload
	Kind int32   // handler-defined event kind
	seq  uint64
}

// EventID identifies a scheduled event for Cancel. The zero EventID is never
// issued.
type EventID uint64

// before is the total event order: time, then scheduling sequence.
func (e *Event) before(o *Event) bool {
	return e.At < o.At || (e.At == o.At && e.seq < o.seq)
}

// HandlerFunc adapts a plain function to Handler. It is for set-up and
// infrequent events; the per-packet path uses typed handlers.
type HandlerFunc func(ev Event)

// HandleEvent calls f(ev).
func (f HandlerFunc) HandleEvent(ev Event) { f(ev) }
