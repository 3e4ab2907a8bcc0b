package inarig

import (
	"fmt"
	"strings"

	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/netsim"
	"syncsim/switchmodel"
)

// Drop tiers: where on the fabric a packet was dropped, by the port whose
// queue refused it. On a leaf-spine the edge switches are the leaves and
// the core the spines; on a dumbbell the edges are S1 and S2 and the core
// the path switches (topologies.Fabric). On a fat-tree (or a topology
// file's three tiers) every port towards a higher tier (edge ->
// aggregation -> core) counts as an uplink and every port towards a
// lower tier as a downlink.
const (
	TierNIC      = iota // a host's NIC (host -> edge)
	TierUplink          // edge -> core (leaf -> spine)
	TierDownlink        // core -> edge (spine -> leaf)
	TierPSPort          // edge -> a host running a job's parameter server
	TierHostPort        // edge -> any other host
	numTiers
)

// TierNames are the tiers' names, by tier; drops_<name> is the metric.
var TierNames = [numTiers]string{"nic", "uplink", "downlink", "ps_port", "host_port"}

// Drop kinds: what the dropped packet was (see dropKind).
const (
	DropGradient   = iota // a worker's gradient before its last hop into the PS
	DropOverflow          // a gradient on its last hop into its PS: sent on unaggregated
	DropAggregate         // a switch's complete, partial or rack aggregate for the PS
	DropResult            // an aggregated result (AACK) to a worker
	DropAck               // a GACK
	DropPull              // a worker's result pull
	DropBackground        // a packet of other traffic (kind 0: DCTCP data and ACKs, UDP)
	DropOther             // any other kind
	numKinds
)

// KindNames are the kinds' names, by kind; drops_<name> is the metric.
var KindNames = [numKinds]string{"gradient", "overflow", "aggregate", "result", "ack", "pull", "background", "other"}

// dropKind classifies dropped packet p, refused by port at. A gradient
// dropped on a port into its destination (the job's PS) had crossed the
// aggregating switch, the PS's edge, which sent it on unaggregated (an
// overflow, a resend or a late contribution; under BytePS, which has no
// aggregating switch, every gradient).
func dropKind(p *netsim.Packet, at *netsim.Port) int {
	switch p.Kind {
	case 0:
		return DropBackground
	case inagg.KindGradient:
		if at.Link.To == p.Dst {
			return DropOverflow
		}
		return DropGradient
	case inagg.KindAggregate, inagg.KindPartial, inagg.KindRackAggregate:
		return DropAggregate
	case inagg.KindResult:
		return DropResult
	case inagg.KindGACK:
		return DropAck
	case inagg.KindPull:
		return DropPull
	}
	return DropOther
}

// portBook is one port's drops by kind. A port's books are written only
// by the partition that owns the port (netsim.Network.OnDrop).
type portBook struct {
	port   *netsim.Port
	tier   int
	psSide bool // the port is a PS host's NIC or a port of a PS host's edge switch
	kinds  [numKinds]uint64
}

// dropBooks are the run's drop books: every host NIC and switch port of
// the fabric with its tier, and each job's INA packets dropped, per
// partition. The hook that fills them runs only when a packet is dropped.
type dropBooks struct {
	ports  []*portBook
	byPort map[*netsim.Port]*portBook // read-only once the run starts
	jobIdx map[int]int                // job ID -> index in the rig's jobs
	part   []int                      // node ID -> partition of its owner
	jobs   [][]uint64                 // [partition][job index]: the jobs' packets dropped at ports
}

