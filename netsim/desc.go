package netsim

import "fmt"

// Desc is a packet's descriptor: the few header fields the fabric reads or
// writes at every hop (size, destination, flow key, flags, hop count), its
// kind, and a 32-bit reference to the packet's body in its pool. Queues
// and links keep descriptors in their ring slots and switches route and mark them, so a
// packet's body is read where it was written and where it is consumed (the
// hosts, a switch program) and never in between. With tens of thousands
// of packets in flight the bodies do not fit any cache, while ring slots
// are read in order, several to a line: a hop costs part of a slot's line
// instead of a miss on the packet. At 24 bytes with no pointers, a
// descriptor is cheap to copy, and the collector never scans the rings.
//
// While a packet is inside the network its descriptor is the authority
// on Flags and Hops, the two fields a hop changes; PacketPool.Body writes
// them back into the body when the packet leaves the fabric. The other
// fields are copies the fabric only reads.
//
// The fields are packed in three words: a struct is passed to and from
// functions one register per field, and a descriptor is passed at every
// step of a hop (Port.SendDesc, the queue's EnqueueDesc and NextDesc,
// the ring's push and pop, the link's FIFO, ReceiveDesc), so three words
// cost fewer moves than seven fields.
type Desc struct {
	Flow uint64 // the body's Flow, the ECMP hash key
	rs   uint64 // the body's reference in its pool | Size<<32
	hdr  uint64 // Dst | Flags<<32 | Hops<<48 | Kind<<56
}

// Desc is p's descriptor. p must come from a PacketPool.
func (p *Packet) Desc() Desc {
	if p.ref == 0 || p.Size < 0 || p.Size > 1<<31-1 {
		p.badDesc()
	}
	return Desc{
		Flow: p.Flow,
		rs:   uint64(p.ref) | uint64(p.Size)<<32,
		hdr:  uint64(uint32(p.Dst)) | uint64(p.Flags)<<32 | uint64(p.Hops)<<48 | uint64(p.Kind)<<56,
	}
}

// ref is the body's reference in its pool.
func (d *Desc) ref() uint32 { return uint32(d.rs) }

// Size is the packet's size in bytes on the wire.
func (d *Desc) Size() int32 { return int32(d.rs >> 32) }

// Dst is the packet's destination.
func (d *Desc) Dst() NodeID { return NodeID(int32(uint32(d.hdr))) }

// Flags are the packet's header bits, as marked along the way.
func (d *Desc) Flags() Flags { return Flags(d.hdr >> 32) }

// SetFlags sets the header bits f (a switch marking CE, say).
func (d *Desc) SetFlags(f Flags) { d.hdr |= uint64(f) << 32 }

// Hops is the number of switches the packet has crossed.
func (d *Desc) Hops() uint8 { return uint8(d.hdr >> 48) }

// AddHop counts one more switch crossed.
func (d *Desc) AddHop() {
	h := uint64(uint8(d.hdr>>48) + 1)
	d.hdr = d.hdr&^(0xff<<48) | h<<48
}

// Kind is the packet's protocol-defined type.
func (d *Desc) Kind() uint8 { return uint8(d.hdr >> 56) }

func (p *Packet) badDesc() {
	if p.ref == 0 {
		panic("netsim: a packet that enters a network must come from the Sim's pool (Sim.Packets().Get)")
	}
	panic(fmt.Sprintf("netsim: a packet of %d bytes cannot enter a network", p.Size))
}

// Bytes is the descriptor's size as Bytes.
func (d *Desc) Bytes() Bytes { return Bytes(d.Size()) }

// Body writes the fields a hop changes (Flags, Hops) back into the body
// of d's packet and returns it.
func (pp *PacketPool) Body(d *Desc) *Packet {
	p := pp.at(d.ref())
	p.Flags, p.Hops = d.Flags(), d.Hops()
	return p
}

// Peek returns the body of d's packet as it is, without writing the
// descriptor back (for reading fields the fabric does not change).
func (pp *PacketPool) Peek(d *Desc) *Packet { return pp.at(d.ref()) }

// Forwarder is a Node that takes an arriving packet as its descriptor, so
// that it can forward it without reading the body (a switch), or write the
// descriptor back only when it reads the body anyway (a host). Links
// deliver to a Forwarder's ReceiveDesc instead of Receive; Receive(p, in)
// must do the same as ReceiveDesc(p.Desc(), in).
type Forwarder interface {
	Node
	ReceiveDesc(d Desc, in *Link)
}

// DescQueue is a Queue that holds descriptors. Ports hand it packets as
// descriptors and take them back the same way, so neither queueing nor
// serialising reads a packet's body. EnqueueDesc marks the descriptor
// (never the body) and keeps it, or refuses it; NextDesc removes and
// returns the next descriptor to serialise and the number of packets
// still waiting, or false when the queue is empty. Enqueue and Dequeue
// take and return bodies with their descriptor fields written back
// (PacketPool.Body). (A type that embeds a DescQueue and overrides
// Enqueue or Dequeue must override EnqueueDesc or NextDesc too, or ports
// will call the embedded ones.)
type DescQueue interface {
	Queue
	EnqueueDesc(d Desc, now Time) bool
	NextDesc(now Time) (d Desc, rest int, ok bool)
}
