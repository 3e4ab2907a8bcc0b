package switchmodel

import (
	"fmt"
	"math"
	"math/rand/v2"

	"syncsim/netsim"
)

// QueueConfig describes an output queue: its buffer and its marking policy.
//
// Occupancy means the packets waiting in the queue, excluding the one the
// port is serialising (it has left the queue, as in ns-3's device queues).
type QueueConfig struct {
	// Buffer is the per-port drop-tail limit: an arriving packet is dropped
	// if occupied bytes + its size > Buffer. 0 means unlimited.
	Buffer netsim.Bytes
	// ECNBytes marks an arriving ECT packet CE when the occupancy in bytes
	// before it is enqueued is >= ECNBytes. 0 turns it off.
	ECNBytes netsim.Bytes
	// ECNPackets is the same threshold in packets (DCTCP's K): an arriving
	// ECT packet is marked when it finds >= ECNPackets packets waiting, i.e.
	// when the occupancy counting it exceeds K (DCTCP, Alizadeh et al. 2010,
	// Sec. 3.1: "mark arriving packets if the queue occupancy is greater
	// than K upon its arrival"). 0 turns it off.
	ECNPackets int
	// RED, if set, adds Random Early Detection (Floyd and Jacobson 1993):
	// picked ECT packets are marked, others dropped. It applies on top of
	// the step thresholds; leave ECNBytes and ECNPackets at 0 to use RED
	// alone.
	RED *REDConfig
	// Shared, if set, makes the queue draw from a switch-wide shared buffer
	// with a dynamic threshold (Choudhury and Hahne 1998). Queues of one
	// switch must share one *SharedBuffer; topology builders give every
	// switch its own copy of this template.
	Shared *SharedBuffer
	// ControlFirst gives the queue a control band served ahead of data
	// (strict priority), as a host NIC with a separate transmit ring for
	// acknowledgements does: packets without payload (Payload == 0: pure
	// ACKs and other control messages) wait in their own FIFO and leave
	// before any queued data packet; packets with payload keep FIFO order
	// among themselves. Without it a host's ACKs wait behind the window
	// its own sender has queued in the NIC, the ACK compression of
	// two-way traffic (Zhang, Shenker and Clark, SIGCOMM 1991).
	//
	// The control band lies outside Buffer, Shared and RED: only data
	// packets count toward the data limits, and an ACK is never refused
	// because data fills the buffer. It is bounded by ControlBuffer
	// instead. Control packets are never marked CE nor dropped early; the
	// ECN thresholds and the RED average compare against the data band
	// only, the packets an arriving data packet queues behind. Len, Bytes,
	// the maxima, time averages and series report both bands (what the
	// port holds), and the Enqueued/Dequeued/Dropped counters count both;
	// ControlEnqueued and ControlDropped count the control band alone.
	ControlFirst bool
	// ControlBuffer is the control band's own drop-tail limit in bytes
	// (0: unlimited). Only used with ControlFirst.
	ControlBuffer netsim.Bytes
	// Rings splits the data band into this many transmit rings served by
	// deficit round robin (Shreedhar and Varghese, SIGCOMM 1995) with a
	// quantum of RingQuantum bytes, as a host NIC arbitrates between the
	// transmit rings of the kernel stack and of kernel-bypass
	// applications (RDMA queue pairs, DPDK queues): an application that
	// keeps its own ring short is not starved by a deep kernel backlog.
	// A data packet joins ring Packet.Ring (rings beyond the last join the
	// last); Buffer and the ECN thresholds apply to each ring on its own.
	// 0 or 1: a single FIFO. At most MaxRings; not combined with RED or a
	// shared buffer (switch ports use neither rings nor host NIC
	// arbitration).
	Rings int
}

// MaxRings is the largest QueueConfig.Rings.
const MaxRings = 8

// RingQuantum is the bytes a transmit ring may send per round of the NIC's
// deficit round robin: one full-size Ethernet payload, so rings share the
// port by bytes whatever their packet sizes.
const RingQuantum netsim.Bytes = 1500