// startDropBooks classifies the fabric's ports into tiers and registers
// the drop hook. The PS hosts are the jobs' (call it once every job is
// added).
func (g *Rig) startDropBooks() error {
	f := g.Fab
	b := &dropBooks{byPort: map[*netsim.Port]*portBook{}, jobIdx: map[int]int{}}
	ps, psEdge := map[netsim.NodeID]bool{}, map[netsim.NodeID]bool{}
	for i, j := range g.Jobs {
		ps[j.PSHost().ID()] = true
		if e := f.EdgeOf(j.PSHost().ID()); e != nil {
			psEdge[e.ID()] = true
		}
		b.jobIdx[j.ID()] = i
	}
	// rank: 1 for edge switches, 2 for a fat-tree's aggregation
	// switches, 3 for core switches; a port towards a higher rank is an
	// uplink, towards a lower one a downlink.
	rank := map[netsim.NodeID]int{}
	for r, tier := range [][]*switchmodel.Switch{f.Edge, f.Agg, f.Core} {
		for _, sw := range tier {
			rank[sw.ID()] = r + 1
		}
	}
	edge := func(id netsim.NodeID) bool { return rank[id] == 1 }
	add := func(pt *netsim.Port, tier int) {
		pb := &portBook{port: pt, tier: tier, psSide: ps[pt.Node] || psEdge[pt.Node]}
		b.ports = append(b.ports, pb)
		b.byPort[pt] = pb
	}
	// The ports with the queues the drops metric counts
	// (Fabric.HostQueues and SwitchQueues).
	for _, h := range f.Hosts {
		for _, pt := range h.Ports {
			if _, ok := pt.Queue().(*switchmodel.PortQueue); ok {
				add(pt, TierNIC)
			}
		}
	}
	isHost := func(id netsim.NodeID) bool { return f.HostIndex(id) >= 0 }
	for _, sw := range f.Switches {
		for i, pt := range sw.Ports {
			if sw.PortQueue(i) == nil {
				continue
			}
			to := pt.Link.To
			switch {
			case rank[sw.ID()] > 0 && rank[to] > rank[sw.ID()]:
				add(pt, TierUplink)
			case rank[to] > 0 && rank[to] < rank[sw.ID()]:
				add(pt, TierDownlink)
			case edge(sw.ID()) && isHost(to) && ps[to]:
				add(pt, TierPSPort)
			case edge(sw.ID()) && isHost(to):
				add(pt, TierHostPort)
			default:
				return fmt.Errorf("drop books: the port of %s to %s fits no tier", sw.Name(), g.Net.Node(to).Base().Name())
			}
		}
	}
	parts := 1
	if p := g.Sim.Partitions(); p != nil {
		parts = len(p)
	}
	b.part = make([]int, g.Net.NumNodes())
	for id := range b.part {
		b.part[id] = g.Net.Node(netsim.NodeID(id)).Base().Sim().Partition()
	}
	b.jobs = make([][]uint64, parts)
	for i := range b.jobs {
		b.jobs[i] = make([]uint64, len(g.Jobs))
	}
	g.drops = b
	g.Net.OnDrop(b.count)
	return nil
}

// count is the drop hook: it books p, dropped at port at, by its port's
// tier and its kind, and by its job. Packets a node discarded (at nil)
// are not in the drops metric and not booked.
func (b *dropBooks) count(p *netsim.Packet, at *netsim.Port) {
	if at == nil {
		return
	}
	pb := b.byPort[at]
	if pb == nil {
		return
	}
	pb.kinds[dropKind(p, at)]++
	if id, ok := inagg.PacketJob(p); ok {
		if i, ok := b.jobIdx[id]; ok {
			b.jobs[b.part[at.Node]][i]++
		}
	}
}

// jobDrops is the number of packets of job index i dropped so far.
func (b *dropBooks) jobDrops(i int) uint64 {
	var n uint64
	for _, part := range b.jobs {
		n += part[i]
	}
	return n
}

// matrix is the drops by tier and kind.
func (b *dropBooks) matrix() (m [numTiers][numKinds]uint64) {
	for _, pb := range b.ports {
		for k, n := range pb.kinds {
			m[pb.tier][k] += n
		}
	}
	return m
}

// inaDrops is the jobs' packets dropped at ports (every kind but
// background and other).
func (b *dropBooks) inaDrops() uint64 {
	var n uint64
	m := b.matrix()
	for t := range m {
		for _, k := range []int{DropGradient, DropOverflow, DropAggregate, DropResult, DropAck, DropPull} {
			n += m[t][k]
		}
	}
	return n
}

