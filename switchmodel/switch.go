// Package switchmodel models datacenter switches for syncsim: output-queued
// ports with drop-tail buffers (per port, or a switch-wide shared buffer with
// a dynamic threshold), ECN marking (DCTCP's step threshold K, or RED),
// ECMP forwarding by flow hash or per-packet spraying, per-port counters and
// a programmable ingress hook (Program) that in-network protocols use to see,
// rewrite, reflect, consume or originate packets.
package switchmodel

import (
	"math/rand/v2"
	"strconv"

	"syncsim/netsim"
)

// Verdict is a Program's decision about one arriving packet.
type Verdict uint8

// Program verdicts.
const (
	// Forward: the switch routes the (possibly rewritten) packet by p.Dst.
	Forward Verdict = iota
	// Consumed: the program took ownership of the packet and has accounted
	// for it (see Program).
	Consumed
)

// Program is a switch's programmable ingress pipeline (a P4-style match
// action stage as used by SwitchML and ATP).
//
// Ingress sees every packet arriving at the switch. It may rewrite p
// (including p.Dst, to reflect it back towards its sender) and return
// Forward, after which the switch routes p by p.Dst. Or it may take
// ownership of p and return Consumed; the program must then do exactly one
// of:
//   - sw.Consume(p): p reached its final receiver; it is counted delivered
//     and freed;
//   - sw.Drop(p): p is discarded; it is counted dropped and freed;
//   - sw.Deliver(p): p is counted delivered but the program keeps the memory
//     (an aggregator holding a packet, a packet to reuse as a reply). A kept
//     packet is outside the network's books; it later goes back out with
//     sw.Emit (a new injection) or back to the pool with
//     sim.Packets().Put.
//
// Packets the program creates (sim.Packets().Get or Clone) are sent with
// sw.Emit, which counts them injected. sw.Forward is only for a packet that
// is still counted in flight, that is, the one Ingress is looking at, sent
// on from inside Ingress before returning Consumed (for example to pick the
// moment of forwarding after emitting copies). With these calls
// Network.CheckConservation balances at every instant.
type Program interface {
	Ingress(sw *Switch, p *netsim.Packet, in *netsim.Link) Verdict
}

// KindFilter is a Program that handles packets of a few kinds
// (netsim.Packet.Kind) only and returns Forward, changing nothing, for
// every other packet. The switch then shows the program only packets of
// the kinds IngressKinds lists and routes the others by their descriptor,
// without reading their bodies, exactly as it would after the program's
// Forward. IngressKinds is read once, when the program is installed.
type KindFilter interface {
	Program
	IngressKinds() []uint8
}

// kindSet is a set of packet kinds, one bit per kind.
type kindSet [4]uint64

func (k *kindSet) add(kind uint8)      { k[kind>>6] |= 1 << (kind & 63) }
func (k *kindSet) has(kind uint8) bool { return k[kind>>6]&(1<<(kind&63)) != 0 }

// Switch is an output-queued switch: a packet that has fully arrived is
// shown to the Program (if any), then queued at the output port chosen by
// ECMP towards p.Dst. Ports are created by Network.Connect with queues made
// by NewQueue.
type Switch struct {
	netsim.NodeBase

	// Spray makes the switch choose uniformly at random (a seeded stream
	// per switch) among the equal-cost next hops for every packet, instead
	// of hashing the flow identifier (per-packet spraying).
	Spray bool

	prog  Program
	kinds kindSet // the kinds prog is shown (every kind unless it is a KindFilter)
	spray *rand.Rand

	// Counters.
	Received  uint64 // packets that arrived over a link
	Forwarded uint64 // packets queued at an output port (routed, emitted or forwarded)
	Emitted   uint64 // packets originated by the switch (Emit)
	Consumed  uint64 // packets taken by the program (Consume or Deliver)
	NoRoute   uint64 // packets dropped for want of a route
}

// Add creates a switch named name and adds it to net.
func Add(net *netsim.Network, name string) *Switch {
	sw := &Switch{}
	net.AddNode(sw, netsim.KindSwitch, name)
	return sw
}

// SetProgram installs pr as the ingress pipeline (nil removes it).
func (sw *Switch) SetProgram(pr Program) {
	sw.prog = pr
	sw.kinds = kindSet{}
	if kf, ok := pr.(KindFilter); ok {
		for _, k := range kf.IngressKinds() {
			sw.kinds.add(k)
		}
	} else if pr != nil {
		sw.kinds = kindSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	}
}

// Program returns the installed ingress pipeline, or nil.
func (sw *Switch) Program() Program { return sw.prog }

// Receive implements netsim.Node: it counts the hop, runs the program and
// routes the packet unless the program consumed it.
func (sw *Switch) Receive(p *netsim.Packet, in *netsim.Link) { sw.ReceiveDesc(p.Desc(), in) }

// ReadsBodies implements netsim.BodyReader: a switch reads bodies only
// with a program installed.
func (sw *Switch) ReadsBodies() bool { return sw.prog != nil }

// ReadsBody implements netsim.BodyReader: the switch reads the bodies of
// the packets its program is shown.
func (sw *Switch) ReadsBody(d *netsim.Desc) bool { return sw.kinds.has(d.Kind()) }