// Validate reports a configuration error, if any.
func (c QueueConfig) Validate() error {
	if c.Buffer < 0 {
		return fmt.Errorf("queue buffer %d B is negative", c.Buffer)
	}
	if c.ControlBuffer < 0 {
		return fmt.Errorf("control band buffer %d B is negative", c.ControlBuffer)
	}
	if c.Rings < 0 || c.Rings > MaxRings {
		return fmt.Errorf("transmit rings must be in [0, %d], got %d", MaxRings, c.Rings)
	}
	if c.Rings > 1 && (c.RED != nil || c.Shared != nil) {
		return fmt.Errorf("transmit rings (%d) cannot be combined with RED or a shared buffer", c.Rings)
	}
	if c.ECNBytes < 0 || c.ECNPackets < 0 {
		return fmt.Errorf("ECN thresholds must be non-negative (got %d B, %d packets)", c.ECNBytes, c.ECNPackets)
	}
	if c.RED != nil {
		if err := c.RED.Validate(); err != nil {
			return err
		}
	}
	if c.Shared != nil {
		if err := c.Shared.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// PortQueue is the switch output queue: a FIFO ring (allocation-free once it
// has grown to the largest backlog) with drop-tail, shared-buffer admission,
// ECN marking, counters and a time-averaged occupancy, and optionally a
// control band served first (QueueConfig.ControlFirst). It implements
// netsim.Queue.
type PortQueue struct {
	// The fields every packet reads or writes come first, in three cache
	// lines: the data band with the thresholds a plain queue applies, the
	// occupancy and its time integrals, the counters and maxima. Cold
	// state (the full configuration, the control band, rings, RED, the
	// name) follows. mode is zero for a plain drop-tail/ECN queue, which
	// then takes a path that reads nothing else.
	data     pktRing      // the data band (every packet without ControlFirst)
	buffer   netsim.Bytes // cfg.Buffer
	ecnPkts  int32        // cfg.ECNPackets, clamped to int32
	mode     uint8        // queueControl | queueRings | queueRED | queueShared
	ecnBytes netsim.Bytes // cfg.ECNBytes

	n      int          // packets waiting in both bands
	bytes  netsim.Bytes // bytes waiting in both bands
	avg    timeAvg
	series *Series

	// Counters since creation or the last ResetStats.
	Enqueued      uint64       // packets accepted
	EnqueuedBytes uint64       // bytes accepted
	Dequeued      uint64       // packets handed to the serialiser
	Marked        uint64       // packets marked CE here
	MaxBytes      netsim.Bytes // largest occupancy in bytes
	MaxPackets    int          // largest occupancy in packets

	cfg  QueueConfig
	rs   *ringSet // the data band's transmit rings (Rings > 1); data is unused
	ctrl pktRing  // the control band (ControlFirst only)

	Dropped      uint64 // packets refused (buffer full, shared threshold, RED)
	DroppedBytes uint64 // bytes refused
	// ControlEnqueued and ControlDropped count the control band's
	// accepted and refused packets (already included in Enqueued and
	// Dropped).
	ControlEnqueued, ControlDropped uint64

	avgStart netsim.Time // when the time average (re)started
	sim      *netsim.Sim
	// port is the port that plans this queue's departures (netsim's
	// plan.go), nil when it does not: packets then leave the queue when
	// it settles them, and every read of what the queue holds settles
	// first.
	port   *netsim.Port
	red    redState
	redRng *rand.Rand
	name   string
	// Padding to a whole number of cache lines, so every queue of the
	// allocator's size class starts on a line (layout_test.go).
	_ [queuePad]byte
}

// queuePad pads PortQueue to 448 bytes, seven whole cache lines.
const queuePad = 40

// Bits of PortQueue.mode: the features that take the general path.
const (
	queueControl uint8 = 1 << iota
	queueRings
	queueRED
	queueShared
)

// NewQueue returns an empty, unnamed queue with configuration cfg on sim.
// Unnamed RED queues of one Sim draw identical random sequences; use
// NewNamedQueue to give each queue its own stream.
func NewQueue(sim *netsim.Sim, cfg QueueConfig) *PortQueue {
	return NewNamedQueue(sim, cfg, "")
}

// NewNamedQueue returns an empty queue whose random stream (for RED) is
// derived from the Sim's seed and name, e.g. "leaf3->spine1".
func NewNamedQueue(sim *netsim.Sim, cfg QueueConfig, name string) *PortQueue {
	q := &PortQueue{cfg: cfg, sim: sim, name: name}
	if cfg.Rings > 1 {
		q.rs = newRingSet(cfg.Rings)
	}
	q.configure()
	q.avgStart = sim.Now()
	q.avg.reset(sim.Now(), 0, 0)
	return q
}

// configure copies what the per-packet path reads of q.cfg into the
// queue's first line.
func (q *PortQueue) configure() {
	c := &q.cfg
	q.buffer, q.ecnBytes = c.Buffer, c.ECNBytes
	q.ecnPkts = int32(min(c.ECNPackets, math.MaxInt32))
	q.mode = 0
	if c.ControlFirst {
		q.mode |= queueControl
	}
	if q.rs != nil {
		q.mode |= queueRings
	}
	if c.RED != nil {
		q.mode |= queueRED
	}
	if c.Shared != nil {
		q.mode |= queueShared
	}
}

// Config returns the queue's configuration.
func (q *PortQueue) Config() QueueConfig { return q.cfg }

// SetECNPackets changes the step marking threshold K in packets (0: off),
// for set-up: marking at a host's NIC, say.
func (q *PortQueue) SetECNPackets(k int) {
	q.cfg.ECNPackets = k
	q.configure()
}

// Name is the queue's label.
func (q *PortQueue) Name() string { return q.name }

// Len implements netsim.Queue: packets waiting in both bands.
func (q *PortQueue) Len() int {
	q.settle()
	return q.n
}

// Bytes implements netsim.Queue: bytes waiting in both bands.
func (q *PortQueue) Bytes() netsim.Bytes {
	q.settle()
	return q.bytes
}

// settle books the departures its port has planned up to now (none
// without planning).
func (q *PortQueue) settle() {
	if q.port != nil {
		q.port.Settle()
	}
}

// Plannable implements netsim.PlannedQueue: a plain queue (drop-tail and
// step marking, no control band, rings, RED or shared buffer) serves in
// the order it admits and reads nothing at a departure.
func (q *PortQueue) Plannable() bool { return q.mode == 0 }

// AdmitDesc implements netsim.PlannedQueue: EnqueueDesc, returning the
// descriptor as marked; with start, enqueue and NextDesc at once on an
// empty queue, whose books it leaves as those two would.
func (q *PortQueue) AdmitDesc(d netsim.Desc, now netsim.Time, start bool) (netsim.Desc, bool) {
	if !start || q.n != 0 || q.mode != 0 {
		ok := q.enqueue(&d, now)
		if ok && start {
			q.NextDesc(now)
		}
		return d, ok
	}
	// An empty plain queue: nothing to mark against (K and the byte
	// threshold are positive when set), the buffer bounds the packet
	// alone, and its time in the queue is nil (the time average's
	// arrival and departure at now cancel).
	size := d.Bytes()
	if q.buffer > 0 && size > q.buffer {
		q.refuse(size)
		return d, false
	}
	q.Enqueued++
	q.EnqueuedBytes += uint64(size)
	q.MaxBytes = max(q.MaxBytes, size)
	q.MaxPackets = max(q.MaxPackets, 1)
	q.Dequeued++
	q.data.sent += uint64(d.Size())
	if q.series != nil {
		q.series.observe(now, size, 1)
		q.series.observe(now, 0, 0)
	}
	return d, true
}

// Depart implements netsim.PlannedQueue: NextDesc on a plain queue that
// holds a packet, returning its size.
func (q *PortQueue) Depart(now netsim.Time) netsim.Bytes {
	size := q.data.popSize()
	q.Dequeued++
	q.n--
	q.bytes -= size
	q.avg.depart(now, size)
	if q.series != nil {
		q.series.observe(now, q.bytes, q.n)
	}
	return size
}

// BindPort implements netsim.PlannedQueue.
func (q *PortQueue) BindPort(pt *netsim.Port) { q.port = pt }

// ControlLen is the number of packets in the control band (0 without
// ControlFirst).
func (q *PortQueue) ControlLen() int { return int(q.ctrl.n) }

// Enqueue implements netsim.Queue: it admits p (and possibly marks it CE) or
// refuses it; the Port then counts the drop and frees p.
func (q *PortQueue) Enqueue(p *netsim.Packet, now netsim.Time) bool {
	d := p.Desc()
	ok := q.enqueue(&d, now)
	p.Flags = d.Flags()
	return ok
}

// EnqueueDesc implements netsim.DescQueue: Enqueue for a packet given as
// its descriptor. A mark is set in the descriptor the queue keeps.
func (q *PortQueue) EnqueueDesc(d netsim.Desc, now netsim.Time) bool { return q.enqueue(&d, now) }

// enqueue admits d (marking it) or refuses it.
func (q *PortQueue) enqueue(d *netsim.Desc, now netsim.Time) bool {
	if q.mode == 0 {
		// A plain queue: drop-tail and step marking, the general path
		// below without its feature tests.
		if q.buffer > 0 && q.data.bytes+d.Bytes() > q.buffer {
			return q.refuse(d.Bytes())
		}
		if d.Flags()&netsim.FlagECT != 0 && ((q.ecnPkts > 0 && q.data.n >= q.ecnPkts) || (q.ecnBytes > 0 && q.data.bytes >= q.ecnBytes)) &&
			d.Flags()&netsim.FlagCE == 0 {
			d.SetFlags(netsim.FlagCE)
			q.Marked++
		}
		q.data.push(*d)
		q.accepted(d.Bytes(), now)
		return true
	}
	c := &q.cfg
	if c.ControlFirst && q.sim.Packets().Peek(d).Payload == 0 {
		return q.enqueueControl(d, now)
	}
	if q.rs != nil {
		return q.enqueueRing(d, now)
	}
	if c.RED != nil {
		q.redAverage(now)
	}
	if c.Buffer > 0 && q.data.bytes+d.Bytes() > c.Buffer {
		return q.refuse(d.Bytes())
	}
	if c.Shared != nil && !c.Shared.admit(q.data.bytes, d.Bytes()) {
		return q.refuse(d.Bytes())
	}
	ect := d.Flags()&netsim.FlagECT != 0
	mark := false
	if c.RED != nil {
		switch q.redDecide() {
		case redMark:
			if ect {
				mark = true
			} else {
				return q.refuse(d.Bytes())
			}
		case redDrop:
			return q.refuse(d.Bytes())
		}
	}
	if ect && ((c.ECNPackets > 0 && int(q.data.n) >= c.ECNPackets) || (c.ECNBytes > 0 && q.data.bytes >= c.ECNBytes)) {
		mark = true
	}
	if mark && d.Flags()&netsim.FlagCE == 0 {
		d.SetFlags(netsim.FlagCE)
		q.Marked++
	}
	if c.Shared != nil {
		c.Shared.used += d.Bytes()
	}
	q.data.push(*d)
	q.accepted(d.Bytes(), now)
	return true
}

// enqueueControl admits a packet without payload to the control band,
// bounded by ControlBuffer alone.
func (q *PortQueue) enqueueControl(d *netsim.Desc, now netsim.Time) bool {
	if b := q.cfg.ControlBuffer; b > 0 && q.ctrl.bytes+d.Bytes() > b {
		q.ControlDropped++
		return q.refuse(d.Bytes())
	}
	q.ctrl.push(*d)
	q.ControlEnqueued++
	q.accepted(d.Bytes(), now)
	return true
}

// accepted books an admitted packet of size bytes.
func (q *PortQueue) accepted(size netsim.Bytes, now netsim.Time) {
	q.Enqueued++
	q.EnqueuedBytes += uint64(size)
	q.n++
	q.bytes += size
	q.avg.arrive(now, size)
	if q.bytes > q.MaxBytes {
		q.MaxBytes = q.bytes
	}
	if q.n > q.MaxPackets {
		q.MaxPackets = q.n
	}
	if q.series != nil {
		q.series.observe(now, q.bytes, q.n)
	}
}

// refuse books a refused packet of size bytes and reports false.
func (q *PortQueue) refuse(size netsim.Bytes) bool {
	q.Dropped++
	q.DroppedBytes += uint64(size)
	return false
}

// Dequeue implements netsim.Queue: the control band first, then data.
func (q *PortQueue) Dequeue(now netsim.Time) *netsim.Packet {
	d, _, ok := q.NextDesc(now)
	if !ok {
		return nil
	}
	return q.sim.Packets().Body(&d)
}

// NextDesc implements netsim.DescQueue: Dequeue, as a descriptor, and the
// number of packets still waiting.
func (q *PortQueue) NextDesc(now netsim.Time) (netsim.Desc, int, bool) {
	var d netsim.Desc
	switch {
	case q.mode == 0: // a plain queue: the data band alone
		if q.data.n == 0 {
			return d, 0, false
		}
		d = q.data.pop()
	case q.mode&queueControl != 0 && q.ctrl.n > 0:
		d = q.ctrl.pop()
	case q.rs != nil:
		var ok bool
		if d, ok = q.rs.next(); !ok {
			return d, 0, false
		}
	case q.data.n == 0:
		if q.cfg.RED != nil {
			q.red.idleSince(now)
		}
		return d, 0, false
	default:
		d = q.data.pop()
		if q.cfg.Shared != nil {
			q.cfg.Shared.used -= d.Bytes()
		}
	}
	q.Dequeued++
	q.n--
	q.bytes -= d.Bytes()
	q.avg.depart(now, d.Bytes())
	if q.series != nil {
		q.series.observe(now, q.bytes, q.n)
	}
	return d, q.n, true
}

// BindSim implements netsim.SimBinder: a partitioned network moves the
// queue to its port's partition, whose clock and packet pool it then uses.
func (q *PortQueue) BindSim(s *netsim.Sim) { q.sim = s }
