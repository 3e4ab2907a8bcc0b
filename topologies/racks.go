package topologies

import (
	"strconv"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// Racks builds racks behind one core switch (DS-Sync, Sec. V-A 4: two racks
// in a spine-leaf network with 20 Gbps links and oversubscription 1; Sec.
// II-A: oversubscribed inter-rack links as static heterogeneity): rack r
// has a top-of-rack switch "tor<r>" with hostsPerRack hosts "h0".. at
// hostRate, and one uplink of uplinkRate to the core "core". The rack's
// oversubscription is hostsPerRack x hostRate / uplinkRate. Group r is rack
// r (Edge[r] = its ToR); Core[0] is the core switch.
func Racks(net *netsim.Network, racks, hostsPerRack int, hostRate, uplinkRate netsim.Rate, delay netsim.Time, q switchmodel.QueueConfig) (*Fabric, error) {
	if err := checkCount("racks", "racks", racks, 1); err != nil {
		return nil, err
	}
	up := make([]netsim.Rate, racks)
	for i := range up {
		up[i] = uplinkRate
	}
	return RacksWithUplinks(net, hostsPerRack, hostRate, up, delay, q)
}

// RacksWithUplinks is Racks with each rack's own uplink rate (len(uplinks)
// racks), for static heterogeneity: one rack more oversubscribed than the
// others (DS-Sync Sec. II-A, "static topology heterogeneity").
func RacksWithUplinks(net *netsim.Network, hostsPerRack int, hostRate netsim.Rate, uplinks []netsim.Rate, delay netsim.Time, q switchmodel.QueueConfig) (*Fabric, error) {
	const kind = "racks"
	b, err := newBuilder(net, kind, q)
	if err != nil {
		return nil, err
	}
	racks := len(uplinks)
	if err := checkCount(kind, "racks", racks, 1); err != nil {
		return nil, err
	}
	if err := checkCount(kind, "hosts per rack", hostsPerRack, 1); err != nil {
		return nil, err
	}
	if int64(racks)*int64(hostsPerRack+1)+1 > MaxNodes {
		return nil, errorf(kind, "%d racks x %d hosts exceed the limit of %d nodes", racks, hostsPerRack, MaxNodes)
	}
	if err := checkRate(kind, "host rate", hostRate); err != nil {
		return nil, err
	}
	for r, u := range uplinks {
		if err := checkRate(kind, "uplink rate of rack "+strconv.Itoa(r), u); err != nil {
			return nil, err
		}
	}
	if err := checkDelay(kind, "delay", delay); err != nil {
		return nil, err
	}
	if err := b.checkTotal(racks*(hostsPerRack+1) + 1); err != nil {
		return nil, err
	}
	tors := make([]*switchmodel.Switch, racks)
	for r := range tors {
		tors[r] = b.edge("tor" + strconv.Itoa(r))
	}
	core := b.core("core")
	for r, t := range tors {
		b.connect(t.ID(), core.ID(), uplinks[r], delay)
	}
	for r, t := range tors {
		for i := 0; i < hostsPerRack; i++ {
			h := b.host("h" + strconv.Itoa(r*hostsPerRack+i))
			b.connect(h.ID(), t.ID(), hostRate, delay)
		}
		b.endGroup()
	}
	return b.finish(), nil
}
