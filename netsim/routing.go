package netsim

import (
	"fmt"
	"strconv"
	"strings"
)

// Routes holds, for every node with more than one port, the set of
// shortest-path next-hop ports towards every destination node (the ECMP
// set). Identical sets are stored once, so a leaf's "any uplink" set is
// shared by all remote destinations; memory is one small entry per
// (multi-port node, destination), never per pair of hosts.
type Routes struct {
	table [][]hopRef // [node][dst]; nil for single-port nodes
	sets  []int32    // concatenated port-index sets
	salt  uint64
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
	r := &Routes{table: make([][]hopRef, n), salt: net.ecmpSalt}
	for u, nd := range net.nodes {
		if len(nd.Base().Ports) > 1 {
			r.table[u] = make([]hopRef, n)
		}
	}
	intern := map[string]hopRef{}
	dist := make([]int32, n)
	queue := make([]NodeID, 0, n)
	var key strings.Builder
	var set []int32
	for d := 0; d < n; d++ {
		for i := range dist {
			dist[i] = -1
		}
		dist[d] = 0
		queue = append(queue[:0], NodeID(d))
		for qi := 0; qi < len(queue); qi++ {
			v := queue[qi]
			if int(v) != d && net.nodes[v].Base().kind == KindHost {
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
			if r.table[u] == nil || u == d || dist[u] < 0 {
				continue
			}
			set = set[:0]
			key.Reset()
			for _, pt := range net.nodes[u].Base().Ports {
				v := pt.Link.To
				if dist[v] != dist[u]-1 {
					continue
				}
				if int(v) != d && net.nodes[v].Base().kind == KindHost {
					continue
				}
				set = append(set, int32(pt.Index))
				key.WriteString(strconv.Itoa(pt.Index))
				key.WriteByte(',')
			}
			k := key.String()
			ref, ok := intern[k]
			if !ok {
				ref = hopRef{off: uint32(len(r.sets)), n: uint16(len(set))}
				r.sets = append(r.sets, set...)
				intern[k] = ref
			}
			r.table[u][d] = ref
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
	h := t[dst]
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

// OutPort is the port node u uses for a packet of the given flow to dst
// under flow-hash ECMP, or nil if dst is unreachable.
func (net *Network) OutPort(u, dst NodeID, flow uint64) *Port {
	ports := net.nodes[u].Base().Ports
	if len(ports) == 1 {
		return ports[0]
	}
	r := net.Routes()
	hops := r.NextHops(u, dst)
	if len(hops) == 0 {
		return nil
	}
	return ports[hops[r.ECMPIndex(u, flow, len(hops))]]
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
