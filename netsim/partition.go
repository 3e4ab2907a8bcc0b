package netsim

import (
	"fmt"
	"slices"
	"strings"
)

// AutoPartition assigns nodes to partitions from the topology: every
// switch with hosts hanging off it (a leaf, a top-of-rack switch) forms
// a partition with those hosts; every switch without hosts (a spine) is
// a partition of its own. A switch with more than maxHosts hosts (a star)
// keeps the first maxHosts and its other hosts form partitions of
// maxHosts hosts each, so one switch does not make one partition. Hosts
// without a switch (cabled host to host) share partition 0. The result
// depends only on the topology, never on the thread count.
func (net *Network) AutoPartition(maxHosts int) []int { return net.autoPartition(maxHosts, false) }

// AutoPartitionSwitches is AutoPartition with every switch a partition
// of its own: a switch's hosts form partitions of maxHosts hosts each
// (all of them one partition when maxHosts <= 0), none shared with the
// switch. A leaf that forwards every packet of its hosts (and, in
// ina-leafspine, aggregates its parameter servers' jobs) then no longer
// shares a core with its hosts' transports, which bounded the speedup
// beyond 8 cores (docs/performance.md, "The parallel engine at the sizes
// users run"); every cable between a host and its switch crosses
// partitions, so the lookahead is the smallest of their delays too, and
// their packets take the hand-over between partitions. The hosts keep
// the groups AutoPartition gives them: the first maxHosts hosts of a
// switch share a partition under both.
func (net *Network) AutoPartitionSwitches(maxHosts int) []int {
	return net.autoPartition(maxHosts, true)
}

// autoPartition is AutoPartition, with every switch alone when alone.
func (net *Network) autoPartition(maxHosts int, alone bool) []int {
	n := len(net.nodes)
	part := make([]int, n)
	for i := range part {
		part[i] = -1
	}
	next := 0
	// Switches first, in ID order.
	hostsOf := make([][]NodeID, n)
	for _, h := range net.hosts {
		b := net.nodes[h].Base()
		if len(b.Ports) == 0 {
			continue
		}
		peer := b.Ports[0].Link.To
		if net.nodes[peer].Base().kind == KindSwitch {
			hostsOf[peer] = append(hostsOf[peer], h)
		}
	}
	for id, nd := range net.nodes {
		if nd.Base().kind != KindSwitch {
			continue
		}
		part[id] = next
		hs := hostsOf[id]
		if alone && len(hs) > 0 {
			next++
		}
		for i, h := range hs {
			if maxHosts > 0 && i >= maxHosts && i%maxHosts == 0 {
				next++
			}
			part[h] = next
		}
		next++
	}
	for id := range part {
		if part[id] < 0 {
			part[id] = 0
		}
	}
	if next == 0 {
		next = 1
	}
	return part
}

// SimBinder is a Queue that keeps a Sim for its clock or its packet
// pool; Partition binds it to its port's partition.
type SimBinder interface {
	BindSim(s *Sim)
}

// Partition splits the network into partitions for the parallel engine:
// part[id] is node id's partition, 0..P-1, each non-empty. It must be
// called once, after the topology is complete and before any component
// captures a node's Sim (NodeBase.Sim) or schedules an event on one.
// The Network's Sim becomes the coordinator (see parallel.go); it must
// have no pending events other than global ones. When a link whose
// delay is zero crosses partitions there is no lookahead: Partition then
// puts every node in one partition and reports it in the returned note.
func (net *Network) Partition(part []int) (note string, err error) {
	if len(part) != len(net.nodes) {
		return "", fmt.Errorf("netsim: Partition of %d nodes given %d entries", len(net.nodes), len(part))
	}
	if net.Sim.par != nil {
		return "", fmt.Errorf("netsim: network already partitioned")
	}
	if net.Sim.Pending() > 0 {
		return "", fmt.Errorf("netsim: Partition with %d events already scheduled", net.Sim.Pending())
	}
	P := 0
	for _, p := range part {
		if p < 0 {
			return "", fmt.Errorf("netsim: negative partition %d", p)
		}
		P = max(P, p+1)
	}
	if P > MaxPartitions {
		return "", fmt.Errorf("netsim: %d partitions, at most %d", P, MaxPartitions)
	}
	seen := make([]bool, P)
	for _, p := range part {
		seen[p] = true
	}
	if slices.Contains(seen, false) {
		return "", fmt.Errorf("netsim: partitions 0..%d are not all used", P-1)
	}
	la := Never
	for _, l := range net.links {
		if part[l.From] != part[l.To] {
			la = min(la, l.Delay)
		}
	}
	if la == 0 {
		part = make([]int, len(part))
		P, la = 1, Never
		note = "a zero-delay link crosses partitions: the network runs as one partition"
	}
	net.Routes() // built now: read-only from then on, shared by every partition
	root := net.Sim
	pr := &parallel{root: root, net: net, lookahead: la, threads: 1}
	for i := 0; i < P; i++ {
		var opts []Option
		if root.far == nil {
			opts = append(opts, WithBtreeQueue())
		}
		s := New(root.seed, opts...)
		s.par, s.index, s.now, s.outMin = pr, i, root.now, Never
		pr.parts = append(pr.parts, s)
	}
	pr.initLending()
	for w := range pr.out {
		pr.out[w] = make([][]crossing, P*P)
		pr.msgs[w] = make([][]message, P*P)
		pr.staged[w] = make([][]LinkID, P*P)
	}
	root.par = pr
	root.settling = nil
	for id, nd := range net.nodes {
		b := nd.Base()
		b.sim = pr.parts[part[id]]
		if b.sim.label == "" || (b.kind == KindSwitch && !strings.HasPrefix(b.sim.label, "switch ")) {
			if b.kind == KindSwitch {
				b.sim.label = "switch " + b.name
			} else if b.sim.label == "" {
				b.sim.label = "host " + b.name
			}
		}
		for _, pt := range b.Ports {
			pt.sim, pt.fslot, pt.listed = b.sim, 0, false
			pt.SetQueue(pt.queue) // a body queue resolves in the partition's pool
			if sb, ok := pt.queue.(SimBinder); ok {
				sb.BindSim(b.sim)
			}
		}
	}
	for _, l := range net.links {
		l.rsim, l.fslot = pr.parts[part[l.To]], 0
		l.port.cross = part[l.From] != part[l.To]
		if l.count > 0 {
			return "", fmt.Errorf("netsim: Partition with packets on link %d", l.ID)
		}
	}
	return note, nil
}
