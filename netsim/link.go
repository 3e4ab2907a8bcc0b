package netsim

// LinkID identifies a directed link in a Network.
type LinkID int32

// Link is one direction of a cable: packets leave the sending Port after
// serialisation and arrive at the far node Delay later. Packets in flight
// wait in a FIFO and the link keeps at most one event queued (for the head),
// as htsim's pipes do, so the scheduler's heap stays as small as the number
// of busy links.
type Link struct {
	// What every packet reads or writes comes first, in one cache line
	// (see Port).
	fifo    []inflight // ring buffer
	head    int32
	count   int32
	Delay   Time // propagation delay
	Rate    Rate // serialisation rate at the sending port
	net     *Network
	pending bool

	to Node
	// Delivered counts packets and bytes that reached the far end.
	Delivered      uint64
	DeliveredBytes uint64

	ID   LinkID // position in Network.Links
	From NodeID // sending node
	To   NodeID // receiving node
}

// inflight is a packet on the wire with its arrival time and size (kept
// here so delivery accounting does not read the packet).
type inflight struct {
	p    *Packet
	at   Time
	size Bytes
}

// InFlight is the number of packets propagating on the link.
func (l *Link) InFlight() int { return int(l.count) }

// Peer is the node at the far end.
func (l *Link) Peer() Node { return l.to }

// carry hands p to the link; its serialisation ends at depart (now or
// later), after which it propagates for Delay. Departures on a link are
// non-decreasing, so the FIFO stays ordered by arrival.
func (l *Link) carry(p *Packet, size Bytes, depart Time) {
	if int(l.count) == len(l.fifo) {
		l.grow()
	}
	at := depart + l.Delay
	l.fifo[int(l.head+l.count)&(len(l.fifo)-1)] = inflight{p, at, size}
	l.count++
	if !l.pending {
		l.pending = true
		l.net.Sim.Schedule(at, l, 0, nil, 0)
	}
}

func (l *Link) grow() {
	n := 2 * len(l.fifo)
	if n == 0 {
		n = 16
	}
	f := make([]inflight, n)
	for i := 0; i < int(l.count); i++ {
		f[i] = l.fifo[(int(l.head)+i)&(len(l.fifo)-1)]
	}
	l.fifo, l.head = f, 0
}

// HandleEvent delivers every packet whose propagation has ended.
func (l *Link) HandleEvent(ev Event) {
	now := ev.At
	for l.count > 0 {
		e := l.fifo[l.head]
		if e.at > now {
			break
		}
		l.fifo[l.head] = inflight{}
		l.head = (l.head + 1) & int32(len(l.fifo)-1)
		l.count--
		l.Delivered++
		l.DeliveredBytes += uint64(e.size)
		l.to.Receive(e.p, l)
	}
	if l.count > 0 {
		l.net.Sim.Schedule(l.fifo[l.head].at, l, 0, nil, 0)
	} else {
		l.pending = false
	}
}
