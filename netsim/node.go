package netsim

// NodeKind tells hosts from switches.
type NodeKind uint8

// Node kinds.
const (
	KindHost NodeKind = iota
	KindSwitch
)

// String names the kind.
func (k NodeKind) String() string {
	if k == KindSwitch {
		return "switch"
	}
	return "host"
}

// Node is anything attached to a Network. Receive is called when a packet
// has fully arrived over link in; from then on the node owns the packet and
// must send it on, hand it to Network.Consume, or drop it with Network.Drop.
type Node interface {
	Base() *NodeBase
	Receive(p *Packet, in *Link)
}

// NodeBase holds what every node has: its identity and its output ports.
// Embed it in node types.
type NodeBase struct {
	id    NodeID
	kind  NodeKind
	name  string
	net   *Network
	sim   *Sim // the Sim that runs the node: its partition's, or the Network's
	Ports []*Port
}

// Base returns the embedded NodeBase (it makes every embedding type a Node
// once it has Receive).
func (b *NodeBase) Base() *NodeBase { return b }

// ID is the node's identifier within its Network.
func (b *NodeBase) ID() NodeID { return b.id }

// Kind says whether the node is a host or a switch.
func (b *NodeBase) Kind() NodeKind { return b.kind }

// Name is the node's label, e.g. "leaf3" or "h17".
func (b *NodeBase) Name() string { return b.name }

// Net is the Network the node belongs to.
func (b *NodeBase) Net() *Network { return b.net }

// Sim is the Sim that runs the node: the Network's, or on a partitioned
// network the node's partition's. Components of a node (its endpoints,
// timers, programs) schedule, read the clock and take packets here.
func (b *NodeBase) Sim() *Sim { return b.sim }

// Inject records that the node put a new packet onto the network.
func (b *NodeBase) Inject() { b.sim.books.Injected++ }

// Consume records that p reached its final receiver at this node and
// frees it.
func (b *NodeBase) Consume(p *Packet) {
	b.sim.books.Delivered++
	b.sim.pool.Put(p)
}

// Deliver records that p reached its final receiver at this node without
// freeing it (see Network.Deliver).
func (b *NodeBase) Deliver(p *Packet) { b.sim.books.Delivered++ }

// Drop records that the node discarded p and frees it.
func (b *NodeBase) Drop(p *Packet) { b.net.drop(b.sim, p) }
