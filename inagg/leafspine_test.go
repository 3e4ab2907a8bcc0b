package inagg

import (
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// TestLeafSpineJobsAcrossRacks runs jobs whose workers span racks, each
// aggregated at its PS's leaf, with another job's aggregator on the way
// (jobs not registered at a switch pass through it untouched).
func TestLeafSpineJobsAcrossRacks(t *testing.T) {
	for _, proto := range []Protocol{PAATP, ATP, SwitchML, StrawAsyn, BytePS} {
		t.Run(proto.String(), func(t *testing.T) {
			net := netsim.NewNetwork(netsim.New(3))
			cfg := topologies.LeafSpineConfig{Spines: 2, Leaves: 3, HostsPerLeaf: 4,
				HostRate: 100 * netsim.Gbps, FabricRate: 100 * netsim.Gbps, Delay: 2 * netsim.Microsecond,
				Queue: switchmodel.QueueConfig{Buffer: 256 * netsim.Kilobyte, ECNBytes: 30 * netsim.Kilobyte}}
			f, err := topologies.LeafSpine(net, cfg)
			if err != nil {
				t.Fatal(err)
			}
			aggs := make([]*Aggregator, len(f.Edge))
			for i, sw := range f.Edge {
				ac := DefaultAggregatorConfig()
				ac.BDPPackets = 700
				if aggs[i], err = NewAggregator(sw, ac); err != nil {
					t.Fatal(err)
				}
			}
			h := f.Hosts
			jobs := []struct {
				workers []*netsim.Host
				ps      *netsim.Host
				leaf    int
			}{
				{[]*netsim.Host{h[0], h[1], h[4], h[5], h[8]}, h[9], 2},
				{[]*netsim.Host{h[2], h[6], h[10], h[11]}, h[3], 0},
			}
			var js []*Job
			for id, jb := range jobs {
				j, err := NewJob(net, JobConfig{ID: id, Protocol: proto, Workers: jb.workers, PS: jb.ps,
					Switch: aggs[jb.leaf], Gradient: 500 * netsim.Kilobyte, Iterations: 2})
				if err != nil {
					t.Fatal(err)
				}
				if err := j.Start(); err != nil {
					t.Fatal(err)
				}
				js = append(js, j)
			}
			net.Sim.Run(netsim.Second)
			for _, j := range js {
				if err := j.Check(); err != nil {
					t.Fatal(err)
				}
				if proto.INA() && j.Stats().SwitchContributions == 0 {
					t.Fatalf("job %d aggregated nothing at its switch", j.ID())
				}
			}
			for _, a := range aggs {
				if err := a.CheckLeaks(); err != nil {
					t.Fatal(err)
				}
			}
			if err := net.CheckConservation(); err != nil {
				t.Fatal(err)
			}
			t.Logf("AJCT %v / %v, drops %d", js[0].AJCT(), js[1].AJCT(), net.Stats().Dropped)
		})
	}
}
