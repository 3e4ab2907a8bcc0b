package inagg

import (
	"strings"
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// TestTreeRefusals: NewJob refuses an aggregation tree that is not ATP's,
// that is not a tree, or that the routes do not follow, each in one line,
// and accepts the same tree once the labels pin the paths to it. The
// fabric is a leaf-spine of 2 spines and 3 leaves of 2 hosts; the PS is on
// leaf 2 and the tree's level is spine 0.
func TestTreeRefusals(t *testing.T) {
	net := netsim.NewNetwork(netsim.New(1))
	f, err := topologies.LeafSpine(net, topologies.LeafSpineConfig{Spines: 2, Leaves: 3, HostsPerLeaf: 2,
		HostRate: 100 * netsim.Gbps, FabricRate: 100 * netsim.Gbps, Delay: netsim.Microsecond,
		Queue: switchmodel.QueueConfig{Buffer: netsim.MiB}})
	if err != nil {
		t.Fatal(err)
	}
	agg := map[*switchmodel.Switch]*Aggregator{}
	for _, sw := range f.Switches {
		if agg[sw], err = NewAggregator(sw, DefaultAggregatorConfig()); err != nil {
			t.Fatal(err)
		}
	}
	h := f.Hosts
	workers := []*netsim.Host{h[0], h[1], h[2]}
	spine := agg[f.Core[0]]
	// Pinned: each worker's label crosses spine 0 both ways.
	pinned := make([]uint64, len(workers))
	for i, w := range workers {
		if pinned[i], err = f.FlowForPath(w.ID(), h[5].ID(), 0); err != nil {
			t.Fatal(err)
		}
	}
	// Unpinned: the first label whose path crosses spine 1.
	other, err := f.FlowForPath(h[2].ID(), h[5].ID(), 1)
	if err != nil {
		t.Fatal(err)
	}
	tree := [][]*Aggregator{{agg[f.Edge[0]], spine}, {agg[f.Edge[0]], spine}, {spine}}
	cfg := func(proto Protocol, tree [][]*Aggregator, flows []uint64) JobConfig {
		return JobConfig{ID: 0, Protocol: proto, Workers: workers, PS: h[5], Switch: agg[f.Edge[2]], Gradient: 10 * INAPayloadBytes,
			Iterations: 1, Tree: tree, Flows: flows}
	}
	for _, c := range []struct {
		name string
		cfg  JobConfig
		want string
	}{
		{"pa-atp", cfg(PAATP, tree, pinned), "tree aggregation is ATP's; pa-atp aggregates at one switch"},
		{"root in a chain", cfg(ATP, [][]*Aggregator{{spine}, {spine}, {spine, agg[f.Edge[2]]}}, pinned), "is the tree's root"},
		{"not a tree", cfg(ATP, [][]*Aggregator{{agg[f.Edge[0]], spine}, {agg[f.Edge[0]]}, {spine}}, pinned), "by different switches: not a tree"},
		{"unpinned", cfg(ATP, tree, []uint64{pinned[0], pinned[1], other}), "worker 2: its packets to the PS cross the job's switches [leaf2] and back [leaf2], not its tree chain [spine0 leaf2]"},
	} {
		_, err := NewJob(net, c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", c.name, err, c.want)
		}
	}
	j, err := NewJob(net, cfg(ATP, tree, pinned))
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Start(); err != nil {
		t.Fatal(err)
	}
	net.Sim.Run(netsim.Second)
	for _, a := range agg {
		checkBooks(t, net, a, j)
	}
	p := uint64(j.PacketsPerIteration())
	if st := spine.Stats; st.Absorbed != 2*p || st.Completions != p {
		t.Fatalf("spine 0 absorbed %d and completed %d, want %d and %d", st.Absorbed, st.Completions, 2*p, p)
	}
}
