package netsim

// Handler receives the events scheduled for it. Events carry a small value
// payload (a kind, a packet and an integer) instead of a closure, so the
// per-packet path allocates nothing.
type Handler interface {
	HandleEvent(ev Event)
}

// Event is one scheduled occurrence, as its Handler receives it. Events are
// totally ordered by (At, scheduling sequence): among events at the same
// time, the one scheduled first fires first.
type Event struct {
	At   Time    // when the event fires
	H    Handler // who receives it
	P    *Packet // optional packet payload
	Arg  int64   // optional integer payload
	Kind int32   // handler-defined event kind
}

// EventID identifies a scheduled event for Cancel: the event's slot in the
// Sim's payload slab and the slot's generation when it was scheduled. The
// zero EventID is never issued.
type EventID uint64

// HandlerFunc adapts a plain function to Handler. It is for set-up and
// infrequent events; the per-packet path uses typed handlers.
type HandlerFunc func(ev Event)

// HandleEvent calls f(ev).
func (f HandlerFunc) HandleEvent(ev Event) { f(ev) }
