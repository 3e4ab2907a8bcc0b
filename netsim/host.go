package netsim

import "fmt"

// Endpoint is a transport endpoint on a host: it receives the packets
// addressed to its endpoint number. Receive owns p: it must free it
// (Sim.Packets().Put), or reuse it for a packet it sends.
type Endpoint interface {
	Receive(p *Packet)
}

// Host is an end system with one or more NIC ports and a table of
// endpoints. Packets are demultiplexed by Packet.DstEP.
type Host struct {
	NodeBase
	eps []Endpoint
	// txn[i] is eps[i] if it implements TxNotifier, else nil.
	txn  []TxNotifier
	free []int32
	// byFlow maps flows to the endpoints registered with RegisterFlow.
	byFlow map[uint64]int32

	// Unclaimed counts packets that arrived for an unregistered endpoint
	// (for example after a flow closed); they are consumed and freed.
	Unclaimed uint64
}

// NewHost returns a host; add it with Network.AddNode(h, KindHost, name) or
// use Network.AddHost.
func NewHost() *Host { return &Host{} }

// AddHost creates a host and adds it to the network.
func (net *Network) AddHost(name string) *Host {
	h := NewHost()
	net.AddNode(h, KindHost, name)
	return h
}

// Register attaches ep and returns its endpoint number. Numbers of
// unregistered endpoints are reused, so transports must check a flow
// identifier on arrival.
func (h *Host) Register(ep Endpoint) int32 {
	if n := len(h.free); n > 0 {
		id := h.free[n-1]
		h.free = h.free[:n-1]
		h.eps[id] = ep
		h.txn[id], _ = ep.(TxNotifier)
		return id
	}
	h.eps = append(h.eps, ep)
	t, _ := ep.(TxNotifier)
	h.txn = append(h.txn, t)
	return int32(len(h.eps) - 1)
}

// EPByFlow is the endpoint number of a packet addressed by its flow: the
// destination host hands it to the endpoint registered for Packet.Flow
// with RegisterFlow. A sender uses it while it does not know the
// receiving endpoint's number, which a host of another partition assigns
// (see Sim.Post).
const EPByFlow int32 = -2

// RegisterFlow is Register that also lets packets of the given flow
// addressed to EPByFlow reach ep. A flow number registered twice on one
// host (two transport stacks numbering flows alike on one partitioned
// network) panics rather than misdeliver.
func (h *Host) RegisterFlow(flow uint64, ep Endpoint) int32 {
	if _, dup := h.byFlow[flow]; dup {
		panic(fmt.Sprintf("netsim: flow %d registered twice by flow on host %s", flow, h.name))
	}
	id := h.Register(ep)
	if h.byFlow == nil {
		h.byFlow = make(map[uint64]int32)
	}
	h.byFlow[flow] = id
	return id
}

// UnregisterFlow undoes RegisterFlow: it detaches endpoint id and forgets
// the flow.
func (h *Host) UnregisterFlow(flow uint64, id int32) {
	delete(h.byFlow, flow)
	h.Unregister(id)
}

// Endpoints counts the endpoints registered on the host, and of those the
// ones registered by flow (RegisterFlow): what a leak check reads.
func (h *Host) Endpoints() (registered, byFlow int) {
	return len(h.eps) - len(h.free), len(h.byFlow)
}

// Unregister detaches endpoint id.
func (h *Host) Unregister(id int32) {
	if id < 0 || int(id) >= len(h.eps) || h.eps[id] == nil {
		return
	}
	h.eps[id] = nil
	h.txn[id] = nil
	h.free = append(h.free, id)
}

// Send puts p onto the network from this host: it sets p.Src, accounts the
// injection and queues p at the NIC port towards p.Dst. With flow control
// (SetNICFlowControl) a packet the NIC's queue cannot take waits in its
// endpoint's backlog instead of being dropped (nic.go).
func (h *Host) Send(p *Packet) {
	p.Src = h.id
	pt := h.Ports[0]
	if len(h.Ports) > 1 {
		if pt = h.net.OutPort(h.id, p.Dst, p.Flow); pt == nil {
			h.sim.books.Injected++
			h.net.drop(h.sim, p)
			return
		}
	}
	if pt.nic != nil {
		pt.nic.send(p)
		return
	}
	h.sim.books.Injected++
	pt.Send(p)
}

// ReadsBodies implements BodyReader: a host reads every packet it is
// handed.
func (h *Host) ReadsBodies() bool { return true }

// ReadsBody implements BodyReader.
func (h *Host) ReadsBody(*Desc) bool { return true }

// ReceiveDesc implements Forwarder: the packet leaves the network here, so
// its descriptor is written back and the packet handed to Receive.
func (h *Host) ReceiveDesc(d Desc, in *Link) { h.Receive(h.sim.pool.Body(&d), in) }

// Receive implements Node: it accounts delivery and hands p to its endpoint.
func (h *Host) Receive(p *Packet, _ *Link) {
	h.sim.books.Delivered++
	if p.Dst != h.id {
		// Misrouted packets do not happen with BuildRoutes; treat as unclaimed.
		h.Unclaimed++
		h.sim.pool.Put(p)
		return
	}
	id := p.DstEP
	if id == EPByFlow {
		if e, ok := h.byFlow[p.Flow]; ok {
			id = e
		}
	}
	if id < 0 || int(id) >= len(h.eps) || h.eps[id] == nil {
		h.Unclaimed++
		h.sim.pool.Put(p)
		return
	}
	h.eps[id].Receive(p)
}

// NIC is the host's first port.
func (h *Host) NIC() *Port { return h.Ports[0] }
