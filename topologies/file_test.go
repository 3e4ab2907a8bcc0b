package topologies

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"syncsim/internal/fuzzcheck"
	"syncsim/netsim"
)

// TestReadTopologySample reads testdata/leafspine_topology.txt, a leaf-spine
// of 2 leaves (switches 6 and 7) x 2 spines (8 and 9) x 3 hosts written
// with the HPCC branch's units: the hosts keep their file ids as node ids
// and are grouped by leaf, leaves are edge switches and spines core
// switches, rates and delays read exactly, and hosts on different leaves
// have two equal-cost paths.
func TestReadTopologySample(t *testing.T) {
	tf, err := ReadTopologyFile("testdata/leafspine_topology.txt")
	if err != nil {
		t.Fatal(err)
	}
	net := newNet(1)
	f, err := FromFile(net, tf, q0)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Hosts) != 6 || f.Groups() != 2 || len(f.Edge) != 2 || len(f.Agg) != 0 || len(f.Core) != 2 {
		t.Fatalf("%v: %d edge %d agg %d core", f, len(f.Edge), len(f.Agg), len(f.Core))
	}
	for i, h := range f.Hosts {
		if h.ID() != netsim.NodeID(i) || f.GroupOf(h.ID()) != i/3 {
			t.Errorf("host %d is node %d (%s) in group %d", i, h.ID(), h.Name(), f.GroupOf(h.ID()))
		}
	}
	if f.Edge[1].ID() != 7 || f.Core[0].ID() != 8 || f.Edge[0].Name() != "edge0" || f.Core[1].Name() != "core1" {
		t.Errorf("tiers: edge %v core %v", f.Edge, f.Core)
	}
	if l := f.LinkBetween(0, 6); l == nil || l.Rate != 25*netsim.Gbps || l.Delay != netsim.Microsecond {
		t.Errorf("host link %+v, want 25 Gbps, 1 us", l)
	}
	if l := f.LinkBetween(9, 7); l == nil || l.Rate != 100*netsim.Gbps || l.Delay != netsim.Microsecond {
		t.Errorf("spine link %+v, want 100 Gbps, 1 us", l)
	}
	if got := countPaths(net, 0, 5, map[netsim.NodeID]int{}); got != 2 {
		t.Errorf("%d paths between leaves, want 2", got)
	}
	if got := countPaths(net, 0, 2, map[netsim.NodeID]int{}); got != 1 {
		t.Errorf("%d paths within a leaf, want 1", got)
	}
	if r, err := f.UniformHostRate(); err != nil || r != 25*netsim.Gbps || tf.HostRate() != r {
		t.Errorf("host rate %v, %v", r, err)
	}
	// Hosts on different leaves are 4 cables apart, each of 1 us.
	if got := tf.RTTBound(); got != 8*netsim.Microsecond {
		t.Errorf("RTT bound %v, want 8 us", got)
	}
}