// DropMetrics are the drop books' metrics: drops by tier, by kind, and
// loss_frac.
func DropMetrics() []experiments.Metric {
	tierHelp := [numTiers]string{
		"packets dropped at host NICs (host -> edge switch), whole run",
		"packets dropped at edge -> core ports (leaf -> spine; on the dumbbell S1/S2 -> path switch), whole run",
		"packets dropped at core -> edge ports (spine -> leaf; on the dumbbell path switch -> S1/S2), whole run",
		"packets dropped at edge switch ports into a host that runs a job's parameter server (the PS's last hop), whole run",
		"packets dropped at edge switch ports into the other hosts (workers and idle hosts), whole run",
	}
	kindHelp := [numKinds]string{
		"worker gradient packets (retransmissions included) dropped before their last hop into the PS, whole run",
		"gradient packets dropped on their last hop into their PS: sent on by the aggregating switch unaggregated " +
			"(collisions, resends, late contributions; under BytePS every gradient), whole run",
		"aggregates the switch sends to the PS (complete, partial on a resend's flush, rack aggregates) dropped, whole run",
		"aggregated results (AACKs) dropped on their way to a worker, whole run",
		"GACKs dropped (the switch's or the PS's acknowledgements of gradients), whole run",
		"workers' result pulls to the PS dropped, whole run",
		"packets of other traffic dropped (the background's DCTCP data and ACKs, the UDP burst), warm-up included, whole run",
		"packets of any other kind dropped (0 unless a new packet kind is added), whole run",
	}
	var m []experiments.Metric
	for t, name := range TierNames {
		m = append(m, experiments.Metric{Name: "drops_" + name, Unit: "packets", Help: tierHelp[t]})
	}
	for k, name := range KindNames {
		m = append(m, experiments.Metric{Name: "drops_" + name, Unit: "packets", Help: kindHelp[k]})
	}
	return append(m, experiments.Metric{Name: "loss_frac", Unit: "", Help: "the jobs' packets dropped over the jobs' packets sent, whole run " +
		"(every iteration, the skipped ones included): dropped = drops_gradient + drops_overflow + drops_aggregate + drops_result + drops_ack + drops_pull; " +
		"sent = every packet a worker, PS or aggregating switch sent as its source (gradients with their retransmissions, pulls, GACKs, " +
		"aggregates, results: each copy of a multicast result); a gradient the switch sends on unaggregated is the worker's one packet"})
}

// fillDrops writes the drop books' metrics into m.
func (g *Rig) fillDrops(m map[string]float64) {
	b := g.drops
	if b == nil {
		return
	}
	mat := b.matrix()
	for t, name := range TierNames {
		var n uint64
		for _, c := range mat[t] {
			n += c
		}
		m["drops_"+name] = float64(n)
	}
	for k, name := range KindNames {
		var n uint64
		for t := range mat {
			n += mat[t][k]
		}
		m["drops_"+name] = float64(n)
	}
	var sent uint64
	for _, j := range g.Jobs {
		sent += j.PacketsSent()
	}
	for _, a := range g.Aggs {
		sent += a.Stats.Sent
	}
	if sent > 0 {
		m["loss_frac"] = float64(b.inaDrops()) / float64(sent)
	}
}

// DropBooksColumns are the columns of the drop_books series, one row per
// tier.
var DropBooksColumns = append([]string{"tier"}, append(KindNames[:], "total")...)

// dropSeries is the drop_books series: the drops by tier (rows) and kind
// (columns) at the end of the run.
func (g *Rig) dropSeries() experiments.Series {
	mat := g.drops.matrix()
	rows := make([][]float64, numTiers)
	for t := range mat {
		row := []float64{float64(t)}
		var n uint64
		for _, c := range mat[t] {
			row = append(row, float64(c))
			n += c
		}
		rows[t] = append(row, float64(n))
	}
	return experiments.Series{Name: "drop_books", Columns: DropBooksColumns, Rows: rows}
}

// DropPortsColumns are the columns of the drop_ports series, one row per
// port that dropped a packet.
var DropPortsColumns = append([]string{"node", "to", "tier", "ps_side"}, append(KindNames[:], "total")...)

// portSeries is the drop_ports series: every port that dropped a packet,
// in the books' order (host NICs in Fabric.Hosts order, then the
// switches' ports in Fabric.Switches order), with its drops by kind.
func (g *Rig) portSeries() experiments.Series {
	var rows [][]float64
	for _, pb := range g.drops.ports {
		var n uint64
		for _, c := range pb.kinds {
			n += c
		}
		if n == 0 {
			continue
		}
		side := 0.0
		if pb.psSide {
			side = 1
		}
		row := []float64{float64(pb.port.Node), float64(pb.port.Link.To), float64(pb.tier), side}
		for _, c := range pb.kinds {
			row = append(row, float64(c))
		}
		rows = append(rows, append(row, float64(n)))
	}
	return experiments.Series{Name: "drop_ports", Columns: DropPortsColumns, Rows: rows}
}

// DropBooksDoc describes the drop_books and drop_ports series for the
// experiments' Doc.
func DropBooksDoc() string {
	return "\"drop_books\", one row per tier at the end of the run: tier (code: " + codes(TierNames[:]) + "), " +
		"then its drops by kind (" + strings.Join(KindNames[:], ", ") + ", as the drops_<kind> metrics) and their total: " +
		"the columns add up to the drops_<kind> metrics, the rows to the drops_<tier> metrics. " +
		"\"drop_ports\", one row per port that dropped a packet: node and to (the node IDs of the port's owner and of the node its link leads to), " +
		"tier, ps_side (1 when the port is a PS host's NIC or a port of the edge switch a PS host hangs from: where a job's aggregation, " +
		"overflow and result multicast happen), its drops by kind and total; summed by tier they give drop_books."
}
