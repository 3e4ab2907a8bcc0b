package inarig

import (
	"math"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// Tier is a set of fabric links of one kind whose utilisation the rig
// reports: the uplinks (edge switch -> core switch: leaf -> spine, or a
// dumbbell side -> a path switch) or the downlinks (core -> edge).
type Tier struct {
	Ports []*netsim.Port
	from  []uint64 // TxBytes of each port at the window start
	at    netsim.Time
}

// FabricTiers returns the uplink and downlink tiers of fab: every output
// port of an edge switch towards a switch above it (a core switch, or a
// fat-tree's aggregation switch), and of such a switch towards an edge
// switch, in switch order. A fat-tree's aggregation -> core links are in
// neither: under traffic spread evenly they carry at most what the edge
// uplinks carry (only the flows leaving the pod).
func FabricTiers(fab *topologies.Fabric) (up, down *Tier) {
	edge := map[netsim.NodeID]bool{}
	above := map[netsim.NodeID]bool{}
	for _, sw := range fab.Edge {
		edge[sw.ID()] = true
	}
	for _, sw := range append(append([]*switchmodel.Switch{}, fab.Agg...), fab.Core...) {
		above[sw.ID()] = true
	}
	up, down = &Tier{}, &Tier{}
	for _, sw := range fab.Edge {
		for _, pt := range sw.Ports {
			if above[pt.Link.To] {
				up.Ports = append(up.Ports, pt)
			}
		}
	}
	for _, sw := range fab.Switches {
		if !above[sw.ID()] {
			continue
		}
		for _, pt := range sw.Ports {
			if edge[pt.Link.To] {
				down.Ports = append(down.Ports, pt)
			}
		}
	}
	return up, down
}

// TopTier is the cables of fab's top tier, both ways: every output port
// of a Core switch (a leaf-spine's spines, a fat-tree's cores) and every
// switch port towards one, in switch order. Empty on a fabric without
// Core switches.
func TopTier(fab *topologies.Fabric) *Tier {
	core := map[netsim.NodeID]bool{}
	for _, sw := range fab.Core {
		core[sw.ID()] = true
	}
	t := &Tier{}
	for _, sw := range fab.Switches {
		for _, pt := range sw.Ports {
			if core[sw.ID()] || core[pt.Link.To] {
				t.Ports = append(t.Ports, pt)
			}
		}
	}
	return t
}

// Bytes is the bytes the tier's links started to send between the last
// Mark and now (a packet counts when its serialisation starts).
func (t *Tier) Bytes() uint64 {
	var sum uint64
	for i := range t.Ports {
		sum += t.sent(i)
	}
	return sum
}

// sent is the bytes port i started to send since the last Mark (all it
// has sent if Mark has not run).
func (t *Tier) sent(i int) uint64 {
	pt := t.Ports[i]
	var from uint64
	if i < len(t.from) {
		from = t.from[i]
	}
	pt.Settle()
	return pt.TxBytes - from
}

// Mark starts the tier's window at now: later Util calls count the bytes
// sent from here on.
func (t *Tier) Mark(now netsim.Time) {
	t.at = now
	t.from = t.from[:0]
	for _, pt := range t.Ports {
		pt.Settle() // a port that plans departures books them lazily
		t.from = append(t.from, pt.TxBytes)
	}
}

// Util is the mean over the tier's links of the bytes they started to
// send between the last Mark and now, over what the link could send in
// that time (NaN for an empty tier or window). A packet counts when its
// serialisation starts, so one in progress at either edge of the window
// is counted whole or not at all.
func (t *Tier) Util(now netsim.Time) float64 {
	d := now - t.at
	if len(t.Ports) == 0 || d <= 0 {
		return math.NaN()
	}
	var sum float64
	for i, pt := range t.Ports {
		sum += float64(t.sent(i)) * 8 / (float64(pt.Link.Rate) * d.Seconds())
	}
	return sum / float64(len(t.Ports))
}

// utilSampler samples the uplink and downlink tiers' utilisation every
// period from t = 0, each row over the period before it; the rows go to
// the run's series writer as they are taken.
type utilSampler struct {
	sim      *netsim.Sim
	up, down Tier
	period   netsim.Time
	out      *experiments.SeriesWriter
}

// startUtilSeries samples the fabric's tiers every period until the run
// ends (the "fabric_util" series).
func (g *Rig) startUtilSeries(period netsim.Time) {
	up, down := FabricTiers(g.Fab)
	s := &utilSampler{sim: g.Sim, up: Tier{Ports: up.Ports}, down: Tier{Ports: down.Ports}, period: period,
		out: g.run.OpenSeries("fabric_util", "time_ms", "uplink_util", "downlink_util")}
	s.up.Mark(g.Sim.Now())
	s.down.Mark(g.Sim.Now())
	var tick func()
	tick = func() {
		now := s.sim.Now()
		s.out.Row(now.Seconds()*1e3, s.up.Util(now), s.down.Util(now))
		s.up.Mark(now)
		s.down.Mark(now)
		s.sim.AfterFunc(s.period, tick)
	}
	g.Sim.AfterFunc(period, tick)
	g.series = s
}

// Series is the sampled utilisation as a harness series.
func (s *utilSampler) Series() experiments.Series { return s.out.Series() }