// TestGroupSizes: the hosts under each edge switch, read from the file,
// in the order FromFile numbers the groups (edge switches by id, not by
// their hosts' ids): switch 7 holds hosts 3 and 6, 8 holds 4 and 5, 9
// holds 0, 1 and 2.
func TestGroupSizes(t *testing.T) {
	const file = `11 4 10
7 8 9 10
0 9 10Gbps 1us 0
1 9 10Gbps 1us 0
2 9 10Gbps 1us 0
3 7 10Gbps 1us 0
4 8 10Gbps 1us 0
5 8 10Gbps 1us 0
6 7 10Gbps 1us 0
7 10 10Gbps 1us 0
8 10 10Gbps 1us 0
9 10 10Gbps 1us 0
`
	tf, err := ReadTopology(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	got := tf.GroupSizes()
	if want := []int{2, 2, 3}; !slices.Equal(got, want) {
		t.Fatalf("group sizes %v, want %v", got, want)
	}
	f, err := FromFile(newNet(1), tf, q0)
	if err != nil {
		t.Fatal(err)
	}
	for g, n := range got {
		if len(f.HostsOf(g)) != n {
			t.Errorf("group %d: FromFile has %d hosts, GroupSizes %d", g, len(f.HostsOf(g)), n)
		}
	}
	if f.HostsOf(0)[1].ID() != 6 || f.HostsOf(2)[0].ID() != 0 {
		t.Errorf("group 0 %v, group 2 %v", f.HostsOf(0), f.HostsOf(2))
	}
}

// TestUnits reads ns-3's DataRate and Time strings.
func TestUnits(t *testing.T) {
	rates := map[string]netsim.Rate{
		"100Gbps": 100 * netsim.Gbps, "25Gb/s": 25 * netsim.Gbps, "12.5GBps": 100 * netsim.Gbps,
		"1Kbps": netsim.Kbps, "1kbps": netsim.Kbps, "1Kib/s": 1024, "2MiB/s": 16 << 20, "400": 400, "1e9bps": netsim.Gbps,
	}
	for s, want := range rates {
		if got, err := ParseDataRate(s); err != nil || got != want {
			t.Errorf("rate %q = %v, %v; want %v", s, got, err, want)
		}
	}
	times := map[string]netsim.Time{
		"1000ns": netsim.Microsecond, "0.001ms": netsim.Microsecond, "1us": netsim.Microsecond,
		"2s": 2 * netsim.Second, "0.5": netsim.Second / 2, "7ps": 7, "0": 0,
	}
	for s, want := range times {
		if got, err := ParseNS3Time(s); err != nil || got != want {
			t.Errorf("time %q = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "Gbps", "100Gbit", "-1Gbps", "0bps", "NaNGbps", "1e30Gbps", "100 Gbps"} {
		if _, err := ParseDataRate(s); err == nil {
			t.Errorf("rate %q accepted", s)
		}
	}
	for _, s := range []string{"", "us", "1 us", "-1ns", "1sec", "2d", "2h", "Infs"} {
		if _, err := ParseNS3Time(s); err == nil {
			t.Errorf("time %q accepted", s)
		}
	}
}

// TestReadTopologyRefuses: each bad file is refused with one line naming
// the line at fault (the ReadTopologyFile form: the file and the line).
func TestReadTopologyRefuses(t *testing.T) {
	const hdr = "4 2 3\n2 3\n"
	ok := "0 2 10Gbps 1us 0\n1 3 10Gbps 1us 0\n2 3 10Gbps 1us 0\n"
	cases := []struct{ name, text, want string }{
		{"empty", "", "empty file"},
		{"short header", "4 2\n", "line 1: 2 fields"},
		{"bad count", "4 x 3\n", "line 1: switch_num"},
		{"more switches than nodes", "2 3 0\n", "line 1: 3 switches among 2 nodes"},
		{"switch ids missing", "4 2 3\n2\n", "line 3: the file ends after 1 of 2 switch ids"},
		{"too many switch ids", "4 2 3\n2 3 1\n", "line 2: 3 switch ids"},
		{"switch out of range", "4 2 3\n2 4\n", "line 2: switch id 4 out of range"},
		{"switch twice", "4 2 3\n2 2\n", "line 2: switch 2 listed twice"},
		{"missing field", hdr + "0 2 10Gbps 1us\n", "line 3: 4 fields"},
		{"unknown rate unit", hdr + "0 2 10Gbit 1us 0\n", `line 3: rate "10Gbit": unknown unit`},
		{"unknown delay unit", hdr + "0 2 10Gbps 1sec 0\n", `line 3: delay "1sec": unknown unit`},
		{"id out of range", hdr + "0 9 10Gbps 1us 0\n", "line 3: dst id 9 out of range"},
		{"self loop", hdr + "2 2 10Gbps 1us 0\n", "line 3: link from node 2 to itself"},
		{"hosts joined", hdr + "0 1 10Gbps 1us 0\n", "line 3: link between hosts 0 and 1"},
		{"duplicate link", "4 2 4\n2 3\n" + "0 2 10Gbps 1us 0\n1 3 10Gbps 1us 0\n3 2 10Gbps 1us 0\n2 3 10Gbps 1us 0\n", "line 6: nodes 2 and 3 are already joined on line 5"},
		{"multi-homed host", hdr + "0 2 10Gbps 1us 0\n0 3 10Gbps 1us 0\n", "line 4: host 0 is already attached on line 3"},
		{"lossy link", hdr + "0 2 10Gbps 1us 0.01\n", "line 3: error_rate 0.01"},
		{"bad error rate", hdr + "0 2 10Gbps 1us x\n", `line 3: error_rate "x"`},
		{"links missing", hdr + "0 2 10Gbps 1us 0\n", "line 4: the file ends after 1 of 3 links"},
		{"host without link", "4 2 2\n2 3\n0 2 10Gbps 1us 0\n2 3 10Gbps 1us 0\n", "host 1 has no link"},
		{"disconnected host", "4 2 2\n2 3\n0 2 10Gbps 1us 0\n1 3 10Gbps 1us 0\n", "line 4: host 1 cannot reach host 0"},
		{"disconnected switch", "5 3 3\n2 3 4\n0 2 10Gbps 1us 0\n1 3 10Gbps 1us 0\n2 3 10Gbps 1us 0\n", "switch 4 is not connected"},
		{"no hosts", "2 2 1\n0 1\n0 1 10Gbps 1us 0\n", "no hosts"},
	}
	dir := t.TempDir()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTopology(strings.NewReader(tc.text))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q...", err, tc.want)
			}
			path := filepath.Join(dir, "t.txt")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = ReadTopologyFile(path)
			want := "topology_file " + path + ":" + strings.TrimPrefix(tc.want, "line ")
			if !strings.HasPrefix(tc.want, "line ") {
				want = "topology_file " + path + ": " + tc.want
			}
			if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want %q...", err, want)
			}
		})
	}
	if _, err := ReadTopology(strings.NewReader(hdr + ok)); err != nil {
		t.Fatalf("the good file: %v", err)
	}
	if _, err := ReadTopologyFile(filepath.Join(dir, "missing.txt")); err == nil || !strings.HasPrefix(err.Error(), "topology_file: ") {
		t.Fatalf("missing file: %v", err)
	}
}

