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
//
// The fields a switch reads and writes at every hop (Flow, Size, Dst,
// Flags, Hops, Ring, Kind) come first: the pool lays packets out in
// arrays whose elements start at 32-byte boundaries, so these 32 bytes
// share one cache line, and a packet that went cold while it waited costs
// a switch one line, not two.
type Packet struct {
	Flow    uint64 // flow identifier; the ECMP hash key
	Size    Bytes  // bytes on the wire, headers included
	Dst     NodeID // destination host (or switch, for in-network protocols)
	Src     NodeID // sending host
	Flags   Flags
	Hops    uint8  // switches traversed
	Ring    uint8  // transmit ring at the sending host's NIC (see RingQueue)
	Kind    uint8  // protocol-defined packet type
	Class   uint8  // traffic class label for statistics
	Payload Bytes  // application bytes carried
	ID      uint64 // unique within a Sim, assigned by the pool
	SrcEP   int32  // endpoint at the source host
	DstEP   int32  // endpoint at the destination host
	Seq     int64  // sequence number (transport-defined unit)
	Ack     int64  // acknowledgement number
	SentAt  Time   // when the sender sent it (for RTT samples)
	Echo    Time   // timestamp echoed by the receiver
	Ext     [ExtWords]int64
	next    *Packet // free list and link FIFO chaining
}

// PacketPool is a free list of packets with conservation counters.
//
// New packets are cut from arrays (chunks) that double in length up to
// maxChunk packets, not allocated one by one, so a packet's hot fields
// start on a 32-byte boundary (see Packet). Freed packets are reused
// last-in first-out, the most recently touched first.
type PacketPool struct {
	free    *Packet
	nextID  uint64
	gets    uint64
	puts    uint64
	created uint64
	chunk   []Packet // the unused rest of the newest chunk
	chunkN  int      // length of the newest chunk
}

// Chunk lengths of a PacketPool, in packets: the first chunk holds
// minChunk (a small run allocates little), each next one twice the last,
// up to maxChunk.
const (
	minChunk = 64
	maxChunk = 1 << 15
)

// newPacket cuts a packet from the current chunk, starting a new one
// when it is used up.
func (pp *PacketPool) newPacket() *Packet {
	if len(pp.chunk) == 0 {
		n := min(max(2*pp.chunkN, minChunk), maxChunk)
		pp.chunkN = n
		pp.chunk = make([]Packet, n)
	}
	p := &pp.chunk[0]
	pp.chunk = pp.chunk[1:]
	pp.created++
	return p
}

// Get returns a zeroed packet with a fresh ID.
func (pp *PacketPool) Get() *Packet {
	p := pp.free
	if p != nil {
		pp.free = p.next
		*p = Packet{}
	} else {
		p = pp.newPacket()
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
