package netsim

// Queue is an output-queue discipline. Enqueue either accepts the packet or
// refuses it (a drop, which the Port accounts and frees); it may mark the
// packet (ECN) on the way in. Dequeue returns the next packet to serialise,
// or nil when empty. A Queue that also implements DescQueue is handed
// descriptors instead, and never reads a packet's body.
type Queue interface {
	Enqueue(p *Packet, now Time) bool
	Dequeue(now Time) *Packet
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

// FIFO is a plain drop-tail queue limited in bytes (Limit <= 0: unlimited),
// for tests and simple models; the topology builders give every port a
// queue of package switchmodel. It holds packets, not descriptors, so a
// type that embeds it and overrides Enqueue sees every packet.
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

// Len implements Queue.
func (q *FIFO) Len() int { return q.n }

// Bytes implements Queue.
func (q *FIFO) Bytes() Bytes { return q.bytes }

// bodyQueue adapts a Queue that is not a DescQueue: descriptors are
// written back into their packets on the way in and read from them on
// the way out.
type bodyQueue struct {
	q    Queue
	pool *PacketPool
}

func (b bodyQueue) Enqueue(p *Packet, now Time) bool { return b.q.Enqueue(p, now) }
func (b bodyQueue) Dequeue(now Time) *Packet         { return b.q.Dequeue(now) }
func (b bodyQueue) Len() int                         { return b.q.Len() }
func (b bodyQueue) Bytes() Bytes                     { return b.q.Bytes() }
func (b bodyQueue) EnqueueDesc(d Desc, now Time) bool {
	return b.q.Enqueue(b.pool.Body(&d), now)
}
func (b bodyQueue) NextDesc(now Time) (Desc, int, bool) {
	p := b.q.Dequeue(now)
	if p == nil {
		return Desc{}, 0, false
	}
	return p.Desc(), b.q.Len(), true
}

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
	// utilisation and the remembered serialisation times; a planning
	// port's state starts the third. A Port and its
	// Link are allocated together (Network.Connect), so a packet's hop
	// reads adjacent lines instead of scattered objects.
	dq      DescQueue // the queue, as descriptors (see SetQueue)
	Link    *Link     // outgoing link
	net     *Network
	sim     *Sim // the owner's Sim (its partition's, when partitioned)
	freeAt  Time // end of the current (or last) serialisation
	pending bool // a start-next event is scheduled at freeAt
	// cross is set when the link leads into another partition: packets
	// are posted to it (parallel.go), not carried. It sits here, in a
	// line every packet reads, not in the link's second line.
	cross bool
	// flowCtl is set on a host's port with flow control (nic.go); the
	// state itself is the cold field nic.
	flowCtl bool
	// plan is set when the port plans each packet's departure at
	// admission (plan.go).
	plan bool
	// fslot numbers the port for its start-next events in sim (fixed.go;
	// 0 until its first).
	fslot uint32

	// Counters (a packet is counted when its serialisation starts). A
	// port that plans departures (plan.go) books the starts lazily: Run
	// books them when it returns, but a reader inside a run (an event, a
	// barrier hook) calls Settle first.
	TxPackets uint64
	TxBytes   uint64

	// busyTime accumulates serialisation time, for utilisation.
	busyTime Time
	// tx remembers the serialisation times of the last two packet sizes
	// (data and acknowledgements, usually), saving TxTime's 128-bit
	// division on most packets.
	tx [2]txMemo

	// A planning port's queue (plan.go), in the port's third line: the
	// queue, the packets admitted whose serialisation has not started
	// (they wait in the queue and are on the link already) and when the
	// first of them starts.
	pq       PlannedQueue
	waitFrom Time
	nwait    int32
	planSet  int8 // SetPlanning: 1 on, -1 off, 0 the build's default
	listed   bool // in its Sim's settling list (plan.go)

	queue     Queue    // the queue as set
	nic       *nicFlow // the flow control of a host's port (nic.go), nil elsewhere
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

// Queue is the port's output queue.
func (pt *Port) Queue() Queue { return pt.queue }

// SetQueue replaces the port's output queue (nil: an unlimited FIFO). It
// is for set-up, before packets wait in the port: those in the old queue
// stay there.
func (pt *Port) SetQueue(q Queue) {
	if q == nil {
		q = NewFIFO(0)
	}
	pt.queue = q
	if dq, ok := q.(DescQueue); ok {
		pt.dq = dq
	} else {
		pt.dq = bodyQueue{q, &pt.sim.pool}
	}
	if pt.nic != nil && !pt.nic.bind(q) {
		pt.setNIC(nil)
	}
	pt.updatePlan()
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
func (pt *Port) Send(p *Packet) bool { return pt.SendDesc(p.Desc()) }

// SendDesc is Send for a packet given as its descriptor: what a switch
// forwarding a packet it has not read uses.
func (pt *Port) SendDesc(d Desc) bool {
	if pt.plan {
		return pt.sendPlanned(d)
	}
	now := pt.sim.now
	if !pt.dq.EnqueueDesc(d, now) {
		pt.Drops++
		pt.DropBytes += uint64(d.Size())
		pt.net.dropAt(pt.sim, pt.sim.pool.Body(&d), pt)
		return false
	}
	if !pt.pending {
		if now >= pt.freeAt {
			pt.startNext(now)
		} else {
			pt.pending = true
			pt.sim.scheduleFixed(pt.freeAt, pt.sim.portSlot(pt))
		}
	}
	return true
}

// startNext serialises the head of the queue from now and, if more packets
// wait, schedules the start of the next at the end of this one.
func (pt *Port) startNext(now Time) {
	d, rest, ok := pt.dq.NextDesc(now)
	if !ok {
		return
	}
	var ep int32
	if pt.flowCtl {
		ep = pt.sim.pool.Peek(&d).SrcEP // read before the packet leaves
	}
	dt := pt.txTime(d.Bytes())
	pt.busyTime += dt
	pt.freeAt = now + dt
	pt.TxPackets++
	pt.TxBytes += uint64(d.Size())
	if pt.cross {
		pt.Link.post(d, pt.freeAt+pt.Link.Delay)
	} else {
		pt.Link.carry(d, pt.freeAt)
	}
	if rest > 0 {
		pt.pending = true
		pt.sim.scheduleFixed(pt.freeAt, pt.sim.portSlot(pt))
	}
	if pt.flowCtl {
		pt.nic.txDone(ep, d.Flow, d.Bytes())
	}
}

// HandleEvent starts the next waiting packet at the end of a serialisation.
func (pt *Port) HandleEvent(ev Event) {
	pt.pending = false
	pt.startNext(ev.At)
}

// Busy reports whether a packet is being serialised (between the windows
// of a partitioned run, at the coordinator's clock).
func (pt *Port) Busy() bool { return pt.sim.clock() < pt.freeAt }

// BusyTime is the total serialisation time scheduled so far (including the
// remainder of the packet in service).
func (pt *Port) BusyTime() Time {
	pt.Settle()
	return pt.busyTime
}

// Backlog is the number of packets held by the port: queued plus in service.
func (pt *Port) Backlog() int {
	pt.Settle()
	n := pt.queue.Len()
	if pt.Busy() {
		n++
	}
	return n
}
