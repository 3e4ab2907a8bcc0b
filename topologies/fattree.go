package topologies

import (
	"strconv"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// MaxFatTreeK bounds a fat-tree's arity: k = 64 has 5,120 switches, whose
// routing tables (one entry per switch pair, see netsim.Routes) take about
// 200 MB; k = 66 would pass 65,536 hosts.
const MaxFatTreeK = 64

// FatTreeConfig sizes a k-ary three-tier fat-tree (Al-Fares, Loukissas and
// Vahdat, "A Scalable, Commodity Data Center Network Architecture",
// SIGCOMM 2008, Sec. 3.2): k pods of k/2 edge and k/2 aggregation
// switches, (k/2)^2 core switches, every switch with k ports. Each edge
// switch serves HostsPerEdge hosts at HostRate (k/2 in the paper; more
// oversubscribes the edge by HostsPerEdge / (k/2)); every switch-to-switch
// cable runs at FabricRate. All cables have propagation delay Delay.
type FatTreeConfig struct {
	K, HostsPerEdge      int
	HostRate, FabricRate netsim.Rate
	Delay                netsim.Time
	Queue                switchmodel.QueueConfig
}

// DefaultFatTree is a k = 8 fat-tree (128 hosts, the PA-ATP leaf-spine's
// host count) with the leaf-spine's links and queues (DefaultLeafSpine),
// whose ECN threshold K covers the fat-tree's longer round trip: 6 cables
// each way, RTT = 12 x 2 us = 24 us, C x RTT = 300 KB.
func DefaultFatTree() FatTreeConfig {
	ls := DefaultLeafSpine()
	return FatTreeConfig{
		K:            8,
		HostsPerEdge: 4,
		HostRate:     ls.HostRate,
		FabricRate:   ls.FabricRate,
		Delay:        ls.Delay,
		Queue: switchmodel.QueueConfig{
			Buffer:     ls.Queue.Buffer,
			ECNPackets: switchmodel.DCTCPK(100*netsim.Gbps, 24*netsim.Microsecond, 1500),
		},
	}
}

// Oversubscription is the edge's ratio of host capacity to uplink
// capacity, HostsPerEdge x HostRate / (k/2 x FabricRate): 1 is the
// paper's full bisection bandwidth.
func (c FatTreeConfig) Oversubscription() float64 {
	return float64(c.HostsPerEdge) * float64(c.HostRate) / (float64(c.K/2) * float64(c.FabricRate))
}

// FatTree builds the fabric. Nodes are added hosts first, then switches,
// in the order of the topology files FatTreeFile writes, so reading such
// a file builds the same network node for node and cable for cable:
//
//   - hosts "h0".. (k^2/2 x HostsPerEdge), numbered edge-major: host i is
//     on edge switch i / HostsPerEdge;
//   - edge switches "edge0".. (k^2/2), pod-major: edge e is in pod
//     e / (k/2);
//   - aggregation switches "agg0".. (k^2/2), pod-major likewise;
//   - core switches "core0".. ((k/2)^2); core c joins aggregation switch
//     c / (k/2) of every pod (the paper's Fig. 3 wiring).
//
// Cables are wired host-edge, then edge-aggregation (pod by pod, every
// edge to every aggregation switch of its pod), then aggregation-core.
// Group g is edge switch g (Edge[g]); Agg lists the aggregation switches
// and Core the core switches, so FlowForPath pins a flow between two pods
// to a core switch (a flow within a pod crosses no core: pin it with
// Net.Path). Routing is shortest-path ECMP by flow hash at every tier:
// k/2 choices at an edge switch going up, k/2 at an aggregation switch,
// so (k/2)^2 paths join two pods, k/2 two edges of one pod.
func FatTree(net *netsim.Network, c FatTreeConfig) (*Fabric, error) {
	const kind = "fat-tree"
	if err := CheckFatTreeK(c.K); err != nil {
		return nil, err
	}
	b, err := newBuilder(net, kind, c.Queue)
	if err != nil {
		return nil, err
	}
	if err := checkCount(kind, "hosts per edge", c.HostsPerEdge, 1); err != nil {
		return nil, err
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
	h := c.K / 2
	edges := c.K * h
	if int64(edges)*int64(c.HostsPerEdge) > int64(MaxNodes) {
		return nil, errorf(kind, "%d edge switches x %d hosts exceed the limit of %d nodes", edges, c.HostsPerEdge, MaxNodes)
	}
	hosts := edges * c.HostsPerEdge
	if err := b.checkTotal(hosts + 2*edges + h*h); err != nil {
		return nil, err
	}
	hs := make([]*netsim.Host, hosts)
	for i := range hs {
		hs[i] = b.host("h" + strconv.Itoa(i))
	}
	es := make([]*switchmodel.Switch, edges)
	for e := range es {
		es[e] = b.edge("edge" + strconv.Itoa(e))
	}
	as := make([]*switchmodel.Switch, edges)
	for a := range as {
		as[a] = b.agg("agg" + strconv.Itoa(a))
	}
	cs := make([]*switchmodel.Switch, h*h)
	for i := range cs {
		cs[i] = b.core("core" + strconv.Itoa(i))
	}
	for i, x := range hs {
		b.connect(x.ID(), es[i/c.HostsPerEdge].ID(), c.HostRate, c.Delay)
	}
	for e := 1; e <= edges; e++ {
		b.f.groupStart = append(b.f.groupStart, e*c.HostsPerEdge)
	}
	for p := 0; p < c.K; p++ {
		for e := p * h; e < (p+1)*h; e++ {
			for a := p * h; a < (p+1)*h; a++ {
				b.connect(es[e].ID(), as[a].ID(), c.FabricRate, c.Delay)
			}
		}
	}
	for a := range as {
		for j := 0; j < h; j++ {
			b.connect(as[a].ID(), cs[(a%h)*h+j].ID(), c.FabricRate, c.Delay)
		}
	}
	f := b.finish()
	f.edgesPerPod = h
	return f, nil
}

// CheckFatTreeK refuses an arity no fat-tree has: odd, below 2 or above
// MaxFatTreeK.
func CheckFatTreeK(k int) error {
	switch {
	case k < 2:
		return errorf("fat-tree", "k = %d, need an even k of at least 2", k)
	case k%2 != 0:
		return errorf("fat-tree", "k = %d is odd; a k-ary fat-tree needs an even k (k/2 ports down, k/2 up)", k)
	case k > MaxFatTreeK:
		return errorf("fat-tree", "k = %d exceeds the limit of %d (%d switches)", k, MaxFatTreeK, 5*k*k/4)
	}
	return nil
}
