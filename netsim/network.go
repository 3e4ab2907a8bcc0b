package netsim

import (
	"fmt"
	"unsafe"
)

// Stats are the network-wide packet books. At any instant
// Injected = Delivered + Dropped + InFlight(), which CheckConservation
// verifies.
type Stats struct {
	Injected  uint64 // packets put onto the network by hosts or switches
	Delivered uint64 // packets consumed by their final receiver (host endpoint or switch program)
	Dropped   uint64 // packets discarded by queues or nodes
}

// Network is a graph of nodes joined by directed links, with the routing
// tables derived from it. Build it, call BuildRoutes, then run the Sim.
type Network struct {
	Sim   *Sim
	nodes []Node
	links []*Link
	hosts []NodeID

	routes    *Routes
	ecmpSalt  uint64
	dropHooks []func(p *Packet, at *Port)
}

// NewNetwork returns an empty network on sim.
func NewNetwork(sim *Sim) *Network {
	return &Network{Sim: sim, ecmpSalt: Hash64(sim.Seed(), 0x6563_6d70)}
}

// AddNode registers n with the given kind and name and returns its ID.
func (net *Network) AddNode(n Node, kind NodeKind, name string) NodeID {
	id := NodeID(len(net.nodes))
	b := n.Base()
	b.id, b.kind, b.name, b.net, b.sim = id, kind, name, net, net.Sim
	net.nodes = append(net.nodes, n)
	if kind == KindHost {
		net.hosts = append(net.hosts, id)
	}
	net.routes = nil
	return id
}

// Connect joins nodes a and b with a full-duplex cable of the given rate and
// propagation delay. qa and qb are the output queues of a's and b's new
// ports (nil: an unlimited FIFO). It returns a's port (towards b) and b's
// port (towards a).
func (net *Network) Connect(a, b NodeID, rate Rate, delay Time, qa, qb Queue) (*Port, *Port) {
	if rate <= 0 || delay < 0 {
		panic(fmt.Sprintf("netsim: Connect(%d, %d) with rate %v and delay %v", a, b, rate, delay))
	}
	pa := net.addPort(a, b, rate, delay, qa)
	pb := net.addPort(b, a, rate, delay, qb)
	net.routes = nil
	return pa, pb
}

// ConnectAsym joins a and b with a cable whose two directions have
// different rates (a WAN path, an ADSL-like edge): rateAB from a to b and
// rateBA from b to a. It returns a's port and b's port as Connect does.
func (net *Network) ConnectAsym(a, b NodeID, rateAB, rateBA Rate, delay Time, qa, qb Queue) (*Port, *Port) {
	if rateAB <= 0 || rateBA <= 0 || delay < 0 {
		panic(fmt.Sprintf("netsim: ConnectAsym(%d, %d) with rates %v/%v and delay %v", a, b, rateAB, rateBA, delay))
	}
	pa := net.addPort(a, b, rateAB, delay, qa)
	pb := net.addPort(b, a, rateBA, delay, qb)
	net.routes = nil
	return pa, pb
}

func (net *Network) addPort(from, to NodeID, rate Rate, delay Time, q Queue) *Port {
	// One allocation for the port and its link: a packet's hop touches
	// both, and adjacent memory is cheaper to reach than two objects of
	// different size classes far apart.
	pl := &portLink{}
	l := &pl.link
	*l = Link{ID: LinkID(len(net.links)), From: from, To: to, Rate: rate, Delay: delay, rsim: net.Sim}
	l.setPeer(net.nodes[to])
	net.links = append(net.links, l)
	b := net.nodes[from].Base()
	pt := &pl.port
	*pt = Port{Node: from, Index: len(b.Ports), Link: l, net: net, sim: net.Sim}
	pt.SetQueue(q)
	l.port = pt
	b.Ports = append(b.Ports, pt)
	return pt
}

// portLink is a port and its outgoing link, allocated together: the
// port's two hot lines, the line a planning port (plan.go) reads too, its
// cold fields, then the link's hot line, in a 384-byte object of six
// whole cache lines (the allocator places objects of that size class at
// multiples of 384 bytes from a page boundary).
type portLink struct {
	port Port
	_    [4*64 - unsafe.Sizeof(Port{})]byte
	link Link
	_    [6*64 - 4*64 - unsafe.Sizeof(Link{})]byte
}

// Node returns the node with the given ID.
func (net *Network) Node(id NodeID) Node { return net.nodes[id] }

// NumNodes is the number of nodes.
func (net *Network) NumNodes() int { return len(net.nodes) }

// Hosts lists host IDs in creation order.
func (net *Network) Hosts() []NodeID { return net.hosts }

