package netsim

import "fmt"

// payload is what an event carries besides its key: the handler and the
// value payload it receives. Payloads live in a slab indexed by slot and are
// written once when scheduled and read once when fired; only the small
// keys move inside the priority queue.
type payload struct {
	h    Handler // nil once cancelled (or while the slot is free)
	p    *Packet
	arg  int64 // the event's Arg; the next free slot while the slot is free
	kind int32
	gen  uint32 // bumped whenever the slot is freed, so stale EventIDs miss
}

// slab holds event payloads in a slice reused through an intrusive free
// list of slots, so scheduling allocates nothing once the slab has grown to
// the largest number of pending events.
type slab struct {
	s    []payload
	free int64 // first free slot, -1 when none
}

func newSlab(capacity int) slab { return slab{s: make([]payload, 0, capacity), free: -1} }

// grow appends a slot to the slab and to the free list. Schedule takes
// the first free slot itself (a call would cost more than the few
// instructions it takes) and calls grow when there is none.
func (sb *slab) grow() {
	if len(sb.s) >= maxSlots {
		panic(fmt.Sprintf("netsim: more than %d events pending at once", maxSlots))
	}
	sb.s = append(sb.s, payload{gen: 1, arg: sb.free})
	sb.free = int64(len(sb.s) - 1)
}

// release frees slot i: its generation moves on, so an EventID issued for
// the slot's previous event no longer matches.
func (sb *slab) release(i uint32) {
	e := &sb.s[i]
	e.h, e.p = nil, nil
	e.gen++
	if e.gen == 0 {
		e.gen = 1 // the zero generation is never issued, so no EventID is 0
	}
	e.arg = sb.free
	sb.free = int64(i)
}

// lookup returns the payload of the pending event id, or nil if id is zero,
// has fired, was cancelled, or was never issued.
func (sb *slab) lookup(id EventID) *payload {
	i := uint64(uint32(id))
	if id == 0 || i >= uint64(len(sb.s)) {
		return nil
	}
	e := &sb.s[i]
	if uint64(e.gen) != uint64(id)>>32 || e.h == nil {
		return nil
	}
	return e
}
