package switchmodel

import "syncsim/netsim"

// pktRing is a FIFO of packets in a power-of-two ring that doubles when
// full and is reused, so a queue allocates nothing once it has grown to its
// largest backlog.
type pktRing struct {
	ring  []*netsim.Packet
	head  int
	n     int
	bytes netsim.Bytes
}

// push appends p.
func (r *pktRing) push(p *netsim.Packet) {
	if r.n == len(r.ring) {
		n := 2 * len(r.ring)
		if n == 0 {
			n = 16
		}
		nr := make([]*netsim.Packet, n)
		for i := 0; i < r.n; i++ {
			nr[i] = r.ring[(r.head+i)&(len(r.ring)-1)]
		}
		r.ring, r.head = nr, 0
	}
	r.ring[(r.head+r.n)&(len(r.ring)-1)] = p
	r.n++
	r.bytes += p.Size
}

// pop removes and returns the oldest packet; the ring must not be empty.
func (r *pktRing) pop() *netsim.Packet {
	p := r.ring[r.head]
	r.ring[r.head] = nil
	r.head = (r.head + 1) & (len(r.ring) - 1)
	r.n--
	r.bytes -= p.Size
	return p
}
