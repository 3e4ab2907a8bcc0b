package inagg

import (
	"fmt"
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// TestPartitionedMatchesSequentialLossless: on a point that loses no
// packet, the partitioned engine books the same iteration times as the
// sequential engine, for every protocol: the iteration books folded at
// barriers take the latest worker's own finish time, and the job-scope AWD
// read one lookahead late changes nothing while it does not bind.
func TestPartitionedMatchesSequentialLossless(t *testing.T) {
	for _, proto := range []Protocol{PAATP, StrawAsyn, ATP, SwitchML} {
		t.Run(proto.String(), func(t *testing.T) {
			seq := runLossless(t, proto, false)
			par := runLossless(t, proto, true)
			if seq != par {
				t.Fatalf("partitioned:\n%s\nsequential:\n%s", par, seq)
			}
		})
	}
}

func runLossless(t *testing.T, proto Protocol, partitioned bool) string {
	t.Helper()
	net := netsim.NewNetwork(netsim.New(11))
	f, err := topologies.LeafSpine(net, topologies.LeafSpineConfig{Spines: 2, Leaves: 3, HostsPerLeaf: 4,
		HostRate: 100 * netsim.Gbps, FabricRate: 100 * netsim.Gbps, Delay: 2 * netsim.Microsecond,
		Queue: switchmodel.QueueConfig{Buffer: 4 * netsim.Megabyte, ECNBytes: 30 * netsim.Kilobyte}})
	if err != nil {
		t.Fatal(err)
	}
	if partitioned {
		if _, err := net.Partition(net.AutoPartition(2)); err != nil {
			t.Fatal(err)
		}
		if err := net.Sim.SetThreads(3); err != nil {
			t.Fatal(err)
		}
	}
	ac := DefaultAggregatorConfig()
	ac.BDPPackets = 700
	agg, err := NewAggregator(f.Edge[1], ac)
	if err != nil {
		t.Fatal(err)
	}
	h := f.Hosts
	j, err := NewJob(net, JobConfig{ID: 0, Protocol: proto, Workers: []*netsim.Host{h[0], h[1], h[8], h[9]}, PS: h[4],
		Switch: agg, Gradient: 200 * netsim.Kilobyte, Iterations: 3, OnDone: func(*Job) { net.Sim.Stop() }})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Start(); err != nil {
		t.Fatal(err)
	}
	net.Sim.Run(netsim.Second)
	if err := j.Check(); err != nil {
		t.Fatal(err)
	}
	st := j.TotalWorkerStats()
	if d := net.Stats().Dropped; d != 0 || st.Retransmits != 0 {
		t.Fatalf("the point lost %d packets (%d retransmissions); it must be lossless", d, st.Retransmits)
	}
	return fmt.Sprintf("done at %v, iterations %v, results %d, AWD cuts %d", j.DoneAt(), j.IterationTimes(), st.Results, j.AWDCuts())
}
