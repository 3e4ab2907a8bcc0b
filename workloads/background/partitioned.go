package background

import "syncsim/netsim"

// On a partitioned network (the parallel engine) the generator is a
// netsim.Feeder of the coordinator. Its arrivals do not depend on the
// network, so the coordinator draws them between windows from the same
// random streams, in the same order, as the generator of an unpartitioned
// run (the arrival times, pairs, sizes and flow records are the same),
// and schedules each flow's start on its source's partition; the flow
// completes on its destination's partition, whose own share of the
// meter records it (merged in partition order by Summary). Starts are
// counted on the coordinator as they are drawn.

// Next is the time of the next arrival (netsim.Never: none left). It
// implements netsim.Feeder.
func (g *Generator) Next() netsim.Time { return g.next }

// Feed draws the arrivals before end and schedules each on its source's
// partition. It implements netsim.Feeder.
func (g *Generator) Feed(end netsim.Time) {
	for g.next < end {
		at := g.next
		a, ok := g.arrive(at)
		if !ok {
			return
		}
		g.cfg.Network.Node(a.src).Base().Sim().Schedule(at, a, 0, nil, 0)
	}
}

// idReserver is a bulk engine that numbers flows ahead of their start
// (transport.Stack): a flow's number picks its ECMP path, so flows
// drawn on the coordinator keep the numbers of an unpartitioned run.
type idReserver interface {
	ReserveID() uint64
}
