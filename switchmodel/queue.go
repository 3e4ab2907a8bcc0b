package switchmodel

import (
	"fmt"
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
}

// Validate reports a configuration error, if any.
func (c QueueConfig) Validate() error {
	if c.Buffer < 0 {
		return fmt.Errorf("queue buffer %d B is negative", c.Buffer)
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
// ECN marking, counters and a time-averaged occupancy. It implements
// netsim.Queue.
type PortQueue struct {
	cfg QueueConfig
	sim *netsim.Sim

	ring  []*netsim.Packet
	head  int
	n     int
	bytes netsim.Bytes

	red    redState
	redRng *rand.Rand
	name   string

	// Counters since creation or the last ResetStats.
	Enqueued      uint64       // packets accepted
	EnqueuedBytes uint64       // bytes accepted
	Dequeued      uint64       // packets handed to the serialiser
	Dropped       uint64       // packets refused (buffer full, shared threshold, RED)
	DroppedBytes  uint64       // bytes refused
	Marked        uint64       // packets marked CE here
	MaxBytes      netsim.Bytes // largest occupancy in bytes
	MaxPackets    int          // largest occupancy in packets

	avg    timeAvg
	series *Series
}

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
	q.avg.reset(sim.Now(), 0, 0)
	return q
}

// Config returns the queue's configuration.
func (q *PortQueue) Config() QueueConfig { return q.cfg }

// Name is the queue's label.
func (q *PortQueue) Name() string { return q.name }

// Len implements netsim.Queue: packets waiting.
func (q *PortQueue) Len() int { return q.n }

// Bytes implements netsim.Queue: bytes waiting.
func (q *PortQueue) Bytes() netsim.Bytes { return q.bytes }

// Enqueue implements netsim.Queue: it admits p (and possibly marks it CE) or
// refuses it; the Port then counts the drop and frees p.
func (q *PortQueue) Enqueue(p *netsim.Packet, now netsim.Time) bool {
	c := &q.cfg
	if c.RED != nil {
		q.redAverage(now)
	}
	if c.Buffer > 0 && q.bytes+p.Size > c.Buffer {
		return q.refuse(p)
	}
	if c.Shared != nil && !c.Shared.admit(q.bytes, p.Size) {
		return q.refuse(p)
	}
	ect := p.Flags&netsim.FlagECT != 0
	mark := false
	if c.RED != nil {
		switch q.redDecide() {
		case redMark:
			if ect {
				mark = true
			} else {
				return q.refuse(p)
			}
		case redDrop:
			return q.refuse(p)
		}
	}
	if ect && ((c.ECNPackets > 0 && q.n >= c.ECNPackets) || (c.ECNBytes > 0 && q.bytes >= c.ECNBytes)) {
		mark = true
	}
	if mark && p.Flags&netsim.FlagCE == 0 {
		p.Flags |= netsim.FlagCE
		q.Marked++
	}
	if c.Shared != nil {
		c.Shared.used += p.Size
	}
	q.push(p)
	q.Enqueued++
	q.EnqueuedBytes += uint64(p.Size)
	q.changed(now)
	if q.bytes > q.MaxBytes {
		q.MaxBytes = q.bytes
	}
	if q.n > q.MaxPackets {
		q.MaxPackets = q.n
	}
	return true
}

func (q *PortQueue) refuse(p *netsim.Packet) bool {
	q.Dropped++
	q.DroppedBytes += uint64(p.Size)
	return false
}

// Dequeue implements netsim.Queue.
func (q *PortQueue) Dequeue(now netsim.Time) *netsim.Packet {
	if q.n == 0 {
		if q.cfg.RED != nil {
			q.red.idleSince(now)
		}
		return nil
	}
	p := q.ring[q.head]
	q.ring[q.head] = nil
	q.head = (q.head + 1) & (len(q.ring) - 1)
	q.n--
	q.bytes -= p.Size
	if q.cfg.Shared != nil {
		q.cfg.Shared.used -= p.Size
	}
	q.Dequeued++
	q.changed(now)
	return p
}

// push appends p to the ring, doubling it (a power of two) when full.
func (q *PortQueue) push(p *netsim.Packet) {
	if q.n == len(q.ring) {
		n := 2 * len(q.ring)
		if n == 0 {
			n = 16
		}
		r := make([]*netsim.Packet, n)
		for i := 0; i < q.n; i++ {
			r[i] = q.ring[(q.head+i)&(len(q.ring)-1)]
		}
		q.ring, q.head = r, 0
	}
	q.ring[(q.head+q.n)&(len(q.ring)-1)] = p
	q.n++
	q.bytes += p.Size
}

// changed folds the occupancy that held until now into the time average and
// the series, after the queue has just changed to (q.bytes, q.n).
func (q *PortQueue) changed(now netsim.Time) {
	q.avg.update(now, q.bytes, q.n)
	if q.series != nil {
		q.series.observe(now, q.bytes, q.n)
	}
}
