package hostsync

import (
	"strings"
	"testing"

	"syncsim/experiments/exptest"
	"syncsim/netsim"
	"syncsim/topologies"
)

// TestDSSyncFatTreeFile: dssync on the fat-tree topology=fattree builds
// (k = 4, 7 hosts per edge switch, host cables at 20 Gbps, the others at
// 20 / oversubscription = 10 Gbps, 1 us each) and on the same fat-tree
// read from the file WriteFatTree writes gives identical metrics, at
// flow fidelity for DS-Sync, hierarchical all-reduce and ASP and at
// packet fidelity for DS-Sync, under both contentions.
func TestDSSyncFatTreeFile(t *testing.T) {
	path := writeFatTree(t, topologies.FatTreeConfig{K: 4, HostsPerEdge: 7, HostRate: 20 * netsim.Gbps,
		FabricRate: 10 * netsim.Gbps, Delay: netsim.Microsecond})
	e := DSSync()
	for _, tc := range []struct{ fid, scheme string }{
		{"flow", "dssync"}, {"flow", "hier-allreduce"}, {"flow", "asp"}, {"packet", "dssync"},
	} {
		t.Run(tc.fid+"/"+tc.scheme, func(t *testing.T) {
			sets := append(append([]string(nil), small...), "fidelity="+tc.fid, "scheme="+tc.scheme, "oversubscription=2")
			if tc.fid == "packet" {
				sets = []string{"model=custom", "model_mb=4", "compute_ms=20", "layers=2", "bg_model=bert-base", "iterations=10",
					"adjust_every=4", "fidelity=packet", "scheme=dssync", "oversubscription=2"}
			}
			built := exptest.Run(t, e, 2, append(sets, "topology=fattree", "k=4", "hosts_per_edge=7")...)
			read := exptest.Run(t, e, 2, append(sets, "topology_file="+path)...)
			exptest.SameMetrics(t, [2]string{"built", "file"}, built.Metrics, read.Metrics)
			if built.Events != read.Events {
				t.Errorf("events: built %d, file %d", built.Events, read.Events)
			}
			m := built.Metrics
			t.Logf("comm %.3f ms, inter-rack %.4f GB, background %.2f Gbit/s, detected racks %v workers %v, %d events",
				m["comm_time_ms"], m["inter_rack_gb"], m["bg_gbps"], m["detected_racks"], m["detected_workers"], built.Events)
			if !(m["comm_time_ms"] > 0) || !(m["bg_gbps"] > 0) {
				t.Errorf("nothing to compare: comm %v ms, background %v Gbit/s", m["comm_time_ms"], m["bg_gbps"])
			}
		})
	}
}

// TestDSSyncFabricRefusals: a fat-tree or file that cannot hold the
// layout, and a file with two host rates, are refused before any run in
// one line naming what to change.
func TestDSSyncFabricRefusals(t *testing.T) {
	twoRates := writeFile(t, "rates.txt", "4 1 3\n3\n0 3 10Gbps 1us 0\n1 3 10Gbps 1us 0\n2 3 25Gbps 1us 0\n")
	e := DSSync()
	for _, tc := range []struct {
		sets []string
		want string
	}{
		{[]string{"topology=fattree", "k=4"}, "topology=fattree k=4: rack 0 needs 5 hosts under its edge switch (its workers), and edge switch 0 has 2 (hosts_per_edge sets"},
		{[]string{"topology=fattree", "k=4", "hosts_per_edge=7", "layout=even", "racks=9", "workers=9"}, "the layout has 9 racks and the fabric 8 edge switches"},
		{[]string{"topology=fattree", "k=5"}, "k = 5 is odd"},
		{[]string{"topology_file=" + twoRates, "scenario=static", "layout=3"}, "rates.txt:5: a host cable at 25Gbps, another at 10Gbps; dssync needs one host rate"},
		{[]string{"topology_file=" + twoRates + ".missing"}, "topology_file"},
	} {
		ps, err := e.Resolve(append(append([]string(nil), small...), tc.sets...))
		if err == nil {
			err = e.Validate(ps)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.sets, err, tc.want)
		}
	}
}
