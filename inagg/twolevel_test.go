package inagg

import (
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// TestATPTwoLevelAggregation: an ATP job of 5 workers over 3 racks (2 + 2
// in racks 0 and 1, 1 beside the PS in rack 2) on a leaf-spine of one
// spine, with first-level aggregation at racks 0 and 1. Each of those
// racks sums its two workers' gradients and sends one rack aggregate per
// sequence up to the spine, so the spine -> rack 2 link carries, per
// sequence, 2 rack aggregates (no gradient), and the PS's rack switch
// completes every sequence from 2 rack aggregates and its own worker's
// gradient. The sums are exact, no aggregator leaks, packets are
// conserved; without first-level aggregation the same link carries the 4
// remote workers' gradients.
func TestATPTwoLevelAggregation(t *testing.T) {
	const grad = 100 * INAPayloadBytes
	for _, twoLevel := range []bool{true, false} {
		net := netsim.NewNetwork(netsim.New(3))
		f, err := topologies.LeafSpine(net, topologies.LeafSpineConfig{Spines: 1, Leaves: 3, HostsPerLeaf: 3,
			HostRate: 100 * netsim.Gbps, FabricRate: 100 * netsim.Gbps, Delay: 2 * netsim.Microsecond,
			Queue: switchmodel.QueueConfig{Buffer: 1 << 20}})
		if err != nil {
			t.Fatal(err)
		}
		aggs := make([]*Aggregator, 3)
		for i := range aggs {
			if aggs[i], err = NewAggregator(f.Edge[i], DefaultAggregatorConfig()); err != nil {
				t.Fatal(err)
			}
		}
		h := f.Hosts
		workers := []*netsim.Host{h[0], h[1], h[3], h[4], h[6]}
		cfg := JobConfig{ID: 0, Protocol: ATP, Workers: workers, PS: h[7], Switch: aggs[2], Gradient: grad, Iterations: 2}
		if twoLevel {
			cfg.FirstLevel = []*Aggregator{aggs[0], aggs[0], aggs[1], aggs[1], aggs[2]}
		}
		j, err := NewJob(net, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Start(); err != nil {
			t.Fatal(err)
		}
		net.Sim.Run(netsim.Second)
		for _, a := range aggs {
			checkBooks(t, net, a, j)
		}
		p := uint64(j.PacketsPerIteration()) * 2
		down := f.PortBetween(f.Core[0].ID(), f.Edge[2].ID()) // spine -> the PS's rack
		pkt := uint64(INAHeaderBytes + INAPayloadBytes)
		want := 4 * p * pkt // the remote workers' gradients
		if twoLevel {
			want = 2 * p * pkt // one aggregate per remote rack
			for r := range 2 {
				if st := aggs[r].Stats; st.Completions != p || st.Level1Passed != 0 {
					t.Fatalf("rack %d completed %d rack aggregates (passed %d on), want %d", r, st.Completions, st.Level1Passed, p)
				}
			}
		}
		if down.TxBytes != want || aggs[2].Stats.Completions != p || j.Stats().PSContributions != 0 {
			t.Fatalf("two-level %v: spine -> PS rack carried %d B (want %d), PS rack completed %d of %d, %d contributions summed at the PS",
				twoLevel, down.TxBytes, want, aggs[2].Stats.Completions, p, j.Stats().PSContributions)
		}
	}
	// With losses (20 KB buffers, a larger gradient) the books still hold:
	// resends release partial aggregates at both levels to the PS.
	net := netsim.NewNetwork(netsim.New(5))
	f, err := topologies.LeafSpine(net, topologies.LeafSpineConfig{Spines: 1, Leaves: 3, HostsPerLeaf: 3,
		HostRate: 100 * netsim.Gbps, FabricRate: 100 * netsim.Gbps, Delay: 2 * netsim.Microsecond,
		Queue: switchmodel.QueueConfig{Buffer: 20 * netsim.Kilobyte}})
	if err != nil {
		t.Fatal(err)
	}
	var aggs []*Aggregator
	for i := range 3 {
		a, err := NewAggregator(f.Edge[i], DefaultAggregatorConfig())
		if err != nil {
			t.Fatal(err)
		}
		aggs = append(aggs, a)
	}
	h := f.Hosts
	j, err := NewJob(net, JobConfig{ID: 0, Protocol: ATP, Workers: []*netsim.Host{h[0], h[1], h[2], h[3], h[4], h[6]}, PS: h[7],
		Switch: aggs[2], Gradient: 2 * netsim.Megabyte, Iterations: 2, FirstLevel: []*Aggregator{aggs[0], aggs[0], aggs[0], aggs[1], aggs[1], nil}})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Start(); err != nil {
		t.Fatal(err)
	}
	net.Sim.Run(10 * netsim.Second)
	for _, a := range aggs {
		checkBooks(t, net, a, j)
	}
	if net.Stats().Dropped == 0 || j.TotalWorkerStats().Retransmits == 0 || aggs[0].Stats.Flushes+aggs[1].Stats.Flushes == 0 {
		t.Fatalf("%d drops, %d resends, %d first-level flushes: the lossy case lost nothing", net.Stats().Dropped,
			j.TotalWorkerStats().Retransmits, aggs[0].Stats.Flushes+aggs[1].Stats.Flushes)
	}
	// Only ATP aggregates at two levels.
	net = netsim.NewNetwork(netsim.New(3))
	f, _ = topologies.LeafSpine(net, topologies.LeafSpineConfig{Spines: 1, Leaves: 2, HostsPerLeaf: 2,
		HostRate: 100 * netsim.Gbps, FabricRate: 100 * netsim.Gbps, Delay: netsim.Microsecond})
	a0, _ := NewAggregator(f.Edge[0], DefaultAggregatorConfig())
	a1, _ := NewAggregator(f.Edge[1], DefaultAggregatorConfig())
	_, err = NewJob(net, JobConfig{ID: 0, Protocol: PAATP, Workers: f.Hosts[:2], PS: f.Hosts[2], Switch: a1,
		Gradient: grad, Iterations: 1, FirstLevel: []*Aggregator{a0, a0}})
	if err == nil {
		t.Fatal("PA-ATP accepted first-level aggregation")
	}
}