// TestFatTreeFileMatchesBuilder writes fat-trees with WriteFatTree, reads
// them back and checks that FromFile builds FatTree's network exactly:
// the same nodes (names, kinds), the same ports in the same order (peer,
// rate, delay), the same tiers and groups, and the same path for every
// pair of hosts under several flow identifiers.
func TestFatTreeFileMatchesBuilder(t *testing.T) {
	for _, tc := range []struct{ k, perEdge int }{{2, 1}, {4, 2}, {4, 3}, {8, 4}} {
		c := DefaultFatTree()
		c.K, c.HostsPerEdge = tc.k, tc.perEdge
		c.HostRate = 25 * netsim.Gbps
		var buf bytes.Buffer
		if err := WriteFatTree(&buf, c); err != nil {
			t.Fatal(err)
		}
		tf, err := ReadTopology(&buf)
		if err != nil {
			t.Fatalf("k=%d: the written file does not read back: %v", tc.k, err)
		}
		na, nb := newNet(5), newNet(5)
		fa, err := FatTree(na, c)
		if err != nil {
			t.Fatal(err)
		}
		fb, err := FromFile(nb, tf, c.Queue)
		if err != nil {
			t.Fatal(err)
		}
		if na.NumNodes() != nb.NumNodes() || len(na.Links()) != len(nb.Links()) {
			t.Fatalf("k=%d: %d/%d nodes, %d/%d links", tc.k, na.NumNodes(), nb.NumNodes(), len(na.Links()), len(nb.Links()))
		}
		for id := netsim.NodeID(0); int(id) < na.NumNodes(); id++ {
			a, b := na.Node(id).Base(), nb.Node(id).Base()
			if a.Name() != b.Name() || a.Kind() != b.Kind() || len(a.Ports) != len(b.Ports) {
				t.Fatalf("k=%d node %d: %s/%s", tc.k, id, a.Name(), b.Name())
			}
			for i := range a.Ports {
				la, lb := a.Ports[i].Link, b.Ports[i].Link
				if la.To != lb.To || la.Rate != lb.Rate || la.Delay != lb.Delay {
					t.Fatalf("k=%d node %s port %d: %+v vs %+v", tc.k, a.Name(), i, la, lb)
				}
			}
		}
		same := func(x, y []*netsim.Host) bool {
			if len(x) != len(y) {
				return false
			}
			for i := range x {
				if x[i].ID() != y[i].ID() {
					return false
				}
			}
			return true
		}
		if got := tf.RTTBound(); tc.k > 2 && got != 12*c.Delay {
			t.Errorf("k=%d: RTT bound %v, want 12 x %v", tc.k, got, c.Delay)
		}
		if !same(fa.Hosts, fb.Hosts) || fa.Groups() != fb.Groups() || len(fa.Agg) != len(fb.Agg) || len(fa.Core) != len(fb.Core) || len(fa.Edge) != len(fb.Edge) {
			t.Fatalf("k=%d: fabrics differ: %v / %v", tc.k, fa, fb)
		}
		for g := 0; g < fa.Groups(); g++ {
			if !same(fa.HostsOf(g), fb.HostsOf(g)) || fa.Edge[g].ID() != fb.Edge[g].ID() {
				t.Fatalf("k=%d: group %d differs", tc.k, g)
			}
		}
		for i, s := range fa.Switches {
			if fb.Switches[i].ID() != s.ID() {
				t.Fatalf("k=%d: switch %d is %s / %s", tc.k, i, s.Name(), fb.Switches[i].Name())
			}
		}
		for _, s := range fa.Hosts {
			for _, d := range fa.Hosts {
				for flow := uint64(1); flow <= 4; flow++ {
					pa, ea := na.Path(s.ID(), d.ID(), flow)
					pb, eb := nb.Path(s.ID(), d.ID(), flow)
					if ea != nil || eb != nil || len(pa) != len(pb) {
						t.Fatalf("k=%d %s->%s: %v %v", tc.k, s.Name(), d.Name(), ea, eb)
					}
					for i := range pa {
						if pa[i] != pb[i] {
							t.Fatalf("k=%d %s->%s flow %d: paths differ", tc.k, s.Name(), d.Name(), flow)
						}
					}
				}
			}
		}
	}
}