// Links lists every directed link, indexed by LinkID.
func (net *Network) Links() []*Link { return net.links }

// Link returns the link with the given ID.
func (net *Network) Link(id LinkID) *Link { return net.links[id] }

// Stats returns the packet books (summed over partitions).
func (net *Network) Stats() Stats {
	s := net.Sim.books
	for _, p := range net.Sim.Partitions() {
		s.Injected += p.books.Injected
		s.Delivered += p.books.Delivered
		s.Dropped += p.books.Dropped
	}
	return s
}

// LivePackets is the number of packets taken from the packet pools and
// not yet returned, summed over partitions.
func (net *Network) LivePackets() int64 {
	n := net.Sim.pool.Live()
	for _, p := range net.Sim.Partitions() {
		n += p.pool.Live()
	}
	return n
}

// Inject records that a node put a new packet onto the network. Host.Send
// and switch-originated packets call it. On a partitioned network nodes
// use NodeBase.Inject (and Consume, Deliver, Drop) instead.
func (net *Network) Inject() { net.Sim.guarded().books.Injected++ }

// Consume records that p reached its final receiver and frees it.
func (net *Network) Consume(p *Packet) {
	s := net.Sim.guarded()
	s.books.Delivered++
	s.pool.Put(p)
}

// Deliver records that p reached its final receiver without freeing it: the
// receiver keeps the packet to reuse it (for example as an acknowledgement it
// will Inject again) or frees it itself with Sim.Packets().Put.
func (net *Network) Deliver(p *Packet) { net.Sim.guarded().books.Delivered++ }

// Drop records that a node discarded p and frees it.
func (net *Network) Drop(p *Packet) { net.drop(net.Sim.guarded(), p) }

// OnDrop registers a hook called for every dropped packet, with its body,
// before it is freed: at is the port whose queue refused it, nil when a
// node discarded it (no route, a switch program's drop). Register hooks
// before the run. On a partitioned network a hook runs on the goroutine
// of the partition that owns the port or node, so it may write only
// state of that partition (counters of the port, for example). A packet
// that is not dropped costs nothing more for a hook being registered.
func (net *Network) OnDrop(f func(p *Packet, at *Port)) { net.dropHooks = append(net.dropHooks, f) }

// drop frees p, discarded by a node, counting it dropped.
func (net *Network) drop(s *Sim, p *Packet) { net.dropAt(s, p, nil) }

// dropAt frees p, refused by port at's queue (nil: discarded by a node),
// counting it dropped and telling the hooks.
func (net *Network) dropAt(s *Sim, p *Packet, at *Port) {
	s.books.Dropped++
	for _, f := range net.dropHooks {
		f(p, at)
	}
	s.pool.Put(p)
}

// InFlight counts packets inside the network: queued at a port, or
// being serialised onto or propagating on a link (between the windows of a
// partitioned run, posted to a crossing link too).
func (net *Network) InFlight() uint64 {
	var n uint64
	for _, nd := range net.nodes {
		for _, pt := range nd.Base().Ports {
			if pt.plan {
				continue // its queued packets are on the link already (plan.go)
			}
			n += uint64(pt.queue.Len())
		}
	}
	for _, l := range net.links {
		n += uint64(l.count)
	}
	if pr := net.Sim.par; pr != nil && !pr.root.guard {
		// Between the windows of a partitioned run, the packets posted
		// to crossing links in the last window wait in the outboxes, or
		// staged on their links.
		for _, box := range pr.out[pr.cur] {
			n += uint64(len(box))
		}
		for _, l := range net.links {
			n += uint64(l.staged[0] + l.staged[1])
		}
	}
	return n
}

// HostBacklog counts packets waiting in the hosts' NIC backlogs (nic.go):
// taken from a pool and handed to Host.Send, but not yet in the network.
// Every live packet is in flight, in a backlog, or held by an endpoint.
func (net *Network) HostBacklog() uint64 {
	var n uint64
	for _, id := range net.hosts {
		if h, ok := net.nodes[id].(*Host); ok {
			k, _ := h.NICBacklog()
			n += uint64(k)
		}
	}
	return n
}

// CheckConservation verifies Injected = Delivered + Dropped + InFlight and
// returns a descriptive error if the books do not balance.
func (net *Network) CheckConservation() error {
	s := net.Stats()
	f := net.InFlight()
	if s.Injected != s.Delivered+s.Dropped+f {
		return fmt.Errorf("packet conservation violated: injected %d != delivered %d + dropped %d + in flight %d",
			s.Injected, s.Delivered, s.Dropped, f)
	}
	return nil
}
