package switchmodel

import "syncsim/netsim"

// pktRing is a FIFO of packets, as their descriptors, in a power-of-two
// ring that doubles when full and is reused, so a queue allocates nothing
// once it has grown to its largest backlog. Serving the queue (byte
// counts, deficit round robin, the serialiser's timing) and marking never
// read a packet's body, which has usually gone cold while it waited.
type pktRing struct {
	ring  []netsim.Desc
	head  int32
	n     int32
	bytes netsim.Bytes
	sent  uint64 // bytes popped since creation
}

// push appends d.
func (r *pktRing) push(d netsim.Desc) {
	if int(r.n) == len(r.ring) {
		n := 2 * len(r.ring)
		if n == 0 {
			n = 16
		}
		nr := make([]netsim.Desc, n)
		for i := 0; i < int(r.n); i++ {
			nr[i] = r.ring[(int(r.head)+i)&(len(r.ring)-1)]
		}
		r.ring, r.head = nr, 0
	}
	r.ring[int(r.head+r.n)&(len(r.ring)-1)] = d
	r.n++
	r.bytes += d.Bytes()
}

// popSize removes the oldest packet, as pop, and returns its size; the
// ring must not be empty.
func (r *pktRing) popSize() netsim.Bytes {
	size := r.ring[r.head].Bytes()
	r.head = (r.head + 1) & int32(len(r.ring)-1)
	if r.n--; r.n == 0 {
		r.head = 0
	}
	r.bytes -= size
	r.sent += uint64(size)
	return size
}

// headSize is the size of the oldest packet; the ring must not be empty.
func (r *pktRing) headSize() netsim.Bytes { return r.ring[r.head].Bytes() }

// pop removes and returns the oldest packet; the ring must not be empty.
// An emptied ring starts again at its first slot, so a queue that is
// mostly short reuses the same few cache lines instead of marching over
// a ring grown in some burst (docs/performance-history.md, "Rings that
// start again at their first slot").
func (r *pktRing) pop() netsim.Desc {
	d := r.ring[r.head] // descriptors hold no pointers: the slot needs no clearing
	r.head = (r.head + 1) & int32(len(r.ring)-1)
	if r.n--; r.n == 0 {
		r.head = 0
	}
	r.bytes -= d.Bytes()
	r.sent += uint64(d.Size())
	return d
}
