package netsim

import (
	"fmt"
	"strconv"
	"strings"
)

// Routes holds, for every node with more than one port, the set of
// shortest-path next-hop ports towards every destination (the ECMP set).
// Destinations are switches and multi-homed hosts; a host with a single
// port is reached through the switch it hangs off, so its route is that
// switch's route, plus the switch's port to it. Identical sets are stored
// once, so a leaf's "any uplink" set is shared by all remote destinations.
// Memory is one small entry per (multi-port node, destination switch) and
// one per host, never per pair of hosts: a leaf-spine's tables grow with
// the square of its switches, a sixteenth of the host count or less.
type Routes struct {
	table [][]hopRef // [node][dest[dst].col]; nil rows for single-port nodes
	dest  []destRef  // per node, what a lookup towards it needs (one cache line)
	sets  []int32    // concatenated port-index sets
	salt  uint64
}

// destRef is how a destination is looked up: its column of the table, or,
// for a single-homed host (col -1), the node its port leads to, that node's
// column, and the port there that reaches the host.
type destRef struct {
	col    int32  // column of table, -1 for single-homed hosts
	via    NodeID // single-homed host: the node its port leads to
	viaCol int32  // single-homed host: via's column (-1 if none)
	last   int32  // single-homed host: offset in sets of via's port towards it, -1 if none
}

type hopRef struct {
	off uint32
	n   uint16
}

// BuildRoutes computes shortest-path (hop count) ECMP next hops for every
// destination. Paths never transit a host. It must be called after the
// topology is complete and before traffic starts.
func (net *Network) BuildRoutes() {
	n := len(net.nodes)
	in := make([][]*Link, n)
	for _, l := range net.links {
		in[l.To] = append(in[l.To], l)
	}
	r := &Routes{table: make([][]hopRef, n), dest: make([]destRef, n), salt: net.ecmpSalt}
	last := make([]hopRef, n)
	intern := map[string]hopRef{}
	var key strings.Builder
	var set []int32
	ref := func() hopRef {
		key.Reset()
		for _, p := range set {
			key.WriteString(strconv.Itoa(int(p)))
			key.WriteByte(',')
		}
		k := key.String()
		h, ok := intern[k]
		if !ok {
			h = hopRef{off: uint32(len(r.sets)), n: uint16(len(set))}
			r.sets = append(r.sets, set...)
			intern[k] = h
		}
		return h
	}
	var dsts []NodeID
	for d, nd := range net.nodes {
		b := nd.Base()
		if b.kind == KindHost && len(b.Ports) == 1 {
			pt := b.Ports[0]
			r.dest[d] = destRef{col: -1, via: pt.Link.To, viaCol: -1, last: -1}
			set = set[:0]
			for _, q := range net.nodes[pt.Link.To].Base().Ports {
				if q.Link.To == NodeID(d) {
					set = append(set, int32(q.Index))
					break
				}
			}
			last[d] = ref()
			continue
		}
		r.dest[d] = destRef{col: int32(len(dsts))}
		dsts = append(dsts, NodeID(d))
	}
	for d := range r.dest {
		if e := &r.dest[d]; e.col < 0 {
			e.viaCol = r.dest[e.via].col
			if last[d].n > 0 {
				e.last = int32(last[d].off)
			}
		}
	}
	for u, nd := range net.nodes {
		if len(nd.Base().Ports) > 1 {
			r.table[u] = make([]hopRef, len(dsts))
		}
	}
	dist := make([]int32, n)
	queue := make([]NodeID, 0, n)
	for col, d := range dsts {
		for i := range dist {
			dist[i] = -1
		}
		dist[d] = 0
		queue = append(queue[:0], d)
		for qi := 0; qi < len(queue); qi++ {
			v := queue[qi]
			if v != d && net.nodes[v].Base().kind == KindHost {
				continue // hosts do not forward
			}
			for _, l := range in[v] {
				if dist[l.From] < 0 {
					dist[l.From] = dist[v] + 1
					queue = append(queue, l.From)
				}
			}
		}
		for u := 0; u < n; u++ {
			if r.table[u] == nil || NodeID(u) == d || dist[u] < 0 {
				continue
			}
			set = set[:0]
			for _, pt := range net.nodes[u].Base().Ports {
				v := pt.Link.To
				if dist[v] != dist[u]-1 {
					continue
				}
				if v != d && net.nodes[v].Base().kind == KindHost {
					continue
				}
				set = append(set, int32(pt.Index))
			}
			r.table[u][col] = ref()
		}
	}
	net.routes = r
}

