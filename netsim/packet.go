package netsim

// NodeID identifies a node (host or switch) in a Network.
type NodeID int32

// Flags are per-packet header bits.
type Flags uint16

// Header bits used by transports and switches.
const (
	FlagECT  Flags = 1 << iota // ECN-capable transport
	FlagCE                     // congestion experienced (set by a switch)
	FlagECE                    // ECN echo (receiver to sender)
	FlagACK                    // acknowledgement
	FlagSYN                    // first packet of a flow
	FlagFIN                    // last packet of a flow
	FlagRetx                   // retransmission
	FlagAECN                   // aggregator congestion (in-network aggregation)
)

// Has reports whether all bits of g are set.
func (f Flags) Has(g Flags) bool { return f&g == g }

// ExtWords is the number of protocol-defined header words a packet carries.
const ExtWords = 8

// Packet is one packet on the wire. Packets come from a Sim's PacketPool and
// go back to it when delivered or dropped; the steady-state path allocates
// nothing.
type Packet struct {
	ID      uint64 // unique within a Sim, assigned by the pool
	Flow    uint64 // flow identifier; the ECMP hash key
	Src     NodeID // sending host
	Dst     NodeID // destination host (or switch, for in-network protocols)
	SrcEP   int32  // endpoint at the source host
	DstEP   int32  // endpoint at the destination host
	Size    Bytes  // bytes on the wire, headers included
	Payload Bytes  // application bytes carried
	Seq     int64  // sequence number (transport-defined unit)
	Ack     int64  // acknowledgement number
	SentAt  Time   // when the sender sent it (for RTT samples)
	Echo    Time   // timestamp echoed by the receiver
	Flags   Flags
	Kind    uint8 // protocol-defined packet type
	Hops    uint8 // switches traversed
	Class   uint8 // traffic class label for statistics
	Ring    uint8 // transmit ring at the sending host's NIC (see RingQueue)
	Ext     [ExtWords]int64
	next    *Packet // free list and link FIFO chaining
}

// PacketPool is a free list of packets with conservation counters.
type PacketPool struct {
	free    *Packet
	nextID  uint64
	gets    uint64
	puts    uint64
	created uint64
}

// Get returns a zeroed packet with a fresh ID.
func (pp *PacketPool) Get() *Packet {
	p := pp.free
	if p != nil {
		pp.free = p.next
		*p = Packet{}
	} else {
		p = new(Packet)
		pp.created++
	}
	pp.nextID++
	pp.gets++
	p.ID = pp.nextID
	return p
}

// Put returns p to the pool. p must not be used afterwards.
func (pp *PacketPool) Put(p *Packet) {
	pp.puts++
	p.next = pp.free
	p.Flags = 0xffff // poison: a use after Put is easy to spot
	pp.free = p
}

// Live is the number of packets taken and not yet returned.
func (pp *PacketPool) Live() int64 { return int64(pp.gets - pp.puts) }

// Allocated is the number of distinct packets ever allocated.
func (pp *PacketPool) Allocated() uint64 { return pp.created }

// Clone returns a copy of p from the pool with a fresh ID.
func (pp *PacketPool) Clone(p *Packet) *Packet {
	c := pp.Get()
	id := c.ID
	*c = *p
	c.ID = id
	c.next = nil
	return c
}
