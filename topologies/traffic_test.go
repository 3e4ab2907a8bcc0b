package topologies

import (
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

func TestLatencyByHand(t *testing.T) {
	g := netsim.Gbps
	// 1000 B take 800 ns at 10 Gbps, 400 ns at 20 Gbps, 200 ns at 40 Gbps,
	// 80 ns at 100 Gbps, 8 us at 1 Gbps, 4 us at 2 Gbps, 1.6 us at 5 Gbps
	// and 1333.334 ns (rounded up to the picosecond) at 6 Gbps.
	wanRates := [][]netsim.Rate{{0, 1 * g, 4 * g}, {2 * g, 0, 4 * g}, {4 * g, 4 * g, 0}}
	cases := []struct {
		name     string
		build    func(*netsim.Network) (*Fabric, error)
		src, dst int // host indices
		want     netsim.Time
	}{
		{"star", func(n *netsim.Network) (*Fabric, error) { return Star(n, 3, 10*g, us, q0) },
			0, 2, 2 * (800*ns + us)},
		{"dumbbell cross", func(n *netsim.Network) (*Fabric, error) { return Dumbbell(n, 2, 2, 3, 10*g, 40*g, us, q0) },
			0, 3, 2*(800*ns+us) + 2*(200*ns+us)},
		{"leaf-spine same leaf", func(n *netsim.Network) (*Fabric, error) { return LeafSpine(n, DefaultLeafSpine()) },
			0, 15, 2 * (80*ns + 2*us)},
		{"leaf-spine cross leaf", func(n *netsim.Network) (*Fabric, error) { return LeafSpine(n, DefaultLeafSpine()) },
			0, 127, 4 * (80*ns + 2*us)},
		{"racks cross rack", func(n *netsim.Network) (*Fabric, error) { return Racks(n, 2, 3, 20*g, 10*g, 500*ns, q0) },
			0, 5, 2*(400*ns+500*ns) + 2*(800*ns+500*ns)},
		// w0 -> w1: access up at 1+4 Gbps, WAN 0->1 at 1 Gbps, access down at 1+4 Gbps.
		{"wan 0->1", func(n *netsim.Network) (*Fabric, error) { return WAN(n, wanRates, uniformDelays(3, ms10), q0) },
			0, 1, 1600*ns + 8*us + ms10 + 1600*ns},
		// w1 -> w0: access up at 2+4 Gbps, WAN 1->0 at 2 Gbps, access down at 2+4 Gbps.
		{"wan 1->0", func(n *netsim.Network) (*Fabric, error) { return WAN(n, wanRates, uniformDelays(3, ms10), q0) },
			1, 0, 1333334 + 4*us + ms10 + 1333334},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			net := newNet(1)
			f, err := tc.build(net)
			if err != nil {
				t.Fatal(err)
			}
			ks := sinks(f)
			dst := f.Hosts[tc.dst].ID()
			sendOne(f, f.Hosts[tc.src], dst, 1000, 7)
			net.Sim.Run(netsim.Never)
			if got := ks[dst].times; len(got) != 1 || got[0] != tc.want {
				t.Fatalf("arrivals %v, want [%v]", got, tc.want)
			}
			mustConserve(t, net)
		})
	}
}

