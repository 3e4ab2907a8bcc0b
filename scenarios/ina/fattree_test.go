package ina

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"syncsim/experiments/exptest"
	"syncsim/netsim"
	"syncsim/topologies"
)

// TestINAFatTree runs ina-leafspine on a k = 4 fat-tree, built and read
// from the topology file WriteFatTree writes, under PA-ATP and ATP with
// both placements: every job finishes, the jobs' gradients are
// aggregated in the network (at the PS's edge switch, and under
// two-level also at the workers' edges), and the built and the read
// fat-tree give identical metrics at one seed.
func TestINAFatTree(t *testing.T) {
	c := topologies.DefaultFatTree()
	c.K, c.HostsPerEdge = 4, 2
	c.HostRate, c.FabricRate, c.Delay = 10*netsim.Gbps, 10*netsim.Gbps, 2*netsim.Microsecond
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
	base := with(tinyLeafSpine, "workers=5")
	for _, proto := range [][]string{{"protocol=pa-atp"}, {"protocol=atp"}, {"protocol=atp", "agg_placement=two-level"}} {
		built := runINA(t, "ina-leafspine", 4, append(with(base, proto...), "topology=fattree", "k=4")...)
		read := runINA(t, "ina-leafspine", 4, append(with(base, proto...), "topology_file="+path)...)
		if built["jobs_done"] != 2 || built["switch_agg_frac"] < 0.5 {
			t.Errorf("%v: %v jobs done, switch_agg_frac %v", proto, built["jobs_done"], built["switch_agg_frac"])
		}
		exptest.SameMetrics(t, [2]string{fmt.Sprint(proto, " built"), "file"}, built, read)
	}
}
