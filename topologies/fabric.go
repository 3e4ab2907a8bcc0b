// Package topologies builds the networks syncsim experiments run on: a
// star (one switch), a dumbbell with k parallel paths (the PA-ATP testbed),
// a leaf-spine fabric (the PA-ATP NS3 setup), racks behind an
// oversubscribed core (DS-Sync), a full-mesh WAN with asymmetric
// per-pair bandwidth (CREW), a k-ary three-tier fat-tree, and any fabric
// read from a topology file in the HPCC ns-3 branch's format (which
// WriteFatTree also writes). Every builder wires hosts and
// switchmodel.Switch nodes with switchmodel.PortQueue output queues, calls
// Network.BuildRoutes and returns a Fabric describing what it built.
package topologies

import (
	"fmt"
	"sort"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// Fabric is a built topology. Hosts are grouped by the edge switch they
// attach to (a leaf, a rack's ToR, a dumbbell side, a WAN site); groups are
// numbered in the order the builder documents and hosts are listed
// group-major.
type Fabric struct {
	Net *netsim.Network
	// Kind names the builder ("star", "dumbbell", "leaf-spine", "racks",
	// "wan", "fat-tree", "topology file").
	Kind string
	// Hosts in group-major order (leaf-major for leaf-spine).
	Hosts []*netsim.Host
	// Switches lists every switch built: Edge switches first, then Agg,
	// then Core.
	Switches []*switchmodel.Switch
	// Edge[g] is the switch host group g attaches to.
	Edge []*switchmodel.Switch
	// Agg are the switches between Edge and Core in a three-tier fabric:
	// a fat-tree's aggregation switches (pod-major, k/2 per pod), a
	// topology file's middle tiers; empty for the other builders.
	Agg []*switchmodel.Switch
	// Core are the switches at the top of the fabric, between edge (or
	// aggregation) switches: the dumbbell's path switches (Core[i]
	// carries path i), the leaf-spine's spines, the racks' core switch, a
	// fat-tree's (k/2)^2 core switches, a topology file's highest tier;
	// empty for a star and a WAN.
	Core []*switchmodel.Switch

	groupStart  []int   // hosts of group g are Hosts[groupStart[g]:groupStart[g+1]]
	edgesPerPod int     // fat-tree: edge switches per pod (k/2); 0 otherwise
	hostIndex   []int32 // NodeID -> position in Hosts, -1 otherwise
}

// Groups is the number of host groups (edge switches).
func (f *Fabric) Groups() int { return len(f.groupStart) - 1 }

// Pod is the pod of host group g in a fat-tree (g / (k/2)), or -1 if the
// fabric has no pods or g is out of range.
func (f *Fabric) Pod(g int) int {
	if f.edgesPerPod == 0 || g < 0 || g >= f.Groups() {
		return -1
	}
	return g / f.edgesPerPod
}

// Tiers is the number of switch tiers a path between hosts climbs: 1 for
// a star (Edge only), 2 with Core switches, 3 with Agg and Core (a
// fat-tree). The longest path between two hosts of a leaf-spine, a
// dumbbell, racks or a fat-tree has 2 x Tiers cables.
func (f *Fabric) Tiers() int {
	t := 1
	if len(f.Agg) > 0 {
		t++
	}
	if len(f.Core) > 0 {
		t++
	}
	return t
}

// HostsOf returns the hosts of group g (nil if g is out of range).
func (f *Fabric) HostsOf(g int) []*netsim.Host {
	if g < 0 || g >= f.Groups() {
		return nil
	}
	return f.Hosts[f.groupStart[g]:f.groupStart[g+1]]
}

// HostIDs returns the node IDs of Hosts, in the same order.
func (f *Fabric) HostIDs() []netsim.NodeID {
	ids := make([]netsim.NodeID, len(f.Hosts))
	for i, h := range f.Hosts {
		ids[i] = h.ID()
	}
	return ids
}

// HostIndex is the position of host id in Hosts, or -1 if id is not one of
// the fabric's hosts.
func (f *Fabric) HostIndex(id netsim.NodeID) int {
	if id < 0 || int(id) >= len(f.hostIndex) {
		return -1
	}
	return int(f.hostIndex[id])
}

// GroupOf is the group of host id, or -1 if id is not one of the fabric's
// hosts.
func (f *Fabric) GroupOf(id netsim.NodeID) int {
	i := f.HostIndex(id)
	if i < 0 {
		return -1
	}
	// The last group whose start is <= i (groups are never empty).
	return sort.SearchInts(f.groupStart[1:], i+1)
}

// EdgeOf is the switch host id attaches to, or nil.
func (f *Fabric) EdgeOf(id netsim.NodeID) *switchmodel.Switch {
	g := f.GroupOf(id)
	if g < 0 {
		return nil
	}
	return f.Edge[g]
}

// LinkBetween returns the directed link from node a to node b (the first,
// if several), or nil.
func (f *Fabric) LinkBetween(a, b netsim.NodeID) *netsim.Link {
	if a < 0 || int(a) >= f.Net.NumNodes() {
		return nil
	}
	for _, pt := range f.Net.Node(a).Base().Ports {
		if pt.Link.To == b {
			return pt.Link
		}
	}
	return nil
}

// PortBetween returns node a's output port towards node b, or nil.
func (f *Fabric) PortBetween(a, b netsim.NodeID) *netsim.Port {
	if a < 0 || int(a) >= f.Net.NumNodes() {
		return nil
	}
	for _, pt := range f.Net.Node(a).Base().Ports {
		if pt.Link.To == b {
			return pt
		}
	}
	return nil
}

// QueueBetween returns the output queue of node a towards node b, or nil.
func (f *Fabric) QueueBetween(a, b netsim.NodeID) *switchmodel.PortQueue {
	pt := f.PortBetween(a, b)
	if pt == nil {
		return nil
	}
	q, _ := pt.Queue().(*switchmodel.PortQueue)
	return q
}

// SwitchQueues lists every switch output queue, switch by switch (in
// Switches order) and port by port.
func (f *Fabric) SwitchQueues() []*switchmodel.PortQueue {
	var qs []*switchmodel.PortQueue
	for _, sw := range f.Switches {
		for i := range sw.Ports {
			if q := sw.PortQueue(i); q != nil {
				qs = append(qs, q)
			}
		}
	}
	return qs
}

// HostQueues lists every host NIC queue of package switchmodel, host by
// host (in Hosts order) and port by port.
func (f *Fabric) HostQueues() []*switchmodel.PortQueue {
	var qs []*switchmodel.PortQueue
	for _, h := range f.Hosts {
		for _, pt := range h.Ports {
			if q, ok := pt.Queue().(*switchmodel.PortQueue); ok {
				qs = append(qs, q)
			}
		}
	}
	return qs
}

// ResetQueueStats restarts every switch queue's counters and time averages
// at now (warm-up exclusion).
func (f *Fabric) ResetQueueStats(now netsim.Time) {
	for _, q := range f.SwitchQueues() {
		q.ResetStats(now)
	}
}

// String summarises the fabric: its kind, hosts, groups and switches.
func (f *Fabric) String() string {
	return fmt.Sprintf("%s: %d hosts in %d groups, %d switches", f.Kind, len(f.Hosts), f.Groups(), len(f.Switches))
}

// SetSpray turns per-packet spraying on or off at every switch of the
// fabric (see switchmodel.Switch.Spray).
func (f *Fabric) SetSpray(on bool) {
	for _, sw := range f.Switches {
		sw.Spray = on
	}
}

// SetNICBackpressure turns the hosts' NIC flow control on (the builders'
// default: a host never drops its own packets, see netsim's nic.go) or off
// (the NIC queue is drop-tail at its Buffer, the earlier model).
func (f *Fabric) SetNICBackpressure(on bool) {
	for _, h := range f.Hosts {
		h.SetNICFlowControl(on)
	}
}

// SetNICMarking makes every host's NIC queue mark ECN-capable data CE when
// it finds at least k packets waiting in its transmit ring (0: no
// marking, the default): DCTCP's step threshold applied at the sender's
// own NIC, an option some deployments configure in their qdisc.
func (f *Fabric) SetNICMarking(k int) error {
	if k < 0 {
		return fmt.Errorf("NIC marking threshold %d packets is negative", k)
	}
	for _, h := range f.Hosts {
		for _, pt := range h.Ports {
			if q, ok := pt.Queue().(*switchmodel.PortQueue); ok {
				q.SetECNPackets(k)
			}
		}
	}
	return nil
}

// SetHostQueues replaces every host's NIC queues with fresh queues of
// configuration q (for example an unlimited buffer, Buffer 0, for
// transports that burst a whole window). It must be called before any
// traffic: it fails if a NIC port holds or serialises a packet.
func (f *Fabric) SetHostQueues(q switchmodel.QueueConfig) error {
	if err := q.Validate(); err != nil {
		return fmt.Errorf("host queues: %w", err)
	}
	if q.Shared != nil {
		return fmt.Errorf("host queues cannot draw on a switch's shared buffer")
	}
	for _, h := range f.Hosts {
		for _, pt := range h.Ports {
			if pt.Backlog() > 0 {
				return fmt.Errorf("host queues: %s's NIC is busy; replace queues before traffic starts", h.Name())
			}
		}
	}
	for _, h := range f.Hosts {
		for _, pt := range h.Ports {
			name := h.Name() + "->" + f.Net.Node(pt.Link.To).Base().Name()
			pt.SetQueue(switchmodel.NewNamedQueue(f.Net.Sim, q, name))
		}
	}
	return nil
}
