package netsim

// Queue is an output-queue discipline. Enqueue either accepts the packet or
// refuses it (a drop, which the Port accounts and frees); it may mark the
// packet (ECN) on the way in. Dequeue returns the next packet to serialise,
// or nil when empty.
type Queue interface {
	Enqueue(p *Packet, now Time) bool
	Dequeue(now Time) *Packet
	// Next is Dequeue that also returns the packet's size (nil, 0 when
	// empty). Queues that keep sizes beside their pointers answer
	// without reading the packet, which has usually left the CPU cache
	// while it waited; the serialiser uses Next.
	Next(now Time) (*Packet, Bytes)
	Len() int
	Bytes() Bytes
}

// RingQueue is a Queue with several transmit rings, as a host NIC with a
// ring per application has: the kernel stack's (ring 0) and those of
// kernel-bypass applications. A packet waits in ring Packet.Ring. Senders
// that bound what they keep queued at the NIC count their own ring only.
type RingQueue interface {
	Queue
	// Rings is the number of transmit rings (1: a single FIFO).
	Rings() int
	// RingLen is the number of packets waiting in the ring that packets
	// of ring r join.
	RingLen(r uint8) int
}

// FIFO is a plain drop-tail queue limited in bytes (Limit <= 0: unlimited).
// Host NICs use it; switches use the disciplines of package switchmodel.
type FIFO struct {
	Limit Bytes
	ring  []*Packet
	head  int
	n     int
	bytes Bytes
}

// NewFIFO returns a drop-tail FIFO holding at most limit bytes
// (limit <= 0: unlimited).
func NewFIFO(limit Bytes) *FIFO { return &FIFO{Limit: limit} }

// Enqueue implements Queue.
func (q *FIFO) Enqueue(p *Packet, _ Time) bool {
	if q.Limit > 0 && q.bytes+p.Size > q.Limit {
		return false
	}
	q.Push(p)
	return true
}

// Push appends p unconditionally.
func (q *FIFO) Push(p *Packet) {
	if q.n == len(q.ring) {
		n := 2 * len(q.ring)
		if n == 0 {
			n = 16
		}
		r := make([]*Packet, n)
		for i := 0; i < q.n; i++ {
			r[i] = q.ring[(q.head+i)%len(q.ring)]
		}
		q.ring, q.head = r, 0
	}
	q.ring[(q.head+q.n)%len(q.ring)] = p
	q.n++
	q.bytes += p.Size
}

// Dequeue implements Queue.
func (q *FIFO) Dequeue(_ Time) *Packet {
	if q.n == 0 {
		return nil
	}
	p := q.ring[q.head]
	q.ring[q.head] = nil
	q.head = (q.head + 1) % len(q.ring)
	q.n--
	q.bytes -= p.Size
	return p
}

// Next implements Queue.
func (q *FIFO) Next(now Time) (*Packet, Bytes) {
	p := q.Dequeue(now)
	if p == nil {
		return nil, 0
	}
	return p, p.Size
}

// Len implements Queue.
func (q *FIFO) Len() int { return q.n }

// Bytes implements Queue.
func (q *FIFO) Bytes() Bytes { return q.bytes }

// Port is a node's output port: a queue feeding a serialiser that puts one
// packet at a time onto its Link.
//
// The serialiser is lazy: a packet that finds the port idle starts at once
// and is handed to the link with its departure time (the end of its
// serialisation), so an uncongested port costs no event at all; a port with
// waiting packets keeps one event, at the end of the current serialisation,
// to start the next. Timing is exactly that of an eager serialiser.
type Port struct {
	// The fields read or written for every packet come first, in two
	// cache lines: the serialiser's state and counters, then the
	// utilisation and the remembered serialisation times. A Port and its
	// Link are allocated together (Network.Connect), so a packet's hop
	// reads adjacent lines instead of scattered objects.
	Queue   Queue
	Link    *Link // outgoing link
	net     *Network
	sim     *Sim // the owner's Sim (its partition's, when partitioned)
	freeAt  Time // end of the current (or last) serialisation
	pending bool // a start-next event is scheduled at freeAt

	// Counters (a packet is counted when its serialisation starts).
	TxPackets uint64
	TxBytes   uint64

	// busyTime accumulates serialisation time, for utilisation.
	busyTime Time
	// tx remembers the serialisation times of the last two packet sizes
	// (data and acknowledgements, usually), saving TxTime's 128-bit
	// division on most packets.
	tx [2]txMemo

	Drops     uint64
	DropBytes uint64
	Node      NodeID // owner
	Index     int    // position among the owner's ports
}

// txMemo is one remembered serialisation time.
type txMemo struct {
	size Bytes
	rate Rate
	d    Time
}

// txTime is TxTime(size, the link's rate), remembered for two sizes.
func (pt *Port) txTime(size Bytes) Time {
	r := pt.Link.Rate
	if m := &pt.tx[0]; m.size == size && m.rate == r {
		return m.d
	}
	if m := &pt.tx[1]; m.size == size && m.rate == r {
		return m.d
	}
	d := TxTime(size, r)
	pt.tx[1] = pt.tx[0]
	pt.tx[0] = txMemo{size, r, d}
	return d
}

// Send offers p to the port's queue and starts serialising if the port is
// idle. It reports false if the queue dropped p (p is then freed).
func (pt *Port) Send(p *Packet) bool {
	now := pt.sim.now
	if !pt.Queue.Enqueue(p, now) {
		pt.Drops++
		pt.DropBytes += uint64(p.Size)
		pt.net.drop(pt.sim, p)
		return false
	}
	if !pt.pending {
		if now >= pt.freeAt {
			pt.startNext(now)
		} else {
			pt.pending = true
			pt.sim.Schedule(pt.freeAt, pt, 0, nil, 0)
		}
	}
	return true
}

// startNext serialises the head of the queue from now and, if more packets
// wait, schedules the start of the next at the end of this one.
func (pt *Port) startNext(now Time) {
	p, size := pt.Queue.Next(now)
	if p == nil {
		return
	}
	d := pt.txTime(size)
	pt.busyTime += d
	pt.freeAt = now + d
	pt.TxPackets++
	pt.TxBytes += uint64(size)
	pt.Link.carry(p, size, pt.freeAt)
	if pt.Queue.Len() > 0 {
		pt.pending = true
		pt.sim.Schedule(pt.freeAt, pt, 0, nil, 0)
	}
}

// HandleEvent starts the next waiting packet at the end of a serialisation.
func (pt *Port) HandleEvent(ev Event) {
	pt.pending = false
	pt.startNext(ev.At)
}

// Busy reports whether a packet is being serialised.
func (pt *Port) Busy() bool { return pt.sim.now < pt.freeAt }

// BusyTime is the total serialisation time scheduled so far (including the
// remainder of the packet in service).
func (pt *Port) BusyTime() Time { return pt.busyTime }

// Backlog is the number of packets held by the port: queued plus in service.
func (pt *Port) Backlog() int {
	n := pt.Queue.Len()
	if pt.Busy() {
		n++
	}
	return n
}
