package syncctl

import (
	"cmp"
	"fmt"
	"slices"

	"math"

	"syncsim/netsim"
	"syncsim/workloads/collective"
)

// FlowExecutor runs each group's all-reduce as a real ring all-reduce
// (collective.RingAllReduce: 2(|g|-1) steps of v/|g| between ring
// neighbours, hosts in the order the controller listed them) over a
// netsim.Bulk engine, e.g. the fluid engine on a star whose edge links run
// at the workers' bandwidths. The weights of the weighted all reduce do not
// change the traffic, so the plain ring is used.
type FlowExecutor struct {
	Bulk  netsim.Bulk
	Hosts []netsim.NodeID // Hosts[w] is worker w's node
	Opts  netsim.BulkOpts
	// Rank, if set, orders each group's ring: members in increasing
	// Rank[w] (stable), e.g. rack by rack so that a ring crosses each
	// rack's uplink once each way, as topology-aware collective libraries
	// build rings. nil keeps the order the controller listed.
	Rank []int
}

// NewFlowExecutor checks that there is one distinct host per worker.
func NewFlowExecutor(bulk netsim.Bulk, hosts []netsim.NodeID) (*FlowExecutor, error) {
	if bulk == nil {
		return nil, fmt.Errorf("flow executor: nil bulk engine")
	}
	seen := make(map[netsim.NodeID]bool, len(hosts))
	for _, h := range hosts {
		if seen[h] {
			return nil, fmt.Errorf("flow executor: host %d given twice", h)
		}
		seen[h] = true
	}
	return &FlowExecutor{Bulk: bulk, Hosts: hosts}, nil
}

// Start launches the ring all-reduce of bytes among group; done fires when
// every host has its last chunk.
func (f *FlowExecutor) Start(c *Cluster, group []int, bytes float64, done func()) {
	if f.Rank != nil {
		group = append([]int(nil), group...)
		slices.SortStableFunc(group, func(a, b int) int { return cmp.Compare(f.Rank[a], f.Rank[b]) })
	}
	hosts := make([]netsim.NodeID, len(group))
	for i, w := range group {
		if w < 0 || w >= len(f.Hosts) {
			panic(fmt.Sprintf("syncctl: worker %d has no host (flow executor has %d)", w, len(f.Hosts)))
		}
		hosts[i] = f.Hosts[w]
	}
	size := netsim.Bytes(math.Round(bytes))
	if err := collective.RingAllReduce(c.Sim(), f.Bulk, hosts, size, f.Opts, done); err != nil {
		panic("syncctl: ring all-reduce of a launched group failed: " + err.Error())
	}
}
