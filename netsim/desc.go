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
type Desc struct {
	Flow  uint64 // the body's Flow, the ECMP hash key
	ref   uint32 // the body's reference in its pool
	Size  int32  // the body's Size, bytes on the wire
	Dst   NodeID // the body's Dst
	Flags Flags  // the body's Flags, as marked along the way
	Hops  uint8  // the body's Hops, as counted along the way
	Kind  uint8  // the body's Kind, so a switch program can pass by packets it does not handle
}

// Desc is p's descriptor. p must come from a PacketPool.
func (p *Packet) Desc() Desc {
	if p.ref == 0 || p.Size < 0 || p.Size > 1<<31-1 {
		p.badDesc()
	}
	return Desc{Flow: p.Flow, ref: p.ref, Size: int32(p.Size), Dst: p.Dst, Flags: p.Flags, Hops: p.Hops, Kind: p.Kind}
}

func (p *Packet) badDesc() {
	if p.ref == 0 {
		panic("netsim: a packet that enters a network must come from the Sim's pool (Sim.Packets().Get)")
	}
	panic(fmt.Sprintf("netsim: a packet of %d bytes cannot enter a network", p.Size))
}

// Bytes is the descriptor's size as Bytes.
func (d *Desc) Bytes() Bytes { return Bytes(d.Size) }

// Body writes the fields a hop changes (Flags, Hops) back into the body
// of d's packet and returns it.
func (pp *PacketPool) Body(d *Desc) *Packet {
	p := pp.at(d.ref)
	p.Flags, p.Hops = d.Flags, d.Hops
	return p
}

// Peek returns the body of d's packet as it is, without writing the
// descriptor back (for reading fields the fabric does not change).
func (pp *PacketPool) Peek(d *Desc) *Packet { return pp.at(d.ref) }

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
