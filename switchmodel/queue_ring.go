package switchmodel

import "syncsim/netsim"

// pktRing is a FIFO of packets in a power-of-two ring that doubles when
// full and is reused, so a queue allocates nothing once it has grown to its
// largest backlog. Each slot keeps the packet's size beside its pointer, so
// serving the queue (byte counts, deficit round robin, the serialiser's
// timing) never reads a packet that has gone cold while it waited.
type pktRing struct {
	ring  []slot
	head  int32
	n     int32
	bytes netsim.Bytes
	sent  uint64 // bytes popped since creation
}

// slot is one queued packet and its size.
type slot struct {
	p    *netsim.Packet
	size netsim.Bytes
}

// push appends p.
func (r *pktRing) push(p *netsim.Packet) {
	if int(r.n) == len(r.ring) {
		n := 2 * len(r.ring)
		if n == 0 {
			n = 16
		}
		nr := make([]slot, n)
		for i := 0; i < int(r.n); i++ {
			nr[i] = r.ring[(int(r.head)+i)&(len(r.ring)-1)]
		}
		r.ring, r.head = nr, 0
	}
	r.ring[int(r.head+r.n)&(len(r.ring)-1)] = slot{p, p.Size}
	r.n++
	r.bytes += p.Size
}

// headSize is the size of the oldest packet; the ring must not be empty.
func (r *pktRing) headSize() netsim.Bytes { return r.ring[r.head].size }

// pop removes and returns the oldest packet and its size; the ring must
// not be empty.
func (r *pktRing) pop() (*netsim.Packet, netsim.Bytes) {
	s := r.ring[r.head]
	r.ring[r.head] = slot{}
	r.head = (r.head + 1) & int32(len(r.ring)-1)
	r.n--
	r.bytes -= s.size
	r.sent += uint64(s.size)
	return s.p, s.size
}
