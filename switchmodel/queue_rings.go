package switchmodel

import "syncsim/netsim"

// ringSet is the data band of a queue with several transmit rings
// (QueueConfig.Rings), served by deficit round robin: the rings holding
// packets take turns in a circular active list; a ring at the front of the
// list receives RingQuantum bytes of credit per turn and sends while its
// head packet fits its credit; an emptied ring leaves the list and
// forfeits its credit (Shreedhar and Varghese, SIGCOMM 1995).
type ringSet struct {
	rings   []pktRing
	deficit []netsim.Bytes
	active  [MaxRings]uint8 // circular list of ring indices holding packets
	head    int
	nactive int
	granted bool // the front ring has received its quantum for this turn
	n       int
	bytes   netsim.Bytes
}

func newRingSet(n int) *ringSet {
	return &ringSet{rings: make([]pktRing, n), deficit: make([]netsim.Bytes, n)}
}

// index is the ring packets of label r join.
func (s *ringSet) index(r uint8) int {
	if int(r) >= len(s.rings) {
		return len(s.rings) - 1
	}
	return int(r)
}

// push appends d to ring i, activating the ring if it was empty.
func (s *ringSet) push(i int, d netsim.Desc) {
	r := &s.rings[i]
	if r.n == 0 {
		s.active[(s.head+s.nactive)%MaxRings] = uint8(i)
		s.nactive++
	}
	r.push(d)
	s.n++
	s.bytes += d.Bytes()
}

// next removes and returns the next packet in DRR order and its size, or
// nil.
func (s *ringSet) next() (netsim.Desc, bool) {
	for s.nactive > 0 {
		i := int(s.active[s.head])
		r := &s.rings[i]
		if !s.granted {
			s.deficit[i] += RingQuantum
			s.granted = true
		}
		if size := r.headSize(); size <= s.deficit[i] {
			s.deficit[i] -= size
			d := r.pop()
			s.n--
			s.bytes -= size
			if r.n == 0 {
				s.deficit[i] = 0
				s.head = (s.head + 1) % MaxRings
				s.nactive--
				s.granted = false
			}
			return d, true
		}
		// The head does not fit the credit: the turn passes on.
		s.active[(s.head+s.nactive)%MaxRings] = uint8(i)
		s.head = (s.head + 1) % MaxRings
		s.granted = false
	}
	return netsim.Desc{}, false
}

// enqueueRing admits data packet d to its transmit ring, bounded by Buffer
// and marked against the ring's own occupancy.
func (q *PortQueue) enqueueRing(d *netsim.Desc, now netsim.Time) bool {
	c := &q.cfg
	i := q.rs.index(q.sim.Packets().Peek(d).Ring)
	r := &q.rs.rings[i]
	if c.Buffer > 0 && r.bytes+d.Bytes() > c.Buffer {
		return q.refuse(d.Bytes())
	}
	if d.Flags()&netsim.FlagECT != 0 && d.Flags()&netsim.FlagCE == 0 &&
		((c.ECNPackets > 0 && int(r.n) >= c.ECNPackets) || (c.ECNBytes > 0 && r.bytes >= c.ECNBytes)) {
		d.SetFlags(netsim.FlagCE)
		q.Marked++
	}
	q.rs.push(i, *d)
	q.accepted(d.Bytes(), now)
	return true
}

// Rings implements netsim.RingQueue: the number of transmit rings.
func (q *PortQueue) Rings() int {
	if q.rs == nil {
		return 1
	}
	return len(q.rs.rings)
}

// RingLen implements netsim.RingQueue: the packets waiting in the ring
// that packets labelled r join (the whole data band without rings).
func (q *PortQueue) RingLen(r uint8) int {
	q.settle()
	if q.rs == nil {
		return int(q.data.n)
	}
	return int(q.rs.rings[q.rs.index(r)].n)
}

// RingSentBytes is the bytes handed to the serialiser from the ring that
// packets labelled r join (the whole data band without rings), since the
// queue was created: ResetStats leaves it, as the Port's TxBytes, so the
// two can be compared over any interval. The control band is not counted.
func (q *PortQueue) RingSentBytes(r uint8) uint64 {
	q.settle()
	if q.rs == nil {
		return q.data.sent
	}
	return q.rs.rings[q.rs.index(r)].sent
}

var _ netsim.RingQueue = (*PortQueue)(nil)
