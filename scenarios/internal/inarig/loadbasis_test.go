package inarig

import (
	"math"
	"strings"
	"testing"

	"syncsim/netsim"
	"syncsim/topologies"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// allToAll is h senders (also receivers) on each of leaves groups with
// uplink capacity up each.
func allToAll(leaves, h int, up netsim.Rate) []GroupTraffic {
	gs := make([]GroupTraffic, leaves)
	for i := range gs {
		gs[i] = GroupTraffic{Senders: h, Dsts: h, Both: h, Uplink: up}
	}
	return gs
}

// TestTiersByHand checks the tier arithmetic against hand-worked fabrics.
func TestTiersByHand(t *testing.T) {
	cases := []struct {
		name   string
		groups []GroupTraffic
		host   netsim.Rate
		want   TierLoads
	}{
		// PA-ATP's NS3 fabric, 2:1: 16 x 100 Gbps of hosts per leaf over
		// 8 x 100 Gbps of uplinks; 112 of a sender's 127 destinations are
		// on other leaves, so up = 16 x 112/127 x 100/800 = 1.7638.
		{"paper 8x8x16", allToAll(8, 16, 800*netsim.Gbps), 100 * netsim.Gbps, TierLoads{1, 1, 16.0 * 112 / 127 / 8, 16.0 * 112 / 127 / 8}},
		// 2 leaves of 4 hosts over one spine: 4 x 4/7 x 1 = 16/7.
		{"2x4 one spine", allToAll(2, 4, 10*netsim.Gbps), 10 * netsim.Gbps, TierLoads{1, 1, 16.0 / 7, 16.0 / 7}},
		// Non-blocking 4x4 leaves of 4 hosts over 4 spines: 4 x 12/15 / 4 = 0.8.
		{"4x4 non-blocking", allToAll(4, 4, 400*netsim.Gbps), 100 * netsim.Gbps, TierLoads{1, 1, 0.8, 0.8}},
		// The testbed: 3 senders on S1 to 3 receivers on S2, 4 x 40 Gbps
		// of paths: every flow crosses, up = down = 3 x 40/160 = 0.75, and
		// each receiver gets 3 senders x 1/3 of their flows = 1.
		{"testbed", []GroupTraffic{{Senders: 3, Uplink: 160 * netsim.Gbps}, {Dsts: 3, Uplink: 160 * netsim.Gbps}}, 40 * netsim.Gbps, TierLoads{1, 1, 0.75, 0.75}},
		// Uneven: leaf 0 holds 1 of 3 all-to-all hosts, leaf 1 holds 2;
		// leaf 0's host sends all of its flows out (2/2), leaf 1's hosts
		// half (1/2 each): up_0 = 1, up_1 = 1; into leaf 0: 2 senders x
		// 1/2 = 1, into leaf 1: 1 sender x 2/2 = 1. Uplinks of one host rate.
		{"uneven 1+2", []GroupTraffic{{1, 1, 1, 10 * netsim.Gbps}, {2, 2, 2, 10 * netsim.Gbps}}, 10 * netsim.Gbps, TierLoads{1, 1, 1, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Tiers(c.groups, c.host)
			if !near(got.SenderNIC, c.want.SenderNIC) || !near(got.ReceiverNIC, c.want.ReceiverNIC) ||
				!near(got.Uplink, c.want.Uplink) || !near(got.Downlink, c.want.Downlink) {
				t.Errorf("Tiers = %+v, want %+v", got, c.want)
			}
		})
	}
}

// TestHostLoadOnTwoToOne checks both bases on the paper's 2:1 fabric:
// fabric-basis 0.8 is host-basis 0.8/1.7638 = 0.45357 (uplinks offered
// 0.8), host-basis 0.5 offers the uplinks 0.882 and is kept, and
// host-basis 0.6 and 0.8 (1.058 and 1.411 of the uplinks) are refused.
func TestHostLoadOnTwoToOne(t *testing.T) {
	tiers := Tiers(allToAll(8, 16, 800*netsim.Gbps), 100*netsim.Gbps)
	up := 16.0 * 112 / 127 / 8
	for _, c := range []struct {
		load  float64
		basis string
		want  float64 // host-basis load; NaN: refused
	}{
		{0.8, BasisFabric, 0.8 / up},
		{0.5, BasisFabric, 0.5 / up},
		{0.5, BasisHost, 0.5},
		{1 / up, BasisHost, 1 / up},
		{0.6, BasisHost, math.NaN()},
		{0.8, BasisHost, math.NaN()},
	} {
		got, err := HostLoad(c.load, c.basis, tiers)
		if math.IsNaN(c.want) {
			if err == nil || !strings.Contains(err.Error(), "load_basis=fabric") || !strings.Contains(err.Error(), "uplink") || strings.Contains(err.Error(), "\n") {
				t.Errorf("load=%g %s: err = %v, want a one-line refusal naming the uplinks and load_basis=fabric", c.load, c.basis, err)
			}
			continue
		}
		if err != nil || !near(got, c.want) {
			t.Errorf("load=%g %s: host load %v, %v; want %v", c.load, c.basis, got, err, c.want)
		}
		// Whatever the basis, no tier is offered more than its capacity.
		if _, u := tiers.Busiest(); got*u > 1+1e-9 {
			t.Errorf("load=%g %s: busiest tier offered %g", c.load, c.basis, got*u)
		}
	}
	if got, _ := HostLoad(0.8, BasisFabric, tiers); !near(got, 0.45357142857142857) {
		t.Errorf("fabric 0.8 = host %v, want 0.8 x 127 x 8 / (16 x 112) = 0.453571", got)
	}
}

// TestFabricGroupsReadTheFabric checks that the groups built from a real
// leaf-spine give the hand-worked tiers: 2 spines x 3 leaves x 4 hosts at
// 10 Gbps, all-to-all, up = 4 x 8/11 x 10/20 = 16/11.
func TestFabricGroupsReadTheFabric(t *testing.T) {
	net := netsim.NewNetwork(netsim.New(1))
	c := topologies.DefaultLeafSpine()
	c.Spines, c.Leaves, c.HostsPerLeaf = 2, 3, 4
	c.HostRate, c.FabricRate = 10*netsim.Gbps, 10*netsim.Gbps
	fab, err := topologies.LeafSpine(net, c)
	if err != nil {
		t.Fatal(err)
	}
	gs := FabricGroups(fab, fab.HostIDs(), nil)
	for i, g := range gs {
		if g != (GroupTraffic{4, 4, 4, 20 * netsim.Gbps}) {
			t.Fatalf("group %d = %+v", i, g)
		}
	}
	if got := Tiers(gs, c.HostRate); !near(got.Uplink, 16.0/11) || !near(got.Downlink, 16.0/11) {
		t.Errorf("tiers %+v, want up = down = 16/11", got)
	}
	up, down := FabricTiers(fab)
	if len(up.Ports) != 6 || len(down.Ports) != 6 {
		t.Errorf("%d uplinks and %d downlinks, want 3 leaves x 2 spines = 6 each", len(up.Ports), len(down.Ports))
	}
}