// Routes returns the routing tables, building them if needed.
func (net *Network) Routes() *Routes {
	if net.routes == nil {
		net.BuildRoutes()
	}
	return net.routes
}

// NextHops returns the indices of node u's ports on shortest paths to dst
// (nil if dst is unreachable or u has a single port). The slice must not
// be modified.
func (r *Routes) NextHops(u, dst NodeID) []int32 {
	t := r.table[u]
	if t == nil {
		return nil
	}
	var h hopRef
	if d := &r.dest[dst]; d.col >= 0 {
		h = t[d.col]
	} else if d.via == u {
		if d.last < 0 {
			return nil
		}
		return r.sets[d.last : d.last+1]
	} else if d.viaCol >= 0 {
		// Every path to a single-homed host ends through via, so the next
		// hops towards it are those towards via.
		h = t[d.viaCol]
	}
	return r.sets[h.off : h.off+uint32(h.n)]
}

// ECMPIndex picks one of n equal-cost choices at node u for a flow, by a
// seeded hash of (flow, node): the same flow always takes the same path, and
// different switches hash independently.
func (r *Routes) ECMPIndex(u NodeID, flow uint64, n int) int {
	if n <= 1 {
		return 0
	}
	return int(Hash64(flow^r.salt, uint64(u)) % uint64(n))
}

// Hop is the index of the port node u uses for a packet of the given flow
// to dst under flow-hash ECMP: -1 if dst is unreachable, -2 if u has a
// single port (which every destination uses). It is NextHops and
// ECMPIndex in one look-up, for the per-packet path.
func (r *Routes) Hop(u, dst NodeID, flow uint64) int32 {
	t := r.table[u]
	if t == nil {
		return -2
	}
	var h hopRef
	if d := &r.dest[dst]; d.col >= 0 {
		h = t[d.col]
	} else if d.via == u {
		if d.last < 0 {
			return -1
		}
		return r.sets[d.last]
	} else if d.viaCol >= 0 {
		h = t[d.viaCol]
	}
	switch h.n {
	case 0:
		return -1
	case 1:
		return r.sets[h.off]
	}
	return r.sets[h.off+uint32(Hash64(flow^r.salt, uint64(u))%uint64(h.n))]
}

// OutPort is the port node u uses for a packet of the given flow to dst
// under flow-hash ECMP, or nil if dst is unreachable.
func (net *Network) OutPort(u, dst NodeID, flow uint64) *Port {
	ports := net.nodes[u].Base().Ports
	if len(ports) == 1 {
		return ports[0]
	}
	if len(ports) == 0 {
		return nil
	}
	switch i := net.Routes().Hop(u, dst, flow); i {
	case -1:
		return nil
	case -2:
		return ports[0]
	default:
		return ports[i]
	}
}

// Path returns the links a packet of the given flow takes from src to dst
// under flow-hash ECMP: the path the packet engine's switches choose, for
// the flow engine and for ideal-FCT computations.
func (net *Network) Path(src, dst NodeID, flow uint64) ([]LinkID, error) {
	var path []LinkID
	u := src
	for u != dst {
		pt := net.OutPort(u, dst, flow)
		if pt == nil {
			return nil, fmt.Errorf("no route from %s to %s", net.nodes[src].Base().name, net.nodes[dst].Base().name)
		}
		path = append(path, pt.Link.ID)
		u = pt.Link.To
		if len(path) > len(net.nodes) {
			panic("netsim: routing loop")
		}
	}
	return path, nil
}
