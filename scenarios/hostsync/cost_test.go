package hostsync

import (
	"testing"

	"syncsim/experiments/exptest"
)

// TestCostModels: the host-synchronisation experiments' cost models
// estimate the events of tiny real runs within a factor of 2
// (exptest.CheckCost), at points other than those their constants were
// calibrated on (named beside each constant): schemes, worker counts and
// p, traces, bandwidth laws and processes, stragglers, fidelities,
// topologies with background, dssync's models, layouts, cuts and
// competing tasks, crew's networks, chunks and durations. Events only:
// CPU per event depends on the machine and its load.
func TestCostModels(t *testing.T) {
	for _, c := range []struct {
		exp  string
		sets []string
	}{
		{"sr-example", []string{"scheme=bandwidth-aware", "p=3"}},
		{"sr-example", []string{"scheme=selective-reduce", "horizon_s=0.5"}},
		{"sr-cluster", []string{"n=120", "p_frac=0.1", "trace=transformer", "fidelity=flow", "duration_s=20"}},
		{"sr-cluster", []string{"n=30", "scheme=partial-reduce", "p_frac=0.5", "trace=uniform", "compute_ms=100", "duration_s=60", "lambda=0.1"}},
		{"sr-cluster", []string{"n=16", "scheme=partial-reduce", "fidelity=flow", "topology=leaf-spine", "racks=4", "bg_load=0.2",
			"bg_workload=websearch", "duration_s=3"}},
		{"sr-cluster", []string{"n=40", "bw_model=walk", "duration_s=50", "fidelity=flow"}},
		{"sr-cluster", []string{"n=60", "scheme=allreduce", "stragglers=6", "model_mb=100", "duration_s=40"}},
		{"sr-cluster", []string{"n=6", "fidelity=packet", "model_mb=1", "duration_s=4", "scheme=partial-reduce", "p_frac=0.5"}},
		{"sr-cluster", []string{"n=50", "dt_ms=50", "theta=3", "duration_s=60"}},
		{"sr-cluster", []string{"n=40", "fidelity=flow", "overlap=layer", "duration_s=20"}},
		{"sr-cluster", []string{"n=30", "scheme=partial-reduce", "overlap=layer", "bucket_mib=0", "layer_model=vgg19", "duration_s=30"}},
		{"dssync", []string{"iterations=150", "model=wrn-50-2", "scheme=hier-allreduce", "scenario=inter-rack"}},
		{"dssync", []string{"iterations=60", "layout=even", "workers=12", "racks=3", "scenario=both"}},
		{"dssync", []string{"iterations=40", "model=bert-base", "overlap=none", "scheme=asp"}},
		{"dssync", []string{"iterations=30", "scheme=tree-allreduce", "tree_chunks=8", "layers=4"}},
		{"dssync", []string{"iterations=50", "model=custom", "model_mb=20", "compute_ms=30", "scheme=gossip", "background=flows", "bg_flows=2"}},
		{"dssync", []string{"iterations=3", "fidelity=packet", "model=custom", "model_mb=5", "compute_ms=20"}},
		{"crew-single", []string{"network=n2", "chunks=300", "n=40"}},
		{"crew-single", []string{"scheme=toa", "n=20", "p=8", "tree_segments=8", "anneal_steps=200"}},
		{"crew-single", []string{"scheme=a2a", "n=20", "p=8", "network=n2"}},
		{"crew-single", []string{"pipeline=block", "scheme=opr", "n=40", "p=8"}},
		{"crew-single", []string{"fidelity=packet", "n=6", "p=3", "model_mb=4", "network=n2", "latency=none", "chunks=100"}},
		{"crew-training", []string{"duration_s=10", "n=30", "p=5", "compute_scale=4", "model_scale=2", "chunks=200"}},
		{"crew-training", []string{"duration_s=6", "n=24", "p=6", "network=n2", "chunks=100", "trace=cnn"}},
		{"crew-training", []string{"duration_s=30", "n=24", "p=6", "scheme=opr", "chunks=100", "network=n2"}},
		{"crew-training", []string{"duration_s=120", "n=12", "p=3", "scheme=a2a", "model_mb=20"}},
		{"crew-training", []string{"fidelity=packet", "n=6", "p=3", "model_mb=4", "network=n2", "latency=const", "latency_ms=2", "duration_s=2", "chunks=100"}},
	} {
		exptest.CheckCost(t, lookup(t, c.exp), 1, c.sets...)
	}
}
