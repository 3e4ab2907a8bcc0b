package netsim

// Desc is a packet's descriptor: the few header fields the fabric reads or
// writes at every hop (size, destination, flow key, flags, hop count) beside
// the pointer to the packet's body. Queues and links keep descriptors in
// their ring slots and switches route and mark them, so a packet's body is
// read where it was written and where it is consumed (the hosts, a switch
// program) and never in between. With hundreds of thousands of packets in
// flight the bodies do not fit any cache, while the rings' slots are read
// in order: a hop costs a fraction of a slot's line instead of a miss on
// the packet.
//
// While a packet is inside the network its descriptor is the authority
// on Flags and Hops, the two fields a hop changes; Packet writes them back
// into the body when the packet leaves the fabric. The other fields are
// copies the fabric only reads.
type Desc struct {
	P     *Packet // the packet's body
	Flow  uint64  // P.Flow, the ECMP hash key
	Size  Bytes   // P.Size, bytes on the wire
	Dst   NodeID  // P.Dst
	Flags Flags   // P.Flags, as marked along the way
	Hops  uint8   // P.Hops, as counted along the way
	_     uint8
}

// DescOf is p's descriptor.
func DescOf(p *Packet) Desc {
	return Desc{P: p, Flow: p.Flow, Size: p.Size, Dst: p.Dst, Flags: p.Flags, Hops: p.Hops}
}

// Packet writes the fields a hop changes (Flags, Hops) back into the
// packet's body and returns it.
func (d *Desc) Packet() *Packet {
	p := d.P
	p.Flags, p.Hops = d.Flags, d.Hops
	return p
}

// Forwarder is a Node that takes an arriving packet as its descriptor, so
// that it can forward it without reading the body (a switch), or write the
// descriptor back only when it reads the body anyway (a host). Links
// deliver to a Forwarder's ReceiveDesc instead of Receive; Receive(p, in)
// must do the same as ReceiveDesc(DescOf(p), in).
type Forwarder interface {
	Node
	ReceiveDesc(d Desc, in *Link)
}

// DescQueue is a Queue that holds descriptors. Ports hand it packets as
// descriptors and take them back the same way, so neither queueing nor
// serialising reads a packet's body. EnqueueDesc marks the descriptor
// (never the body) and keeps it, or refuses it; NextDesc removes and
// returns the next descriptor to serialise (one whose P is nil when the
// queue is empty) and the number of packets still waiting. Enqueue and
// Dequeue take and return bodies with their descriptor fields written
// back (Desc.Packet). (A type that embeds a DescQueue and overrides
// Enqueue or Dequeue must override EnqueueDesc or NextDesc too, or ports
// will call the embedded ones.)
type DescQueue interface {
	Queue
	EnqueueDesc(d Desc, now Time) bool
	NextDesc(now Time) (Desc, int)
}
