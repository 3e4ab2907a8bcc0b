package topologies

import (
	"strconv"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// LeafSpineConfig sizes a two-tier leaf-spine (folded Clos) fabric: every
// leaf connects to every spine at FabricRate, and HostsPerLeaf hosts hang
// off each leaf at HostRate. All cables have propagation delay Delay.
type LeafSpineConfig struct {
	Spines, Leaves, HostsPerLeaf int
	HostRate, FabricRate         netsim.Rate
	Delay                        netsim.Time
	Queue                        switchmodel.QueueConfig
}

// DefaultLeafSpine is the PA-ATP NS3 setup (Sec. VI-A, "Network topology"):
// 8 spines x 8 leaves x 16 hosts = 128 hosts, 100 Gbps links, 2 us
// propagation delay, a 256 KB buffer per port.
//
// The paper does not give its ECN threshold. K follows DCTCP's guideline
// K > C x RTT / 7 (Alizadeh et al. 2010, Sec. 3): the longest path has 4
// cables each way, so RTT = 8 x 2 us = 16 us of propagation, C x RTT =
// 100 Gbps x 16 us = 200 KB, and K = floor(200 KB / 7 / 1500 B) + 1 = 20
// packets.
func DefaultLeafSpine() LeafSpineConfig {
	return LeafSpineConfig{
		Spines:       8,
		Leaves:       8,
		HostsPerLeaf: 16,
		HostRate:     100 * netsim.Gbps,
		FabricRate:   100 * netsim.Gbps,
		Delay:        2 * netsim.Microsecond,
		Queue: switchmodel.QueueConfig{
			Buffer:     256 * netsim.Kilobyte,
			ECNPackets: switchmodel.DCTCPK(100*netsim.Gbps, 16*netsim.Microsecond, 1500),
		},
	}
}

// LeafSpine builds the fabric: leaves "leaf0".., spines "spine0".., hosts
// "h0".. numbered leaf-major (host i is on leaf i / HostsPerLeaf). Group g
// is leaf g (Edge[g]); Core[s] is spine s, so FlowForPath pins a flow
// between two leaves to a spine.
func LeafSpine(net *netsim.Network, c LeafSpineConfig) (*Fabric, error) {
	const kind = "leaf-spine"
	b, err := newBuilder(net, kind, c.Queue)
	if err != nil {
		return nil, err
	}
	if err := checkCount(kind, "spines", c.Spines, 1); err != nil {
		return nil, err
	}
	if err := checkCount(kind, "leaves", c.Leaves, 1); err != nil {
		return nil, err
	}
	if err := checkCount(kind, "hosts per leaf", c.HostsPerLeaf, 1); err != nil {
		return nil, err
	}
	if c.Spines >= 1<<16 {
		return nil, errorf(kind, "%d spines exceed the ECMP set limit of %d", c.Spines, 1<<16-1)
	}
	if int64(c.Leaves)*int64(c.HostsPerLeaf+1)+int64(c.Spines) > MaxNodes {
		return nil, errorf(kind, "%d leaves x %d hosts exceed the limit of %d nodes", c.Leaves, c.HostsPerLeaf, MaxNodes)
	}
	if int64(c.Leaves)*int64(c.Spines) > MaxNodes {
		return nil, errorf(kind, "%d leaves x %d spines exceed the limit of %d cables", c.Leaves, c.Spines, MaxNodes)
	}
	if err := checkRate(kind, "host rate", c.HostRate); err != nil {
		return nil, err
	}
	if err := checkRate(kind, "fabric rate", c.FabricRate); err != nil {
		return nil, err
	}
	if err := checkDelay(kind, "delay", c.Delay); err != nil {
		return nil, err
	}
	if err := b.checkTotal(c.Leaves*(c.HostsPerLeaf+1) + c.Spines); err != nil {
		return nil, err
	}
	leaves := make([]*switchmodel.Switch, c.Leaves)
	for l := range leaves {
		leaves[l] = b.edge("leaf" + strconv.Itoa(l))
	}
	for s := 0; s < c.Spines; s++ {
		sp := b.core("spine" + strconv.Itoa(s))
		for _, lf := range leaves {
			b.connect(lf.ID(), sp.ID(), c.FabricRate, c.Delay)
		}
	}
	for l, lf := range leaves {
		for i := 0; i < c.HostsPerLeaf; i++ {
			h := b.host("h" + strconv.Itoa(l*c.HostsPerLeaf+i))
			b.connect(h.ID(), lf.ID(), c.HostRate, c.Delay)
		}
		b.endGroup()
	}
	return b.finish(), nil
}