// FuzzReadTopology: any file is refused with a one-line error, or read
// into a topology FromFile builds, with every host in exactly one group
// under the edge switch it attaches to and every host reaching every
// other.
func FuzzReadTopology(f *testing.F) {
	sample, err := os.ReadFile("testdata/leafspine_topology.txt")
	if err != nil {
		f.Fatal(err)
	}
	var ft bytes.Buffer
	c := DefaultFatTree()
	c.K, c.HostsPerEdge = 4, 2
	if err := WriteFatTree(&ft, c); err != nil {
		f.Fatal(err)
	}
	fuzzcheck.Seeds(f, string(sample), ft.String(),
		"4 2 3\n2 3\n0 2 10Gbps 1us 0\n1 3 10Gbps 1us 0\n2 3 10Gbps 1us 0\n",
		"3 1 2\n\n2\n0 2 1Gb/s 0.5 0\n1 2 1GBps 0 0.0\n",
		"4 2 3\n2 3\n0 2 10Gbps 1us 0\n0 3 10Gbps 1us 0\n2 3 10Gbps 1us 0\n",
		"2 1 1\n1\n0 1 1e3Kbps 1e-3ms 0 \n",
		"1000000 0 0\n", "", "0 0 0\n",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		tf, err := ReadTopology(bytes.NewReader(data))
		if fuzzcheck.Refused(t, err, "") {
			return
		}
		net := newNet(1)
		fab, err := FromFile(net, tf, q0)
		if err != nil {
			t.Fatalf("read but not built: %v", err)
		}
		hosts := 0
		for _, s := range tf.Switch {
			if !s {
				hosts++
			}
		}
		if len(fab.Hosts) != hosts || net.NumNodes() != tf.Nodes {
			t.Fatalf("%d of %d hosts grouped, %d nodes", len(fab.Hosts), hosts, net.NumNodes())
		}
		for g := 0; g < fab.Groups(); g++ {
			for _, h := range fab.HostsOf(g) {
				if len(h.Ports) != 1 || h.Ports[0].Link.To != fab.Edge[g].ID() {
					t.Fatalf("host %s not under %s", h.Name(), fab.Edge[g].Name())
				}
			}
		}
		for _, d := range fab.Hosts {
			if _, err := net.Path(fab.Hosts[0].ID(), d.ID(), 1); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestReadHPCCSample reads the HPCC branch's own mix/topology.txt (kept
// under scripts/ns3/hpcc-sample): 65 hosts on one switch at 100 Gbps,
// followed by lines describing the format, which third.cc never reads
// and neither do we.
func TestReadHPCCSample(t *testing.T) {
	tf, err := ReadTopologyFile(filepath.Join("..", "scripts", "ns3", "hpcc-sample", "topology.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if tf.Nodes != 66 || len(tf.Links) != 65 || !tf.Switch[0] || tf.Switch[1] {
		t.Fatalf("nodes %d, links %d, node 0 switch %v, node 1 switch %v; want 66, 65, true, false",
			tf.Nodes, len(tf.Links), tf.Switch[0], tf.Switch[1])
	}
	for _, l := range tf.Links {
		if l.A != 0 && l.B != 0 {
			t.Errorf("line %d: link %d-%d misses the switch", l.Line, l.A, l.B)
		}
	}
}
