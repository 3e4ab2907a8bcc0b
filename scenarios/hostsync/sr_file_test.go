package hostsync

import (
	"strings"
	"testing"

	"syncsim/experiments/exptest"
	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// writeFatTree writes c as a topology file (scripts/topo/fattree's
// writer).
func writeFatTree(t *testing.T, c topologies.FatTreeConfig) string {
	t.Helper()
	var b strings.Builder
	if err := topologies.WriteFatTree(&b, c); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "ft.txt", b.String())
}

// TestSRClusterFatTreeFile: sr-cluster on the fat-tree topology=fattree
// builds and on the same fat-tree read from the file WriteFatTree writes
// gives identical metrics at flow and packet fidelity, with background
// hosts and bg_load at packet fidelity. The file carries what
// topology=fattree derives from the parameters: 20 Gbps host cables, the
// edge's two uplinks at per x 20 Gbps / oversub together (per = 1 worker
// per edge for n = 8 on k = 4's 8 edges: 10 Gbps each at oversub 1, 5
// Gbps at oversub 2), alpha/6 per cable. alpha_ms = 0.012 makes alpha/6
// a whole 2 us and six of them the same float64 as alpha_ms / 1e3, so
// that the alpha the file gives (half its round-trip bound) is alpha_ms's.
func TestSRClusterFatTreeFile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		perEdge int
		fabric  netsim.Rate
		sets    []string
	}{
		{"flow", 1, 10 * netsim.Gbps, []string{"fidelity=flow", "scheme=selective-reduce", "duration_s=5"}},
		{"packet with background", 2, 5 * netsim.Gbps, []string{"fidelity=packet", "scheme=partial-reduce", "p_frac=0.5",
			"model_mb=1", "duration_s=0.05", "trace=constant", "compute_ms=10", "bg_load=0.2", "bg_hosts_per_rack=1",
			"bg_workload=websearch", "oversub=2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFatTree(t, topologies.FatTreeConfig{K: 4, HostsPerEdge: tc.perEdge, HostRate: 20 * netsim.Gbps,
				FabricRate: tc.fabric, Delay: 2 * netsim.Microsecond})
			sets := append([]string{"n=8", "alpha_ms=0.012"}, tc.sets...)
			built := srRun(t, 3, append(sets, "topology=fattree", "k=4")...)
			read := srRun(t, 3, append(sets, "topology_file="+path)...)
			exptest.SameMetrics(t, [2]string{"built", "file"}, built.Metrics, read.Metrics)
			if built.Events != read.Events {
				t.Errorf("events: built %d, file %d", built.Events, read.Events)
			}
			m := built.Metrics
			t.Logf("%v syncs, eq2_ratio %.4f, background flows %v, %d events", m["total_sync"], m["eq2_ratio"], m["bg_flows_done"], built.Events)
			if !(m["total_sync"] > 0) || tc.perEdge > 1 && !(m["bg_flows_done"] > 0) {
				t.Errorf("nothing to compare: %v syncs, %v background flows", m["total_sync"], m["bg_flows_done"])
			}
		})
	}
}

// unevenFile has three edge switches under one core: switch 7 with hosts
// 3 and 6, switch 8 with hosts 4 and 5, switch 9 with hosts 0, 1 and 2
// (host groups in switch id order: sizes 2, 2, 3), 10 Gbps, 1 us cables.
const unevenFile = `11 4 10
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

// TestSRFilePlacement: on a topology file the edge switches are the
// racks, in switch id order, filled ceil(n/3) workers at a time. n = 5:
// two per group, workers 0 and 1 on switch 7's hosts 3 and 6, 2 and 3 on
// switch 8's 4 and 5, worker 4 on switch 9's host 0; switch 9's host 1
// is a worker's slot left idle, as on the built fabrics, and host 2 the
// background host (past the first two of its group); worker cables run at the
// workers' bandwidths, a background host's at the file's 10 Gbps. n = 7
// needs three hosts on switch 7, which has two: refused naming it.
func TestSRFilePlacement(t *testing.T) {
	path := writeFile(t, "uneven.txt", unevenFile)
	ps, err := SRCluster().Resolve([]string{"fidelity=flow", "topology_file=" + path, "n=5"})
	if err != nil {
		t.Fatal(err)
	}
	gbps := []float64{1, 2, 3, 4, 5}
	s, err := buildSRNet(netsim.New(1), ps, gbps, 1e-3, switchmodel.QueueConfig{})
	if err != nil {
		t.Fatal(err)
	}
	want := []netsim.NodeID{3, 6, 4, 5, 0}
	for w, h := range s.hosts {
		if h != want[w] {
			t.Errorf("worker %d on node %d, want %d", w, h, want[w])
		}
		if s.edges[w][0].Rate != netsim.Rate(gbps[w]*1e9) || s.edges[w][1].Rate != netsim.Rate(gbps[w]*1e9) {
			t.Errorf("worker %d's cables at %v / %v, want %g Gbps", w, s.edges[w][0].Rate, s.edges[w][1].Rate, gbps[w])
		}
	}
	if len(s.bg) != 1 || s.bg[0] != 2 {
		t.Errorf("background hosts %v, want [2]", s.bg)
	}
	if r := s.net.Node(2).Base().Ports[0].Link.Rate; r != 10*netsim.Gbps {
		t.Errorf("background host's cable at %v, want 10 Gbps", r)
	}
	if s.rank == nil || s.rank[2] >= s.rank[4] || s.rank[1] >= s.rank[2] {
		t.Errorf("ring ranks %v: want the group order (worker 4 in the last group)", s.rank)
	}
	_, err = exptest.Try(SRCluster(), 1, "fidelity=flow", "topology_file="+path, "n=7", "duration_s=1")
	if err == nil || !strings.Contains(err.Error(), "edge switch 0") || !strings.Contains(err.Error(), "has 2 hosts, not 3") {
		t.Errorf("n = 7: error %v, want one naming edge switch 0's 2 hosts", err)
	}
	_, err = exptest.Try(SRCluster(), 1, "fidelity=flow", "topology_file="+path, "n=5", "duration_s=1", "bg_load=0.2")
	if err == nil || !strings.Contains(err.Error(), "has 1 (the hosts of an edge switch past its first 2)") {
		t.Errorf("bg_load with one background host: error %v", err)
	}
	for _, tc := range []struct{ sets []string }{
		{[]string{"topology_file=" + path, "n=5"}},                               // analytic fidelity
		{[]string{"fidelity=flow", "topology_file=" + path + ".missing", "n=5"}}, // no such file
	} {
		if _, err := exptest.Try(SRCluster(), 1, append(tc.sets, "duration_s=1")...); err == nil || !strings.Contains(err.Error(), "topology_file") {
			t.Errorf("%v: error %v, want one naming topology_file", tc.sets, err)
		}
	}
}

// TestSRFileAlpha: alpha on a file is half its round-trip bound: 2 cables
// up and 2 down of 1 us between the uneven file's groups, 4 us.
func TestSRFileAlpha(t *testing.T) {
	a, err := srFileAlpha(writeFile(t, "uneven.txt", unevenFile))
	if err != nil || a != 4e-6 {
		t.Errorf("alpha %v, %v; want 4e-06 s", a, err)
	}
}
