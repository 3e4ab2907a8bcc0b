package netsim

import "fmt"

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
// go back to it when delivered or dropped (on a partitioned network, to
// the pool of the partition that took it, wherever it is freed); the
// steady-state path allocates nothing. Inside the network a packet travels as its descriptor (Desc):
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
//
// On a partitioned network each partition's pool numbers its packets in
// a range of references of its own, and a packet crossing partitions is
// lent, not copied: its descriptor keeps the reference into its home
// pool, which every partition's pool resolves (lend.go).
type PacketPool struct {
	// chunks is indexed by a reference's chunk number. On a partitioned
	// network it is one table all partitions' pools share, of a fixed
	// length, each partition cutting chunks in its own stretch of it.
	chunks  [][]Packet
	first   int    // the number of the pool's first chunk
	nchunks int    // chunks cut
	free    uint32 // ref of the first free packet, 0 when none
	used    int    // packets cut from the newest chunk
	// base is the pool's first index (reference minus one); ^xspan is
	// the number of indices it owns (the zero value owns them all).
	// An index outside [base, base+^xspan) is another partition's.
	base, xspan uint32
	// par is the parallel engine whose partition home owns this pool
	// (nil on an unpartitioned Sim).
	par     *parallel
	home    int
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
	k := pp.first + pp.nchunks - 1
	if pp.nchunks == 0 || pp.used == len(pp.chunks[k]) {
		if pp.nchunks == pp.chunkLimit() {
			panic(fmt.Sprintf("netsim: more than %d packets allocated at once in one pool", pp.capacity()))
		}
		n := minChunk
		if pp.nchunks > 0 {
			n = min(2*len(pp.chunks[k]), maxChunk)
		}
		k++
		if k == len(pp.chunks) {
			pp.chunks = append(pp.chunks, nil) // a shared table is never resliced
		}
		pp.chunks[k] = make([]Packet, n)
		pp.nchunks++
		pp.used = 0
	}
	p := &pp.chunks[k][pp.used]
	p.ref = uint32(k<<chunkShift|pp.used) + 1
	pp.used++
	pp.created++
	return p
}

// chunkLimit is the most chunks the pool may cut.
func (pp *PacketPool) chunkLimit() int {
	if pp.par != nil {
		return int(^pp.xspan >> chunkShift)
	}
	return maxChunks
}

// capacity is the most packets the pool may hold.
func (pp *PacketPool) capacity() int {
	n := 0
	for k := range pp.chunkLimit() {
		n += minChunk << min(k, chunkShift-6)
	}
	return n
}

// at returns the packet with reference ref (not 0): on a partitioned
// network, of this pool or lent by another partition's.
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

// Put returns p to the pool. p must not be used afterwards. A packet
// another partition's pool lent this one goes back to its home pool at
// the next window (lend.go).
func (pp *PacketPool) Put(p *Packet) {
	pp.puts++
	if p.ref-1-pp.base < ^pp.xspan {
		p.next, p.Flags, pp.free = pp.free, 0xffff, p.ref // Flags: a use after Put is easy to spot
		return
	}
	pp.putLent(p) // or not from a pool: the collector frees it
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
// without Get's zeroing, which the copy overwrites.
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
