package topologies

import (
	"strconv"
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

const (
	us = netsim.Microsecond
	ns = netsim.Nanosecond
)

// sink records arrival times and frees packets.
type sink struct {
	net   *netsim.Network
	times []netsim.Time
}

func (k *sink) Receive(p *netsim.Packet) {
	k.times = append(k.times, k.net.Sim.Now())
	k.net.Sim.Packets().Put(p)
}

// sinks registers a sink as endpoint 0 on every host of f.
func sinks(f *Fabric) map[netsim.NodeID]*sink {
	m := map[netsim.NodeID]*sink{}
	for _, h := range f.Hosts {
		k := &sink{net: f.Net}
		h.Register(k)
		m[h.ID()] = k
	}
	return m
}

func sendOne(f *Fabric, src *netsim.Host, dst netsim.NodeID, size netsim.Bytes, flow uint64) {
	p := f.Net.Sim.Packets().Get()
	p.Dst, p.DstEP, p.Size, p.Payload, p.Flow = dst, 0, size, size, flow
	src.Send(p)
}

func mustConserve(t *testing.T, net *netsim.Network) {
	t.Helper()
	if err := net.CheckConservation(); err != nil {
		t.Fatal(err)
	}
	if live, fl, bl := net.Sim.Packets().Live(), net.InFlight(), net.HostBacklog(); live != int64(fl+bl) {
		t.Fatalf("packet pool: %d live packets but %d in flight and %d in host backlogs (leak)", live, fl, bl)
	}
}

func newNet(seed uint64) *netsim.Network { return netsim.NewNetwork(netsim.New(seed)) }

var q0 = switchmodel.QueueConfig{Buffer: 100 * netsim.Kilobyte}

func smallLeafSpine() LeafSpineConfig {
	c := DefaultLeafSpine()
	c.Spines, c.Leaves, c.HostsPerLeaf = 3, 4, 2
	return c
}

// builds lists one small instance of every builder.
var builds = []struct {
	name                          string
	build                         func(*netsim.Network) (*Fabric, error)
	nodes, links, hosts, switches int
	groups                        int
}{
	{"star", func(n *netsim.Network) (*Fabric, error) { return Star(n, 5, 10*netsim.Gbps, us, q0) },
		6, 10, 5, 1, 1},
	// 11 host cables + 4 paths x 2 cables = 19 cables
	{"dumbbell", func(n *netsim.Network) (*Fabric, error) {
		return Dumbbell(n, 8, 3, 4, 40*netsim.Gbps, 40*netsim.Gbps, us, q0)
	}, 17, 38, 11, 6, 2},
	// 128 host cables + 64 leaf-spine cables
	{"leaf-spine", func(n *netsim.Network) (*Fabric, error) { return LeafSpine(n, DefaultLeafSpine()) },
		144, 384, 128, 16, 8},
	{"racks", func(n *netsim.Network) (*Fabric, error) {
		return Racks(n, 3, 4, 20*netsim.Gbps, 20*netsim.Gbps, us, q0)
	}, 16, 30, 12, 4, 3},
	// k = 4: 16 hosts, 8 edge, 8 aggregation, 4 core switches; 16 host
	// cables + 4 pods x 2 x 2 edge-aggregation + 8 x 2 aggregation-core
	{"fat-tree", func(n *netsim.Network) (*Fabric, error) {
		c := DefaultFatTree()
		c.K, c.HostsPerEdge = 4, 2
		return FatTree(n, c)
	}, 36, 96, 16, 20, 8},
	// 6 site pairs + 4 access cables
	{"wan", func(n *netsim.Network) (*Fabric, error) {
		return WAN(n, uniformRates(4, netsim.Gbps), uniformDelays(4, ms10), q0)
	},
		8, 20, 4, 4, 4},
}

const ms10 = 10 * netsim.Millisecond

func uniformRates(n int, r netsim.Rate) [][]netsim.Rate {
	m := make([][]netsim.Rate, n)
	for i := range m {
		m[i] = make([]netsim.Rate, n)
		for j := range m[i] {
			m[i][j] = r
		}
	}
	return m
}

func uniformDelays(n int, d netsim.Time) [][]netsim.Time {
	m := make([][]netsim.Time, n)
	for i := range m {
		m[i] = make([]netsim.Time, n)
		for j := range m[i] {
			m[i][j] = d
		}
	}
	return m
}

func TestShapes(t *testing.T) {
	for _, tc := range builds {
		t.Run(tc.name, func(t *testing.T) {
			net := newNet(1)
			f, err := tc.build(net)
			if err != nil {
				t.Fatal(err)
			}
			if net.NumNodes() != tc.nodes || len(net.Links()) != tc.links {
				t.Errorf("%d nodes %d links, want %d %d", net.NumNodes(), len(net.Links()), tc.nodes, tc.links)
			}
			if len(f.Hosts) != tc.hosts || len(f.Switches) != tc.switches || f.Groups() != tc.groups {
				t.Errorf("%d hosts %d switches %d groups, want %d %d %d", len(f.Hosts), len(f.Switches), f.Groups(), tc.hosts, tc.switches, tc.groups)
			}
			// Group bookkeeping is consistent with the wiring: every host's
			// only port leads to its group's edge switch.
			n := 0
			for g := 0; g < f.Groups(); g++ {
				for _, h := range f.HostsOf(g) {
					if f.Hosts[n] != h || f.HostIndex(h.ID()) != n || f.GroupOf(h.ID()) != g {
						t.Fatalf("host %s: index %d group %d, want %d %d", h.Name(), f.HostIndex(h.ID()), f.GroupOf(h.ID()), n, g)
					}
					if len(h.Ports) != 1 || h.Ports[0].Link.To != f.Edge[g].ID() || f.EdgeOf(h.ID()) != f.Edge[g] {
						t.Fatalf("host %s not attached to edge %s", h.Name(), f.Edge[g].Name())
					}
					n++
				}
			}
			if n != len(f.Hosts) {
				t.Fatalf("groups cover %d of %d hosts", n, len(f.Hosts))
			}
			// Every port has a PortQueue.
			for id := 0; id < net.NumNodes(); id++ {
				for _, pt := range net.Node(netsim.NodeID(id)).Base().Ports {
					if _, ok := pt.Queue().(*switchmodel.PortQueue); !ok {
						t.Fatalf("node %d port %d has queue %T", id, pt.Index, pt.Queue())
					}
				}
			}
			if f.HostIndex(f.Edge[0].ID()) != -1 || f.GroupOf(-5) != -1 || f.HostsOf(f.Groups()) != nil {
				t.Error("lookups of non-hosts must fail")
			}
		})
	}
}

func pathLen(t *testing.T, net *netsim.Network, a, b netsim.NodeID) int {
	t.Helper()
	p, err := net.Path(a, b, 1)
	if err != nil {
		t.Fatal(err)
	}
	return len(p)
}

func TestPathsAndECMP(t *testing.T) {
	t.Run("leaf-spine", func(t *testing.T) {
		net := newNet(1)
		c := DefaultLeafSpine()
		f, err := LeafSpine(net, c)
		if err != nil {
			t.Fatal(err)
		}
		h := f.Hosts
		if got := pathLen(t, net, h[0].ID(), h[15].ID()); got != 2 {
			t.Errorf("same-leaf path %d links, want 2", got)
		}
		if got := pathLen(t, net, h[0].ID(), h[16].ID()); got != 4 {
			t.Errorf("cross-leaf path %d links, want 4", got)
		}
		r := net.Routes()
		if got := len(r.NextHops(f.Edge[0].ID(), h[127].ID())); got != c.Spines {
			t.Errorf("leaf ECMP set %d, want %d spines", got, c.Spines)
		}
		if got := len(r.NextHops(f.Edge[0].ID(), h[3].ID())); got != 1 {
			t.Errorf("leaf to local host: %d next hops, want 1", got)
		}
		if got := len(r.NextHops(f.Core[2].ID(), h[40].ID())); got != 1 {
			t.Errorf("spine to host: %d next hops, want 1", got)
		}
		// Host i is on leaf i/16.
		for _, i := range []int{0, 15, 16, 77, 127} {
			if f.GroupOf(h[i].ID()) != i/16 || h[i].Name() != "h"+strconv.Itoa(i) {
				t.Errorf("host %d (%s) in group %d", i, h[i].Name(), f.GroupOf(h[i].ID()))
			}
		}
	})
	t.Run("dumbbell", func(t *testing.T) {
		net := newNet(1)
		f, err := Dumbbell(net, 8, 3, 4, 40*netsim.Gbps, 40*netsim.Gbps, us, q0)
		if err != nil {
			t.Fatal(err)
		}
		l, r := f.HostsOf(0), f.HostsOf(1)
		if len(l) != 8 || len(r) != 3 {
			t.Fatalf("sides %d and %d hosts", len(l), len(r))
		}
		if got := pathLen(t, net, l[0].ID(), r[0].ID()); got != 4 {
			t.Errorf("cross path %d links, want 4", got)
		}
		if got := pathLen(t, net, l[0].ID(), l[1].ID()); got != 2 {
			t.Errorf("same-side path %d links, want 2", got)
		}
		if got := len(net.Routes().NextHops(f.Edge[0].ID(), r[0].ID())); got != 4 {
			t.Errorf("s1 ECMP set %d, want 4 paths", got)
		}
	})
	t.Run("racks", func(t *testing.T) {
		net := newNet(1)
		f, err := Racks(net, 3, 4, 20*netsim.Gbps, 20*netsim.Gbps, us, q0)
		if err != nil {
			t.Fatal(err)
		}
		if got := pathLen(t, net, f.HostsOf(0)[0].ID(), f.HostsOf(0)[3].ID()); got != 2 {
			t.Errorf("intra-rack path %d, want 2", got)
		}
		if got := pathLen(t, net, f.HostsOf(0)[0].ID(), f.HostsOf(2)[1].ID()); got != 4 {
			t.Errorf("inter-rack path %d, want 4", got)
		}
	})
	t.Run("wan", func(t *testing.T) {
		net := newNet(1)
		f, err := WAN(net, uniformRates(5, netsim.Gbps), uniformDelays(5, ms10), q0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range f.Hosts {
			for j := range f.Hosts {
				if i != j {
					if got := pathLen(t, net, f.Hosts[i].ID(), f.Hosts[j].ID()); got != 3 {
						t.Fatalf("site %d -> %d: %d links, want 3 (direct)", i, j, got)
					}
				}
			}
		}
	})
}
