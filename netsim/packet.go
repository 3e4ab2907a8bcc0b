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
// nothing. Inside the network a packet travels as its descriptor (Desc):
// switches never read the body.
//
// A Packet holds no pointers (the pool chains free packets by index), so
// the collector never scans the pool's arrays.
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
	ref     uint32 // the packet's place in its pool, plus one (0: not from a pool)
	next    uint32 // free list: the next free packet's ref
}

// PacketPool is a free list of packets with conservation counters.
//
// New packets are cut from arrays (chunks) that double in length up to
// maxChunk packets, not allocated one by one, so a packet's hot fields
// start on a 32-byte boundary (see Packet), and every packet has a
// 32-bit reference (its chunk and position) that descriptors carry
// instead of a pointer. Freed packets are reused last-in first-out, the
// most recently touched first.
type PacketPool struct {
	chunks  [][]Packet
	free    uint32 // ref of the first free packet, 0 when none
	used    int    // packets cut from the newest chunk
	nextID  uint64
	gets    uint64
	puts    uint64
	created uint64
}

// Chunk lengths of a PacketPool, in packets: the first chunk holds
// minChunk (a small run allocates little), each next one twice the last,
// up to maxChunk. A reference is the chunk's number times maxChunk plus
// the position in it, plus one.
const (
	minChunk   = 64
	chunkShift = 15
	maxChunk   = 1 << chunkShift
	maxChunks  = 1<<(32-chunkShift) - 1
)

// newPacket cuts a packet from the current chunk, starting a new one
// when it is used up.
func (pp *PacketPool) newPacket() *Packet {
	k := len(pp.chunks) - 1
	if k < 0 || pp.used == len(pp.chunks[k]) {
		if len(pp.chunks) == maxChunks {
			panic("netsim: more than 4e9 packets allocated at once")
		}
		n := minChunk
		if k >= 0 {
			n = min(2*len(pp.chunks[k]), maxChunk)
		}
		pp.chunks = append(pp.chunks, make([]Packet, n))
		pp.used = 0
		k++
	}
	p := &pp.chunks[k][pp.used]
	p.ref = uint32(k<<chunkShift|pp.used) + 1
	pp.used++
	pp.created++
	return p
}

// at returns the packet with reference ref (not 0).
func (pp *PacketPool) at(ref uint32) *Packet {
	i := ref - 1
	return &pp.chunks[i>>chunkShift][i&(maxChunk-1)]
}

// Get returns a zeroed packet with a fresh ID.
func (pp *PacketPool) Get() *Packet {
	var p *Packet
	if pp.free != 0 {
		p = pp.at(pp.free)
		pp.free = p.next
		ref := p.ref
		*p = Packet{}
		p.ref = ref
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
	if p.ref == 0 {
		return // not from a pool: the collector frees it
	}
	p.next = pp.free
	p.Flags = 0xffff // poison: a use after Put is easy to spot
	pp.free = p.ref
}

// Live is the number of packets taken and not yet returned.
func (pp *PacketPool) Live() int64 { return int64(pp.gets - pp.puts) }

// Allocated is the number of distinct packets ever allocated.
func (pp *PacketPool) Allocated() uint64 { return pp.created }

// Clone returns a copy of p from the pool with a fresh ID.
func (pp *PacketPool) Clone(p *Packet) *Packet {
	c := pp.adopt(p)
	c.ID = pp.nextID
	return c
}

// adopt is Get followed by a copy of body into the packet, ID included,
// without Get's zeroing, which the copy overwrites. The parallel engine
// moves a packet into the receiving partition's pool with it.
func (pp *PacketPool) adopt(body *Packet) *Packet {
	var p *Packet
	if pp.free != 0 {
		p = pp.at(pp.free)
		pp.free = p.next
	} else {
		p = pp.newPacket()
	}
	pp.nextID++
	pp.gets++
	ref := p.ref
	*p = *body
	p.ref, p.next = ref, 0
	return p
}
