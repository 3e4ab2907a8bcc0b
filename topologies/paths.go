package topologies

import (
	"fmt"

	"syncsim/netsim"
)

// flowSearchLimit bounds the flow identifiers FlowForPath tries. With k
// equal paths a flow pins both directions with probability 1/k^2, so the
// chance of exhausting the limit with k = 64 is exp(-2^20/4096), nil.
const flowSearchLimit = 1 << 20

// FlowForPath returns the smallest flow identifier >= 1 whose packets from
// src to dst and whose replies from dst to src (same Flow value, as
// transports use for acknowledgements) both cross Core[path]: the dumbbell's
// path switch, or the leaf-spine's spine. It errors if the fabric has no
// such parallel paths, if src or dst is not a fabric host, or if no
// identifier pins the path (for example when src and dst share an edge
// switch).
func (f *Fabric) FlowForPath(src, dst netsim.NodeID, path int) (uint64, error) {
	return f.NextFlowForPath(src, dst, path, 0)
}

// NextFlowForPath is FlowForPath searching identifiers greater than after,
// so several distinct flows can be pinned to one path.
func (f *Fabric) NextFlowForPath(src, dst netsim.NodeID, path int, after uint64) (uint64, error) {
	if len(f.Core) == 0 {
		return 0, fmt.Errorf("%s fabric has no parallel paths", f.Kind)
	}
	if path < 0 || path >= len(f.Core) {
		return 0, fmt.Errorf("path %d out of range [0, %d)", path, len(f.Core))
	}
	return f.NextFlowThrough(src, dst, f.Core[path].ID(), after)
}

// NextFlowThrough returns the smallest flow identifier greater than after
// whose packets from src to dst and whose replies from dst to src (same
// Flow value) both cross switch via: FlowForPath for any switch, such as
// a fat-tree's aggregation switch, which pins a flow between two edges of
// one pod. It errors if src or dst is not a fabric host, if they share an
// edge switch, or if no identifier in (after, after + 2^20] crosses via
// both ways.
func (f *Fabric) NextFlowThrough(src, dst, via netsim.NodeID, after uint64) (uint64, error) {
	if f.HostIndex(src) < 0 || f.HostIndex(dst) < 0 {
		return 0, fmt.Errorf("flow endpoints %d -> %d are not both hosts of the %s fabric", src, dst, f.Kind)
	}
	if src == dst {
		return 0, fmt.Errorf("flow from host %d to itself crosses no path", src)
	}
	if f.GroupOf(src) == f.GroupOf(dst) {
		return 0, fmt.Errorf("hosts %d and %d share edge switch %s: their traffic crosses no path", src, dst, f.EdgeOf(src).Name())
	}
	if via < 0 || int(via) >= f.Net.NumNodes() {
		return 0, fmt.Errorf("node %d is not in the %s fabric", via, f.Kind)
	}
	mid := via
	crosses := func(a, b netsim.NodeID, flow uint64) bool {
		links, err := f.Net.Path(a, b, flow)
		if err != nil {
			return false
		}
		for _, l := range links {
			if f.Net.Link(l).To == mid {
				return true
			}
		}
		return false
	}
	for flow := after + 1; flow <= after+flowSearchLimit && flow != 0; flow++ {
		if crosses(src, dst, flow) && crosses(dst, src, flow) {
			return flow, nil
		}
	}
	return 0, fmt.Errorf("no flow identifier in (%d, %d] routes %d -> %d through %s both ways",
		after, after+flowSearchLimit, src, dst, f.Net.Node(via).Base().Name())
}

// PathOf returns the index of the Core switch the flow's packets cross from
// src to dst (the first, if several), or -1 if they cross none.
func (f *Fabric) PathOf(src, dst netsim.NodeID, flow uint64) int {
	links, err := f.Net.Path(src, dst, flow)
	if err != nil {
		return -1
	}
	for _, l := range links {
		to := f.Net.Link(l).To
		for i, c := range f.Core {
			if c.ID() == to {
				return i
			}
		}
	}
	return -1
}