func TestFlowForPath(t *testing.T) {
	net := newNet(5)
	f, err := Dumbbell(net, 8, 3, 4, 40*netsim.Gbps, 40*netsim.Gbps, us, q0)
	if err != nil {
		t.Fatal(err)
	}
	sinks(f)
	src, dst := f.HostsOf(0)[2], f.HostsOf(1)[1]
	seen := map[uint64]bool{}
	for path := 0; path < 4; path++ {
		fl, err := f.FlowForPath(src.ID(), dst.ID(), path)
		if err != nil {
			t.Fatal(err)
		}
		if seen[fl] {
			t.Fatalf("flow %d returned for two paths", fl)
		}
		seen[fl] = true
		if a, b := f.PathOf(src.ID(), dst.ID(), fl), f.PathOf(dst.ID(), src.ID(), fl); a != path || b != path {
			t.Fatalf("flow %d for path %d takes paths %d and %d", fl, path, a, b)
		}
		// Packets of the flow, both ways, cross only that path's switch.
		before := make([]uint64, 4)
		for i, c := range f.Core {
			before[i] = c.Received
		}
		for i := 0; i < 5; i++ {
			sendOne(f, src, dst.ID(), 500, fl)
			sendOne(f, dst, src.ID(), 500, fl)
		}
		net.Sim.Run(netsim.Never)
		for i, c := range f.Core {
			want := uint64(0)
			if i == path {
				want = 10
			}
			if got := c.Received - before[i]; got != want {
				t.Errorf("flow %d pinned to path %d: switch %s received %d, want %d", fl, path, c.Name(), got, want)
			}
		}
		next, err := f.NextFlowForPath(src.ID(), dst.ID(), path, fl)
		if err != nil || next <= fl || f.PathOf(src.ID(), dst.ID(), next) != path || f.PathOf(dst.ID(), src.ID(), next) != path {
			t.Fatalf("next flow after %d: %d, %v", fl, next, err)
		}
	}
	mustConserve(t, net)

	bad := []struct {
		name     string
		f        *Fabric
		src, dst netsim.NodeID
		path     int
	}{
		{"same side", f, f.HostsOf(0)[0].ID(), f.HostsOf(0)[1].ID(), 0},
		{"path out of range", f, src.ID(), dst.ID(), 4},
		{"negative path", f, src.ID(), dst.ID(), -1},
		{"not a host", f, f.Edge[0].ID(), dst.ID(), 0},
		{"self", f, src.ID(), src.ID(), 0},
	}
	star, err := Star(newNet(1), 3, netsim.Gbps, 0, q0)
	if err != nil {
		t.Fatal(err)
	}
	bad = append(bad, struct {
		name     string
		f        *Fabric
		src, dst netsim.NodeID
		path     int
	}{"star has no paths", star, star.Hosts[0].ID(), star.Hosts[1].ID(), 0})
	for _, tc := range bad {
		if _, err := tc.f.FlowForPath(tc.src, tc.dst, tc.path); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestFlowForSpine(t *testing.T) {
	net := newNet(9)
	f, err := LeafSpine(net, smallLeafSpine())
	if err != nil {
		t.Fatal(err)
	}
	a, b := f.HostsOf(0)[0].ID(), f.HostsOf(3)[1].ID()
	for s := range f.Core {
		fl, err := f.FlowForPath(a, b, s)
		if err != nil {
			t.Fatal(err)
		}
		if f.PathOf(a, b, fl) != s || f.PathOf(b, a, fl) != s {
			t.Fatalf("flow %d not pinned to spine %d", fl, s)
		}
	}
}

// TestConservationUnderLoad runs all-to-all bursts through a small
// leaf-spine with tiny buffers, so queues overflow and mark, and checks the
// books at several instants.
func TestConservationUnderLoad(t *testing.T) {
	for _, shared := range []bool{false, true} {
		name := map[bool]string{false: "per-port", true: "shared"}[shared]
		t.Run(name, func(t *testing.T) {
			net := newNet(3)
			c := smallLeafSpine()
			c.Queue = switchmodel.QueueConfig{Buffer: 6000, ECNPackets: 2}
			if shared {
				c.Queue = switchmodel.QueueConfig{Shared: switchmodel.NewSharedBuffer(20000, 1), ECNPackets: 2}
			}
			f, err := LeafSpine(net, c)
			if err != nil {
				t.Fatal(err)
			}
			sinks(f)
			for i, s := range f.Hosts {
				for j, d := range f.Hosts {
					if i == j {
						continue
					}
					for k := 0; k < 10; k++ {
						p := net.Sim.Packets().Get()
						p.Dst, p.Size, p.Flow, p.Flags = d.ID(), 1500, uint64(i*100+j), netsim.FlagECT
						s.Send(p)
					}
				}
			}
			for _, until := range []netsim.Time{500 * ns, 2 * us, 5 * us, 20 * us, netsim.Never} {
				net.Sim.Run(until)
				mustConserve(t, net)
			}
			st := net.Stats()
			if st.Injected != 8*7*10 || st.Delivered+st.Dropped != st.Injected || st.Dropped == 0 {
				t.Fatalf("books %+v: want 560 injected, all accounted, some drops", st)
			}
			var qDrops, marks uint64
			for id := 0; id < net.NumNodes(); id++ {
				for _, pt := range net.Node(netsim.NodeID(id)).Base().Ports {
					q := pt.Queue().(*switchmodel.PortQueue)
					qDrops += q.Dropped
					marks += q.Marked
					if q.Dropped != pt.Drops {
						t.Errorf("queue %s counts %d drops, port %d", q.Name(), q.Dropped, pt.Drops)
					}
				}
			}
			if qDrops != st.Dropped || marks == 0 {
				t.Errorf("queue drops %d (network %d), marks %d", qDrops, st.Dropped, marks)
			}
		})
	}
}

func TestSharedBufferPerSwitch(t *testing.T) {
	net := newNet(1)
	c := smallLeafSpine()
	tmpl := switchmodel.NewSharedBuffer(50000, 2)
	c.Queue = switchmodel.QueueConfig{Shared: tmpl}
	f, err := LeafSpine(net, c)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[*switchmodel.SharedBuffer]bool{}
	for _, sw := range f.Switches {
		sb := sw.PortQueue(0).Config().Shared
		if sb == nil || sb == tmpl || seen[sb] || sb.Total != 50000 || sb.Alpha != 2 {
			t.Fatalf("switch %s: shared buffer %p (template %p) reused or wrong", sw.Name(), sb, tmpl)
		}
		seen[sb] = true
		for i := range sw.Ports {
			if sw.PortQueue(i).Config().Shared != sb {
				t.Fatalf("switch %s port %d has another buffer", sw.Name(), i)
			}
		}
	}
	for _, h := range f.Hosts {
		if h.Ports[0].Queue().(*switchmodel.PortQueue).Config().Shared != nil {
			t.Fatalf("host %s NIC draws on a shared buffer", h.Name())
		}
	}
}

func TestDefaultLeafSpineParameters(t *testing.T) {
	c := DefaultLeafSpine()
	if c.Spines != 8 || c.Leaves != 8 || c.HostsPerLeaf != 16 || c.HostRate != 100*netsim.Gbps ||
		c.FabricRate != 100*netsim.Gbps || c.Delay != 2*us || c.Queue.Buffer != 256000 {
		t.Fatalf("default %+v differs from the PA-ATP NS3 setup", c)
	}
	// K > C RTT / 7 = 100e9/8 * 16e-6 / 7 / 1500 = 19.05 packets.
	if c.Queue.ECNPackets != 20 {
		t.Fatalf("K = %d, want 20", c.Queue.ECNPackets)
	}
}
