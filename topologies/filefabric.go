package topologies

import (
	"fmt"
	"strconv"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// KindFile is the Fabric.Kind of a network read from a topology file.
const KindFile = "topology file"

// FromFile builds a topology file's network with output queues of
// configuration q at every port (HostQueue(q) at the hosts' NICs), the
// same at every link whatever its rate. Node i of the file is the i-th
// node added (its NodeID is i when net starts empty, so a flow file's
// ids name the same hosts), links are wired in file order, and routes
// are shortest-path (hop count) ECMP by flow hash, as the HPCC branch's
// CalculateRoute computes them (a breadth-first search from each host
// through switches only, every neighbour one hop closer a next hop).
//
// Hosts are named "h<id>". Switches get a tier from their hop distance
// to the nearest host: those a host attaches to are edge switches
// (Edge, named "edge<n>"), those farthest from the hosts are Core
// ("core<n>") and those in between Agg ("agg<n>"), each tier numbered in
// id order; a one-tier file has edge switches only. Group g is the hosts
// of Edge[g] in id order, so hosts are listed edge by edge, and a
// fat-tree written by WriteFatTree builds exactly what FatTree builds.
func FromFile(net *netsim.Network, tf *TopologyFile, q switchmodel.QueueConfig) (*Fabric, error) {
	const kind = KindFile
	b, err := newBuilder(net, kind, q)
	if err != nil {
		return nil, err
	}
	if tf == nil || len(tf.Switch) != tf.Nodes {
		return nil, errorf(kind, "malformed topology")
	}
	if err := b.checkTotal(tf.Nodes); err != nil {
		return nil, err
	}
	tier, top := tf.tiers()
	edgeOf := make([]int, tf.Nodes)
	for i := range edgeOf {
		edgeOf[i] = -1
	}
	for _, l := range tf.Links {
		if !tf.Switch[l.A] {
			edgeOf[l.A] = l.B
		}
		if !tf.Switch[l.B] {
			edgeOf[l.B] = l.A
		}
	}
	for i, e := range edgeOf {
		if !tf.Switch[i] && (e < 0 || tier[e] != 1) {
			// ReadTopology refuses such files; a TopologyFile made by
			// hand may not.
			return nil, errorf(kind, "host %d attaches to no switch", i)
		}
	}
	name := make([]string, tf.Nodes)
	var count [3]int
	for i := range name {
		t := 0
		switch {
		case !tf.Switch[i]:
			name[i] = "h" + strconv.Itoa(i)
			continue
		case tier[i] == 1:
			t = 0
		case tier[i] == top:
			t = 2
		default:
			t = 1
		}
		name[i] = [3]string{"edge", "agg", "core"}[t] + strconv.Itoa(count[t])
		count[t]++
	}
	base := netsim.NodeID(net.NumNodes())
	sws := map[int]*switchmodel.Switch{}
	var edges []int
	for i := 0; i < tf.Nodes; i++ {
		if !tf.Switch[i] {
			net.AddHost(name[i])
			continue
		}
		sw := switchmodel.Add(net, name[i])
		sws[i] = sw
		switch {
		case tier[i] == 1:
			b.f.Edge = append(b.f.Edge, sw)
			edges = append(edges, i)
		case tier[i] == top:
			b.f.Core = append(b.f.Core, sw)
		default:
			b.f.Agg = append(b.f.Agg, sw)
		}
	}
	for _, e := range edges {
		for i := 0; i < tf.Nodes; i++ {
			if !tf.Switch[i] && edgeOf[i] == e {
				b.f.Hosts = append(b.f.Hosts, net.Node(base+netsim.NodeID(i)).(*netsim.Host))
			}
		}
		b.endGroup()
	}
	for _, l := range tf.Links {
		b.connect(base+netsim.NodeID(l.A), base+netsim.NodeID(l.B), l.Rate, l.Delay)
	}
	return b.finish(), nil
}

// tiers is each switch's hop distance to the nearest host (through
// switches), and the largest.
func (tf *TopologyFile) tiers() ([]int, int) {
	adj := tf.adjacency()
	dist := make([]int, tf.Nodes)
	var queue []int
	for i := range dist {
		dist[i] = -1
		if !tf.Switch[i] {
			dist[i] = 0
			queue = append(queue, i)
		}
	}
	top := 0
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range adj[u] {
			if dist[v] < 0 && tf.Switch[v] {
				dist[v] = dist[u] + 1
				top = max(top, dist[v])
				queue = append(queue, v)
			}
		}
	}
	return dist, top
}

// HostRates returns the rate of each host's link in Hosts order.
func (f *Fabric) HostRates() []netsim.Rate {
	rs := make([]netsim.Rate, len(f.Hosts))
	for i, h := range f.Hosts {
		if len(h.Ports) > 0 {
			rs[i] = h.Ports[0].Link.Rate
		}
	}
	return rs
}

// UniformHostRate is the rate every host's NIC runs at, or an error
// naming two hosts that differ.
func (f *Fabric) UniformHostRate() (netsim.Rate, error) {
	rs := f.HostRates()
	if len(rs) == 0 {
		return 0, fmt.Errorf("%s has no hosts", f.Kind)
	}
	for i, r := range rs {
		if r != rs[0] {
			return 0, fmt.Errorf("%s: hosts %s and %s attach at %v and %v; this experiment needs one host rate",
				f.Kind, f.Hosts[0].Name(), f.Hosts[i].Name(), rs[0], r)
		}
	}
	return rs[0], nil
}

// RTTBound bounds the round-trip propagation delay between two hosts on
// shortest paths: a path climbs at most to the top tier and down again,
// 2 x top links each way, each at most the file's largest delay. It is
// exact for a leaf-spine (8 delays) and a fat-tree (12) of uniform
// delays.
func (tf *TopologyFile) RTTBound() netsim.Time {
	_, top := tf.tiers()
	var d netsim.Time
	for _, l := range tf.Links {
		d = max(d, l.Delay)
	}
	return netsim.Time(4*top) * d
}

// TopTier is the largest hop distance of a switch from the nearest host:
// 1 for one tier of switches, 2 for a leaf-spine, 3 for a fat-tree. A
// shortest path between two hosts has at most 2 x TopTier cables.
func (tf *TopologyFile) TopTier() int {
	_, top := tf.tiers()
	return top
}

// HostRate is the rate of the first host's link (0 if none).
func (tf *TopologyFile) HostRate() netsim.Rate {
	for _, l := range tf.Links {
		if !tf.Switch[l.A] || !tf.Switch[l.B] {
			return l.Rate
		}
	}
	return 0
}

// GroupSizes is the number of hosts under each edge switch, in the
// order FromFile numbers the host groups (edge switches by id), without
// building the network.
func (tf *TopologyFile) GroupSizes() []int {
	tier, _ := tf.tiers()
	count := make([]int, tf.Nodes)
	for _, l := range tf.Links {
		switch {
		case !tf.Switch[l.A] && tf.Switch[l.B]:
			count[l.B]++
		case tf.Switch[l.A] && !tf.Switch[l.B]:
			count[l.A]++
		}
	}
	var sizes []int
	for i := 0; i < tf.Nodes; i++ {
		if tf.Switch[i] && tier[i] == 1 {
			sizes = append(sizes, count[i])
		}
	}
	return sizes
}
