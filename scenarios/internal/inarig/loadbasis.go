package inarig

import (
	"fmt"
	"math"

	"syncsim/netsim"
	"syncsim/topologies"
)

// Choices of load_basis: what the background load is a fraction of.
const (
	// BasisHost: offered bytes/s over the senders' NIC capacity
	// (background.LoadDefinition).
	BasisHost = "host"
	// BasisFabric: the arrival rate is scaled so that the busiest tier of
	// links (sender NICs, receiver NICs, uplinks, downlinks) is offered
	// load of its capacity.
	BasisFabric = "fabric"
)

// GroupTraffic is one host group (a leaf, a dumbbell side) as the load
// arithmetic sees it: its background senders and receivers, how many of
// its hosts are both, and its capacity towards the core (the sum of its
// edge -> core link rates, which is also that of core -> edge into it).
type GroupTraffic struct {
	Senders, Dsts, Both int
	Uplink              netsim.Rate
}

// TierLoads are the expected utilisations of the tiers of a fabric
// offered background at host-basis load 1: every flow's source is a
// uniform sender and its destination a uniform receiver other than the
// source (background.Generator), so a sender that is also a receiver
// sends to D-1 receivers and any other sender to all D. Each value is the
// busiest link of its tier (ECMP spreads a group's traffic evenly over
// its uplinks).
type TierLoads struct {
	SenderNIC, ReceiverNIC, Uplink, Downlink float64
}

// Busiest returns the largest tier utilisation and the tier's name.
func (t TierLoads) Busiest() (string, float64) {
	name, u := "sender NIC", t.SenderNIC
	for _, c := range []struct {
		n string
		v float64
	}{{"receiver NIC", t.ReceiverNIC}, {"uplink (edge -> core)", t.Uplink}, {"downlink (core -> edge)", t.Downlink}} {
		if c.v > u {
			name, u = c.n, c.v
		}
	}
	return name, u
}

// Tiers works out the tier utilisations at host-basis load 1 from the
// groups, with every host NIC at hostRate. Group g's uplinks carry the
// flows of its senders to receivers in other groups:
//
//	up_g = (Both_g (D - Dsts_g)/(D - 1) + (Senders_g - Both_g)(D - Dsts_g)/D) x hostRate / Uplink_g
//
// and its downlinks the flows of other groups' senders to its receivers:
//
//	down_g = Dsts_g ((B - Both_g)/(D - 1) + (S - Senders_g - B + Both_g)/D) x hostRate / Uplink_g
//
// where S, D and B are the totals of Senders, Dsts and Both. A receiver
// that also sends receives (B - 1)/(D - 1) + (S - B)/D host rates, any
// other receiver B/(D - 1) + (S - B)/D. A term over D - 1 = 0 is 0.
//
// For all-to-all among H hosts, h per leaf (Senders = Dsts = Both = h):
// up = h (H - h)/(H - 1) x hostRate / Uplink, and both NIC tiers are 1.
func Tiers(groups []GroupTraffic, hostRate netsim.Rate) TierLoads {
	var S, D, B int
	for _, g := range groups {
		S, D, B = S+g.Senders, D+g.Dsts, B+g.Both
	}
	over := func(n, d int) float64 {
		if d <= 0 {
			return 0
		}
		return float64(n) / float64(d)
	}
	var t TierLoads
	if S > 0 {
		t.SenderNIC = 1
	}
	if B > 0 {
		t.ReceiverNIC = over(B-1, D-1) + over(S-B, D)
	}
	if D > B {
		t.ReceiverNIC = math.Max(t.ReceiverNIC, over(B, D-1)+over(S-B, D))
	}
	for _, g := range groups {
		if g.Uplink <= 0 {
			continue
		}
		r := float64(hostRate) / float64(g.Uplink)
		up := over(g.Both*(D-g.Dsts), D-1) + over((g.Senders-g.Both)*(D-g.Dsts), D)
		down := float64(g.Dsts) * (over(B-g.Both, D-1) + over(S-g.Senders-B+g.Both, D))
		t.Uplink = math.Max(t.Uplink, up*r)
		t.Downlink = math.Max(t.Downlink, down*r)
	}
	return t
}

// FabricGroups describes the background of senders to dsts (nil: all-to-all
// among senders) on fab group by group, with each group's capacity
// towards the core read from its edge switch's ports.
func FabricGroups(fab *topologies.Fabric, senders, dsts []netsim.NodeID) []GroupTraffic {
	gs := make([]GroupTraffic, fab.Groups())
	up, _ := FabricTiers(fab)
	for _, pt := range up.Ports {
		for g, sw := range fab.Edge {
			if sw.ID() == pt.Node {
				gs[g].Uplink += pt.Link.Rate
			}
		}
	}
	if dsts == nil {
		dsts = senders
	}
	isDst := map[netsim.NodeID]bool{}
	for _, d := range dsts {
		isDst[d] = true
		if g := fab.GroupOf(d); g >= 0 {
			gs[g].Dsts++
		}
	}
	for _, s := range senders {
		if g := fab.GroupOf(s); g >= 0 {
			gs[g].Senders++
			if isDst[s] {
				gs[g].Both++
			}
		}
	}
	return gs
}

// HostLoad is the host-basis load (background.Config.Load) that offers
// load on basis given the fabric's tiers: load itself on the host basis,
// where it is an error for a tier to be offered more than its capacity,
// and load over the busiest tier's utilisation on the fabric basis.
func HostLoad(load float64, basis string, t TierLoads) (float64, error) {
	name, u := t.Busiest()
	switch basis {
	case BasisHost:
		if load*u > 1+1e-9 {
			return 0, fmt.Errorf("load=%g with load_basis=host offers %.3g of the %s capacity: lower load to at most %.3g or use load_basis=fabric",
				load, load*u, name, 1/u)
		}
		return load, nil
	case BasisFabric:
		if u <= 0 {
			return load, nil
		}
		return load / u, nil
	}
	return 0, fmt.Errorf("load_basis=%q: want %s or %s", basis, BasisHost, BasisFabric)
}
