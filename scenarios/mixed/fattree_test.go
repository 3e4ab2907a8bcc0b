package mixed

import (
	"os"
	"path/filepath"
	"testing"

	"syncsim/experiments/exptest"
	"syncsim/netsim"
	"syncsim/topologies"
)

// TestMixedFabricFatTree runs every tenant on a k = 4 fat-tree, built and
// read from the topology file WriteFatTree writes, with the books
// checked: every job finishes, the INA job aggregates in the network,
// and the built and the read fat-tree give identical metrics.
func TestMixedFabricFatTree(t *testing.T) {
	c := topologies.DefaultFatTree()
	c.K, c.HostsPerEdge = 4, 2
	c.HostRate, c.FabricRate, c.Delay = 100*netsim.Gbps, 100*netsim.Gbps, 2*netsim.Microsecond
	path := filepath.Join(t.TempDir(), "ft4.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := topologies.WriteFatTree(f, c); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	sets := []string{"ina_jobs=1", "workers=3", "ring_jobs=1", "ring_workers=3", "gradient_mb=0.5", "ring_mb=0.5", "iterations=2", "load=0.3"}
	built := exptest.Run(t, MixedFabric(), 1, append(sets, "topology=fattree", "k=4")...).Metrics
	read := exptest.Run(t, MixedFabric(), 1, append(sets, "topology_file="+path)...).Metrics
	if built["jobs_done_frac"] != 1 || built["switch_agg_frac"] < 0.5 {
		t.Errorf("jobs done %v, switch_agg_frac %v", built["jobs_done_frac"], built["switch_agg_frac"])
	}
	exptest.SameMetrics(t, [2]string{"built", "file"}, built, read)
}
