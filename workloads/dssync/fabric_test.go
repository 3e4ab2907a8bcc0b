package dssync

import (
	"slices"
	"strings"
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// fatTreeFabric builds a k = 4 fat-tree of hostsPerEdge hosts per edge
// switch, host cables at 20 Gbps, the others at fabric.
func fatTreeFabric(hostsPerEdge int, fabric netsim.Rate) func(*netsim.Network, switchmodel.QueueConfig) (*topologies.Fabric, error) {
	return func(net *netsim.Network, q switchmodel.QueueConfig) (*topologies.Fabric, error) {
		return topologies.FatTree(net, topologies.FatTreeConfig{K: 4, HostsPerEdge: hostsPerEdge, HostRate: 20 * netsim.Gbps,
			FabricRate: fabric, Delay: netsim.Microsecond, Queue: q})
	}
}

// TestFatTreePlacement: the paper's 5+3 layout under both contentions on
// a k = 4 fat-tree of 8 hosts per edge switch (h0-h7 under edge0, h8-h15
// under edge1, both in pod 0). Rack 0's workers 0-4 take h0-h4, rack 1's
// workers 5-7 h8-h10; the background task shares worker 4's host h4 and
// takes rack 1's spare h11; ASP's server is rack 0's second spare, h6.
// (The racks fabric has 7 hosts a rack, so reading placement index i as
// the fabric's i-th host would put worker 5 on h7, under edge0.)
// Each rack's uplink capacity is its edge switch's two cables to the
// pod's aggregation switches, 2 x 10 Gbps.
func TestFatTreePlacement(t *testing.T) {
	c := smallConfig("asp", Both, "flow")
	c.Fabric, c.PathCables = fatTreeFabric(8, 10*netsim.Gbps), 6
	r := &run{cfg: c, sim: netsim.New(1)}
	if err := r.setup(); err != nil {
		t.Fatal(err)
	}
	name := func(id netsim.NodeID) string { return r.net.Node(id).Base().Name() }
	var got []string
	for _, h := range r.hosts {
		got = append(got, name(h))
	}
	if want := []string{"h0", "h1", "h2", "h3", "h4", "h8", "h9", "h10"}; !slices.Equal(got, want) {
		t.Errorf("workers on %v, want %v", got, want)
	}
	if bg := []string{name(r.hostAt(r.place.Background[0])), name(r.hostAt(r.place.Background[1]))}; !slices.Equal(bg, []string{"h4", "h11"}) {
		t.Errorf("background on %v, want [h4 h11]", bg)
	}
	if ps := name(r.hostAt(r.place.PS)); ps != "h6" {
		t.Errorf("ASP's server on %s, want h6", ps)
	}
	if !slices.Equal(r.uplinks, []netsim.Rate{20 * netsim.Gbps, 20 * netsim.Gbps}) {
		t.Errorf("uplinks %v, want two of 20 Gbps", r.uplinks)
	}
	if r.fab.GroupOf(r.hosts[4]) != 0 || r.fab.GroupOf(r.hosts[5]) != 1 || r.fab.Pod(1) != 0 {
		t.Errorf("worker 4 in group %d, worker 5 in %d (pod %d)", r.fab.GroupOf(r.hosts[4]), r.fab.GroupOf(r.hosts[5]), r.fab.Pod(1))
	}
}

// TestFatTreeRunMatchesRacks: on a non-blocking fat-tree of 8 hosts per
// edge switch every scheme moves the same bytes between racks per
// iteration as on the racks fabric of 7 hosts a rack (the bytes depend on
// the layout, not on the wiring), and its books balance at both
// fidelities.
func TestFatTreeRunMatchesRacks(t *testing.T) {
	for _, fid := range []string{"flow", "packet"} {
		for _, s := range Schemes {
			c := smallConfig(s, Both, fid)
			if fid == "packet" {
				c.Iterations, c.Warmup = 3, 1
			}
			racks, err := Run(netsim.New(1), c)
			if err != nil {
				t.Fatal(err)
			}
			c.Fabric, c.PathCables = fatTreeFabric(8, 20*netsim.Gbps), 6
			ft, err := Run(netsim.New(1), c)
			if err != nil {
				t.Fatalf("%s/%s: %v", fid, s, err)
			}
			if ft.InterRackGB != racks.InterRackGB || !(ft.CommMs > 0) {
				t.Errorf("%s/%s: inter-rack %v GB on the fat-tree, %v on racks; comm %v ms", fid, s, ft.InterRackGB, racks.InterRackGB, ft.CommMs)
			}
		}
	}
}

// TestFitsRefuses: a placement needing more racks or hosts than the
// fabric's edge switches have is refused, naming the rack.
func TestFitsRefuses(t *testing.T) {
	p, err := Place(Both, LayoutOf(5, 3), -1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sizes []int
		ps    bool
		want  string
	}{
		{[]int{5, 4}, false, ""},
		{[]int{5, 4}, true, "rack 0 needs 7 hosts under its edge switch (its workers, the parameter server), and edge switch 0 has 5"},
		{[]int{4, 4}, false, "rack 0 needs 5 hosts"},
		{[]int{5, 3}, false, "rack 1 needs 4 hosts under its edge switch (its workers, a background host), and edge switch 1 has 3"},
		{[]int{9}, false, "the layout has 2 racks and the fabric 1 edge switches"},
	} {
		err := p.Fits(tc.sizes, tc.ps)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%v ps=%v: %v, want %q", tc.sizes, tc.ps, err, tc.want)
		}
	}
}