// ReceiveDesc implements netsim.Forwarder: Receive for a packet given as
// its descriptor. Without a program the switch routes and queues the
// descriptor and never reads the packet's body; a program sees the body
// with the descriptor written back (only packets of its kinds, if it is a
// KindFilter).
func (sw *Switch) ReceiveDesc(d netsim.Desc, in *netsim.Link) {
	sw.Received++
	d.AddHop()
	if sw.kinds.has(d.Kind()) {
		p := sw.Sim().Packets().Body(&d)
		if sw.prog.Ingress(sw, p, in) == Consumed {
			return
		}
		sw.Forward(p)
		return
	}
	pt := sw.outPort(d.Dst(), d.Flow)
	if pt == nil {
		sw.NoRoute++
		sw.NodeBase.Drop(sw.Sim().Packets().Body(&d))
		return
	}
	sw.Forwarded++
	pt.SendDesc(d)
}

// Forward routes a packet that is already counted in flight (one that
// arrived at this switch) by p.Dst: it is queued at the ECMP-chosen port, or
// dropped if no route exists (including p.Dst == the switch itself).
func (sw *Switch) Forward(p *netsim.Packet) {
	pt := sw.OutPort(p)
	if pt == nil {
		sw.NoRoute++
		sw.NodeBase.Drop(p)
		return
	}
	sw.Forwarded++
	pt.Send(p)
}

// Emit sends a packet originated at the switch (new from the pool, a clone,
// or one the program kept after Deliver): it counts one injection and routes
// p by p.Dst. Emit leaves p.Src as the program set it, so a program can
// originate a packet on behalf of a host (ATP's switch answering for the
// parameter server) or set p.Src = sw.ID().
func (sw *Switch) Emit(p *netsim.Packet) {
	sw.NodeBase.Inject()
	sw.Emitted++
	sw.Forward(p)
}

// SendOn queues p at port i, bypassing routing, counting an injection when
// emit is true (as Emit does). It is for programs that address a port
// directly, such as multicast to every downlink. It drops p if i is not a
// port of the switch.
func (sw *Switch) SendOn(i int, p *netsim.Packet, emit bool) {
	if emit {
		sw.NodeBase.Inject()
		sw.Emitted++
	}
	if i < 0 || i >= len(sw.Ports) {
		sw.NoRoute++
		sw.NodeBase.Drop(p)
		return
	}
	sw.Forwarded++
	sw.Ports[i].Send(p)
}

// Consume records that p reached its final receiver (the program) and frees
// it.
func (sw *Switch) Consume(p *netsim.Packet) {
	sw.Consumed++
	sw.NodeBase.Consume(p)
}

// Deliver records that p reached its final receiver (the program) but leaves
// the packet with the program, which later re-sends it with Emit or frees it
// with Sim.Packets().Put.
func (sw *Switch) Deliver(p *netsim.Packet) {
	sw.Consumed++
	sw.NodeBase.Deliver(p)
}

// Drop discards p, counting it dropped, and frees it.
func (sw *Switch) Drop(p *netsim.Packet) { sw.NodeBase.Drop(p) }

// OutPort is the port the switch would use for p: the flow-hash ECMP choice
// (Network.OutPort), or a uniformly random next hop when Spray is set. It
// returns nil when p.Dst is unreachable or is the switch itself.
func (sw *Switch) OutPort(p *netsim.Packet) *netsim.Port { return sw.outPort(p.Dst, p.Flow) }

// outPort is OutPort for a packet to dst of the given flow.
func (sw *Switch) outPort(dst netsim.NodeID, flow uint64) *netsim.Port {
	net := sw.Net()
	if dst == sw.ID() || int(dst) < 0 || int(dst) >= net.NumNodes() {
		return nil
	}
	if !sw.Spray {
		switch i := net.Routes().Hop(sw.ID(), dst, flow); i {
		case -1:
			return nil
		case -2:
			if len(sw.Ports) == 0 {
				return nil
			}
			return sw.Ports[0]
		default:
			return sw.Ports[i]
		}
	}
	hops := net.Routes().NextHops(sw.ID(), dst)
	switch len(hops) {
	case 0:
		if len(sw.Ports) == 1 {
			return sw.Ports[0]
		}
		return nil
	case 1:
		return sw.Ports[hops[0]]
	}
	if sw.spray == nil {
		sw.spray = net.Sim.Rand("switchmodel/spray/" + sw.Name() + "#" + strconv.Itoa(int(sw.ID())))
	}
	return sw.Ports[hops[sw.spray.IntN(len(hops))]]
}

// PortQueue returns port i's queue as a *PortQueue, or nil if the port uses
// another discipline or i is out of range.
func (sw *Switch) PortQueue(i int) *PortQueue {
	if i < 0 || i >= len(sw.Ports) {
		return nil
	}
	q, _ := sw.Ports[i].Queue().(*PortQueue)
	return q
}

// PortTo returns the switch's first port whose link leads to node id, or nil.
func (sw *Switch) PortTo(id netsim.NodeID) *netsim.Port {
	for _, pt := range sw.Ports {
		if pt.Link.To == id {
			return pt
		}
	}
	return nil
}
