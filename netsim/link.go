package netsim

// LinkID identifies a directed link in a Network.
type LinkID int32

// Link is one direction of a cable: packets leave the sending Port after
// serialisation and arrive at the far node Delay later. Packets in flight
// wait in a FIFO and the link keeps at most one event queued (for the head),
// as htsim's pipes do, so the scheduler's heap stays as small as the number
// of busy links.
type Link struct {
	// What every packet reads or writes, in one cache line (see Port):
	// the packets on the wire, the delay a departure adds, the rate the
	// sending port serialises at and the far node's receiving end.
	fifo  []inflight // ring buffer
	head  int32
	count int32     // packets on the wire; an arrival event is queued exactly when count > 0
	Delay Time      // propagation delay
	Rate  Rate      // serialisation rate at the sending port
	fwd   Forwarder // the far node, or a bodyReceiver around it

	to   Node
	port *Port // the sending port, whose counters give Delivered
	// rsim is the Sim of the receiving node, which runs the arrivals
	// (when it is not the sending port's, Port.cross is set; see
	// parallel.go).
	rsim *Sim

	// fslot numbers the link for its arrival events in rsim (fixed.go;
	// 0 until its first).
	fslot uint32
	// staged counts the packets a one-thread partitioned run has posted
	// to the link and not yet drained, by the parity of the window that
	// posted them: they wait in the FIFO after the count packets on the
	// wire, the older parity first (parallel.go, Link.stage).
	staged [2]int32

	ID   LinkID // position in Network.Links
	From NodeID // sending node
	To   NodeID // receiving node
}

// inflight is a packet on the wire, as its descriptor, with its arrival
// time.
type inflight struct {
	d  Desc
	at Time
}

// setPeer makes n the far node: a Forwarder takes descriptors, any other
// node the packet with its descriptor written back. A delivery is one
// interface call (a method value would add a wrapper's call).
func (l *Link) setPeer(n Node) {
	l.to = n
	if f, ok := n.(Forwarder); ok {
		l.fwd = f
	} else {
		l.fwd = bodyReceiver{n}
	}
}

// bodyReceiver delivers descriptors to a Node that takes packets.
type bodyReceiver struct{ Node }

// ReadsBodies implements BodyReader: a Node that takes packets reads them.
func (bodyReceiver) ReadsBodies() bool { return true }

// ReadsBody implements BodyReader.
func (bodyReceiver) ReadsBody(*Desc) bool { return true }

// ReceiveDesc writes d back into its packet and hands the packet over.
func (b bodyReceiver) ReceiveDesc(d Desc, in *Link) {
	b.Receive(in.rsim.pool.Body(&d), in)
}

// InFlight is the number of packets propagating on the link.
func (l *Link) InFlight() int { return int(l.count) }

// Peer is the node at the far end.
func (l *Link) Peer() Node { return l.to }

// carry hands d to the link; its serialisation ends at depart (now or
// later), after which it propagates for Delay. Departures on a link are
// non-decreasing, so the FIFO stays ordered by arrival. The link queues
// an arrival event when it was empty, unless it is delivering right now
// (then HandleEvent queues the next one when it is done). A link into
// another partition takes post instead (the sending port knows which).
func (l *Link) carry(d Desc, depart Time) {
	at := depart + l.Delay
	if int(l.count) == len(l.fifo) {
		l.grow()
	}
	e := &l.fifo[int(l.head+l.count)&(len(l.fifo)-1)]
	e.d, e.at = d, at
	l.count++
	if l.count == 1 && l.rsim.delivering != l {
		s := l.rsim
		s.scheduleFixed(at, s.linkSlot(l))
	}
}

func (l *Link) grow() {
	n := 2 * len(l.fifo)
	if n == 0 {
		n = 16
	}
	f := make([]inflight, n)
	for i := 0; i < int(l.count+l.staged[0]+l.staged[1]); i++ {
		f[i] = l.fifo[(int(l.head)+i)&(len(l.fifo)-1)]
	}
	l.fifo, l.head = f, 0
}

// HandleEvent delivers every packet whose propagation has ended, then
// queues the arrival of the next one, if any. (The Sim calls arrive
// directly, fixed.go.)
func (l *Link) HandleEvent(ev Event) { l.arrive(l.rsim, ev.At, l.rsim.linkSlot(l)) }

// arrive is HandleEvent at time now on s, the link's receiving Sim, where
// the link's fixed slot is slot. Given both by the Sim that fires the
// event, a delivery reads only the link's first cache line.
func (l *Link) arrive(s *Sim, now Time, slot uint32) {
	prev := s.delivering
	s.delivering = l
	for l.count > 0 {
		e := &l.fifo[l.head]
		if e.at > now {
			break
		}
		d := e.d // descriptors hold no pointers: the slot needs no clearing
		l.head = (l.head + 1) & int32(len(l.fifo)-1)
		l.count--
		l.fwd.ReceiveDesc(d, l)
	}
	s.delivering = prev
	if l.count > 0 {
		e := &l.fifo[l.head]
		if slot&fixedReader != 0 {
			// A host reads every body: load it without asking.
			if _, ok := l.fwd.(*Host); ok {
				s.loadBody(&e.d)
			} else {
				s.loadEarly(slot, &e.d)
			}
		}
		s.scheduleFixed(e.at, slot)
	} else if l.staged == [2]int32{} {
		// An empty FIFO starts again at its first slot: the next packet
		// lands in the line this one left warm, not in the next slot of a
		// ring that cycles over lines gone cold meanwhile. (Packets
		// staged behind the count stay where they are.)
		l.head = 0
	}
}

// Delivered is the number of packets that reached the far end: those
// the sending port serialised, less those still on the wire or, between
// the windows of a partitioned run, in the outbox (at a port
// that plans departures, plan.go, those it has handed to the link
// whether or not their serialisation has started, less those on the
// link).
func (l *Link) Delivered() uint64 {
	l.port.Settle()
	n, _ := l.posted()
	return l.port.TxPackets + uint64(l.port.nwait) - uint64(l.count) - n
}

// DeliveredBytes is the bytes of the packets Delivered counts.
func (l *Link) DeliveredBytes() uint64 {
	l.port.Settle()
	_, b := l.posted()
	b = l.port.TxBytes + l.port.waitBytes() - b
	for i := 0; i < int(l.count); i++ {
		b -= uint64(l.fifo[(int(l.head)+i)&(len(l.fifo)-1)].d.Size())
	}
	return b
}

// posted is the packets and bytes handed to a link into another
// partition that wait in the sender's outbox or are staged on the link
// (between the windows of a partitioned run; 0 otherwise).
func (l *Link) posted() (n, b uint64) {
	pr := l.port.sim.par
	if !l.port.cross || pr == nil || pr.root.guard {
		return 0, 0
	}
	for i := l.count; i < l.count+l.staged[0]+l.staged[1]; i++ {
		n++
		b += uint64(l.fifo[int(l.head+i)&(len(l.fifo)-1)].d.Size())
	}
	for _, c := range pr.out[pr.cur][l.port.sim.index*len(pr.parts)+l.rsim.index] {
		if c.l == l.ID {
			n++
			b += uint64(c.d.Size())
		}
	}
	return n, b
}
