package topologies

import (
	"strings"
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

func TestBadInputIsAnError(t *testing.T) {
	g := netsim.Gbps
	badQ := switchmodel.QueueConfig{Buffer: -1}
	asym := uniformDelays(3, ms10)
	asym[0][2] = 2 * ms10
	zeroRate := uniformRates(3, g)
	zeroRate[2][1] = 0
	ragged := uniformRates(3, g)
	ragged[1] = ragged[1][:2]
	tooBig := DefaultLeafSpine()
	tooBig.Leaves, tooBig.HostsPerLeaf = 1<<12, 1<<12
	cases := []struct {
		name  string
		build func(*netsim.Network) (*Fabric, error)
	}{
		{"star nil net", func(*netsim.Network) (*Fabric, error) { return Star(nil, 2, g, 0, q0) }},
		{"star no hosts", func(n *netsim.Network) (*Fabric, error) { return Star(n, 0, g, 0, q0) }},
		{"star negative hosts", func(n *netsim.Network) (*Fabric, error) { return Star(n, -4, g, 0, q0) }},
		{"star huge", func(n *netsim.Network) (*Fabric, error) { return Star(n, MaxNodes+1, g, 0, q0) }},
		{"star zero rate", func(n *netsim.Network) (*Fabric, error) { return Star(n, 2, 0, 0, q0) }},
		{"star negative delay", func(n *netsim.Network) (*Fabric, error) { return Star(n, 2, g, -1, q0) }},
		{"star bad queue", func(n *netsim.Network) (*Fabric, error) { return Star(n, 2, g, 0, badQ) }},
		{"star rates one bad", func(n *netsim.Network) (*Fabric, error) {
			return StarRates(n, []netsim.Rate{g, -g}, 0, q0)
		}},
		{"dumbbell no paths", func(n *netsim.Network) (*Fabric, error) { return Dumbbell(n, 2, 2, 0, g, g, 0, q0) }},
		{"dumbbell no right hosts", func(n *netsim.Network) (*Fabric, error) { return Dumbbell(n, 2, 0, 2, g, g, 0, q0) }},
		{"dumbbell zero path rate", func(n *netsim.Network) (*Fabric, error) { return Dumbbell(n, 2, 2, 2, g, 0, 0, q0) }},
		{"leaf-spine no spines", func(n *netsim.Network) (*Fabric, error) {
			c := DefaultLeafSpine()
			c.Spines = 0
			return LeafSpine(n, c)
		}},
		{"leaf-spine too big", func(n *netsim.Network) (*Fabric, error) { return LeafSpine(n, tooBig) }},
		{"leaf-spine zero host rate", func(n *netsim.Network) (*Fabric, error) {
			c := DefaultLeafSpine()
			c.HostRate = 0
			return LeafSpine(n, c)
		}},
		{"leaf-spine bad RED", func(n *netsim.Network) (*Fabric, error) {
			c := DefaultLeafSpine()
			c.Queue.RED = &switchmodel.REDConfig{MinBytes: 5, MaxBytes: 1, Weight: 1}
			return LeafSpine(n, c)
		}},
		{"fat-tree odd k", func(n *netsim.Network) (*Fabric, error) { return FatTree(n, fatTreeK(5)) }},
		{"fat-tree k 0", func(n *netsim.Network) (*Fabric, error) { return FatTree(n, fatTreeK(0)) }},
		{"fat-tree k 1", func(n *netsim.Network) (*Fabric, error) { return FatTree(n, fatTreeK(1)) }},
		{"fat-tree negative k", func(n *netsim.Network) (*Fabric, error) { return FatTree(n, fatTreeK(-4)) }},
		{"fat-tree k too large", func(n *netsim.Network) (*Fabric, error) { return FatTree(n, fatTreeK(MaxFatTreeK+2)) }},
		{"fat-tree no hosts", func(n *netsim.Network) (*Fabric, error) {
			c := fatTreeK(4)
			c.HostsPerEdge = 0
			return FatTree(n, c)
		}},
		{"fat-tree too many hosts", func(n *netsim.Network) (*Fabric, error) {
			c := fatTreeK(64)
			c.HostsPerEdge = 1 << 10
			return FatTree(n, c)
		}},
		{"fat-tree zero fabric rate", func(n *netsim.Network) (*Fabric, error) {
			c := fatTreeK(4)
			c.FabricRate = 0
			return FatTree(n, c)
		}},
		{"racks none", func(n *netsim.Network) (*Fabric, error) { return Racks(n, 0, 4, g, g, 0, q0) }},
		{"racks empty", func(n *netsim.Network) (*Fabric, error) { return Racks(n, 2, 0, g, g, 0, q0) }},
		{"racks bad uplink", func(n *netsim.Network) (*Fabric, error) {
			return RacksWithUplinks(n, 2, g, []netsim.Rate{g, 0}, 0, q0)
		}},
		{"wan one site", func(n *netsim.Network) (*Fabric, error) {
			return WAN(n, uniformRates(1, g), uniformDelays(1, 0), q0)
		}},
		{"wan asymmetric delay", func(n *netsim.Network) (*Fabric, error) { return WAN(n, uniformRates(3, g), asym, q0) }},
		{"wan zero rate", func(n *netsim.Network) (*Fabric, error) { return WAN(n, zeroRate, uniformDelays(3, 0), q0) }},
		{"wan ragged", func(n *netsim.Network) (*Fabric, error) { return WAN(n, ragged, uniformDelays(3, 0), q0) }},
		{"wan delay rows", func(n *netsim.Network) (*Fabric, error) { return WAN(n, uniformRates(3, g), uniformDelays(2, 0), q0) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			net := newNet(1)
			f, err := tc.build(net)
			if err == nil || f != nil {
				t.Fatalf("accepted: %v", f)
			}
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") {
				t.Errorf("message is not one line: %q", msg)
			}
			if net.NumNodes() != 0 {
				t.Errorf("a refused build left %d nodes behind", net.NumNodes())
			}
		})
	}
}

// fatTreeK is DefaultFatTree at arity k with k/2 hosts per edge.
func fatTreeK(k int) FatTreeConfig {
	c := DefaultFatTree()
	c.K, c.HostsPerEdge = k, k/2
	return c
}
