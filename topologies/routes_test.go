package topologies

import (
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// TestHopAgreesWithNextHops checks, on every builder's fabric, that the
// per-packet look-up Routes.Hop picks exactly the port NextHops and
// ECMPIndex pick, for every (node, destination) pair and several flows,
// and that a multi-homed host (the WAN's sites are switches, the racks'
// hosts single-homed) routes the same way.
func TestHopAgreesWithNextHops(t *testing.T) {
	q := switchmodel.QueueConfig{Buffer: 100 * netsim.Kilobyte}
	g, d := 10*netsim.Gbps, netsim.Microsecond
	builds := map[string]func(net *netsim.Network) (*Fabric, error){
		"star":     func(net *netsim.Network) (*Fabric, error) { return Star(net, 5, g, d, q) },
		"dumbbell": func(net *netsim.Network) (*Fabric, error) { return Dumbbell(net, 3, 2, 3, g, g, d, q) },
		"leafspine": func(net *netsim.Network) (*Fabric, error) {
			c := DefaultLeafSpine()
			c.Spines, c.Leaves, c.HostsPerLeaf = 3, 4, 3
			return LeafSpine(net, c)
		},
		"fat-tree": func(net *netsim.Network) (*Fabric, error) {
			c := DefaultFatTree()
			c.K, c.HostsPerEdge = 4, 3
			return FatTree(net, c)
		},
		"racks": func(net *netsim.Network) (*Fabric, error) { return Racks(net, 3, 2, g, g, d, q) },
		"wan": func(net *netsim.Network) (*Fabric, error) {
			r := [][]netsim.Rate{{0, g, g}, {g, 0, g}, {g, g, 0}}
			dl := [][]netsim.Time{{0, d, d}, {d, 0, d}, {d, d, 0}}
			return WAN(net, r, dl, q)
		},
	}
	for name, build := range builds {
		t.Run(name, func(t *testing.T) {
			net := netsim.NewNetwork(netsim.New(7))
			if _, err := build(net); err != nil {
				t.Fatal(err)
			}
			r := net.Routes()
			checked := 0
			for u := netsim.NodeID(0); int(u) < net.NumNodes(); u++ {
				ports := net.Node(u).Base().Ports
				for dst := netsim.NodeID(0); int(dst) < net.NumNodes(); dst++ {
					for flow := uint64(0); flow < 16; flow++ {
						hops := r.NextHops(u, dst)
						var want int32 = -1
						switch {
						case len(ports) <= 1:
							want = -2
						case len(hops) > 0:
							want = hops[r.ECMPIndex(u, flow, len(hops))]
						}
						if got := r.Hop(u, dst, flow); got != want {
							t.Fatalf("Hop(%d, %d, %d) = %d, NextHops gives %d (set %v)", u, dst, flow, got, want, hops)
						}
						checked++
					}
				}
			}
			if checked == 0 {
				t.Fatal("nothing checked")
			}
		})
	}
}
