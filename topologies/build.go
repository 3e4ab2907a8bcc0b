package topologies

import (
	"errors"
	"fmt"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// MaxNodes bounds the size of a built topology. Routing tables hold one
// small entry per (switch, node) pair, so this keeps memory within a few
// hundred megabytes even for fabrics with thousands of switches.
const MaxNodes = 1 << 20

// builder wires one topology into a Network and assembles its Fabric.
type builder struct {
	net    *netsim.Network
	q      switchmodel.QueueConfig
	shared map[netsim.NodeID]*switchmodel.SharedBuffer
	f      *Fabric
}

func newBuilder(net *netsim.Network, kind string, q switchmodel.QueueConfig) (*builder, error) {
	if net == nil {
		return nil, errors.New(kind + ": nil network")
	}
	if err := q.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	return &builder{
		net:    net,
		q:      q,
		shared: map[netsim.NodeID]*switchmodel.SharedBuffer{},
		f:      &Fabric{Net: net, Kind: kind, groupStart: []int{0}},
	}, nil
}

// checkCount validates a size parameter.
func checkCount(kind, what string, n, min int) error {
	if n < min {
		return fmt.Errorf("%s: %s = %d, need at least %d", kind, what, n, min)
	}
	if n > MaxNodes {
		return fmt.Errorf("%s: %s = %d exceeds the limit of %d", kind, what, n, MaxNodes)
	}
	return nil
}

func checkRate(kind, what string, r netsim.Rate) error {
	if r <= 0 {
		return fmt.Errorf("%s: %s %v must be positive", kind, what, r)
	}
	return nil
}

func checkDelay(kind, what string, d netsim.Time) error {
	if d < 0 || d == netsim.Never {
		return fmt.Errorf("%s: %s %v must be non-negative and finite", kind, what, d)
	}
	return nil
}

// checkTotal bounds the number of nodes the builder will add.
func (b *builder) checkTotal(nodes int) error {
	if nodes < 0 || nodes > MaxNodes-b.net.NumNodes() {
		return fmt.Errorf("%s: %d nodes exceed the limit of %d", b.f.Kind, nodes, MaxNodes)
	}
	return nil
}

// queue makes the output queue of from's port towards to: the configured
// discipline, named "from->to" (which seeds its RED stream), with the
// switch's own shared buffer when one is configured. Host NICs get
// HostQueue(q): drop-tail with the same per-port buffer and no marking.
func (b *builder) queue(from, to netsim.NodeID) netsim.Queue {
	cfg := b.q
	if b.net.Node(from).Base().Kind() != netsim.KindSwitch {
		cfg = HostQueue(cfg)
	} else if cfg.Shared != nil {
		sb := b.shared[from]
		if sb == nil {
			sb = cfg.Shared.Clone()
			b.shared[from] = sb
		}
		cfg.Shared = sb
	}
	name := b.net.Node(from).Base().Name() + "->" + b.net.Node(to).Base().Name()
	return switchmodel.NewNamedQueue(b.net.Sim, cfg, name)
}

// HostQueue is the NIC queue configuration builders derive from a switch
// queue configuration: data with the same per-port Buffer, without
// ECN marking, RED or a shared buffer, and a control band served first
// (switchmodel.QueueConfig.ControlFirst) bounded by the same Buffer.
// Builders give every host NIC flow control (netsim.Host.SetNICFlowControl):
// a packet the queue has no room for waits in its sender's backlog, so a
// host never drops its own packets; Fabric.SetNICBackpressure(false)
// makes the queue drop-tail instead, the earlier model.
//
// Marking belongs to switches (DCTCP, Alizadeh et al. 2010, Sec. 3.1); a
// NIC that marked would make a sender react to the burst it queued itself,
// which neither ns-3's DCTCP setups nor htsim model.
//
// The control band sends pure ACKs (packets without payload) ahead of the
// host's own queued data, as NICs with separate transmit rings or ACK
// prioritisation and fair-queueing qdiscs (which serve sparse flows first)
// do. Without it a host that both sends and receives returns its ACKs
// behind the whole window it queued in its NIC, and the flow it receives
// is ACK-clocked by that backlog (two-way-traffic ACK compression, Zhang,
// Shenker and Clark, SIGCOMM 1991); a ring all-reduce then ran 7-19 %
// slower than its cost model.
//
// Data waits in HostRings transmit rings, one for the kernel stack and one
// for kernel-bypass applications, served by deficit round robin, so that
// an application that keeps its own ring short (an INA worker) is not
// starved by the kernel's backlog. Use Fabric.SetHostQueues for a plain
// FIFO.
func HostQueue(q switchmodel.QueueConfig) switchmodel.QueueConfig {
	return switchmodel.QueueConfig{Buffer: q.Buffer, ControlFirst: true, ControlBuffer: q.Buffer, Rings: HostRings}
}

// HostRings is the number of data transmit rings of the NICs builders
// make (switchmodel.QueueConfig.Rings): ring 0 for the kernel stack (TCP,
// UDP, background traffic) and ring 1 for kernel-bypass applications (the
// in-network aggregation protocols), shared by deficit round robin, each
// with the port's Buffer.
const HostRings = 2

func (b *builder) connect(x, y netsim.NodeID, rate netsim.Rate, delay netsim.Time) {
	b.net.Connect(x, y, rate, delay, b.queue(x, y), b.queue(y, x))
}

func (b *builder) connectAsym(x, y netsim.NodeID, rxy, ryx netsim.Rate, delay netsim.Time) {
	b.net.ConnectAsym(x, y, rxy, ryx, delay, b.queue(x, y), b.queue(y, x))
}

func (b *builder) edge(name string) *switchmodel.Switch {
	sw := switchmodel.Add(b.net, name)
	b.f.Edge = append(b.f.Edge, sw)
	return sw
}

func (b *builder) agg(name string) *switchmodel.Switch {
	sw := switchmodel.Add(b.net, name)
	b.f.Agg = append(b.f.Agg, sw)
	return sw
}

func (b *builder) core(name string) *switchmodel.Switch {
	sw := switchmodel.Add(b.net, name)
	b.f.Core = append(b.f.Core, sw)
	return sw
}

// host adds a host to the current group.
func (b *builder) host(name string) *netsim.Host {
	h := b.net.AddHost(name)
	b.f.Hosts = append(b.f.Hosts, h)
	return h
}

// endGroup closes the current host group.
func (b *builder) endGroup() { b.f.groupStart = append(b.f.groupStart, len(b.f.Hosts)) }

// finish indexes the hosts, lists the switches and builds the routes.
func (b *builder) finish() *Fabric {
	f := b.f
	f.Switches = append(append(append([]*switchmodel.Switch{}, f.Edge...), f.Agg...), f.Core...)
	f.hostIndex = make([]int32, b.net.NumNodes())
	for i := range f.hostIndex {
		f.hostIndex[i] = -1
	}
	for i, h := range f.Hosts {
		f.hostIndex[h.ID()] = int32(i)
		h.SetNICFlowControl(true)
	}
	b.net.BuildRoutes()
	return f
}

func errorf(kind, format string, args ...any) error {
	return fmt.Errorf(kind+": "+format, args...)
}
