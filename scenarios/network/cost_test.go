package network

import (
	"testing"

	"syncsim/experiments/exptest"
)

// TestCostModels: the cost models --dry-run prints estimate the events of
// tiny real runs within a factor of 2 (exptest.CheckCost), across the
// parameters they model: rates, durations, sender and host counts,
// one-shot flows, topologies, sampling, the transport; for background the
// workload, load, fabric size and rate, and an oversubscribed spine. Events only: CPU
// per event depends on the machine and its load.
func TestCostModels(t *testing.T) {
	for _, c := range []struct {
		exp  string
		sets []string
	}{
		{"incast", []string{"duration_ms=2"}},
		{"incast", []string{"duration_ms=4", "senders=32"}},
		{"incast", []string{"duration_ms=2", "link_gbps=100"}},
		{"incast", []string{"duration_ms=2", "sample_us=0", "transport=newreno"}},
		{"incast", []string{"duration_ms=5", "flow_kb=100"}},
		{"incast", []string{"duration_ms=2", "delay_us=50"}},
		{"permutation", []string{"duration_ms=0.2", "leaves=2", "hosts_per_leaf=4", "spines=2"}},
		{"permutation", []string{"duration_ms=0.2", "leaves=4", "hosts_per_leaf=8", "spines=4"}},
		{"permutation", []string{"duration_ms=0.5", "leaves=2", "hosts_per_leaf=4", "spines=2", "host_gbps=10", "fabric_gbps=10"}},
		{"permutation", []string{"duration_ms=0.5", "topology=star", "leaves=2", "hosts_per_leaf=4"}},
		{"permutation", []string{"duration_ms=0.5", "topology=dumbbell", "hosts_per_leaf=4", "spines=2"}},
		{"permutation", []string{"duration_ms=1", "leaves=2", "hosts_per_leaf=4", "spines=2", "flow_kb=100"}},
		// background's calibration points are 2 ms of Hadoop at load 0.5
		// on 2 x 2 x 8 hosts, the same on one leaf, and Cache Follower.
		{"background", []string{"spines=2", "leaves=4", "hosts_per_leaf=4", "duration_ms=1", "workload=websearch", "load=0.3"}},
		{"background", []string{"spines=2", "leaves=2", "hosts_per_leaf=8", "duration_ms=5", "host_gbps=10", "fabric_gbps=10", "load=0.7"}},
		{"background", []string{"spines=2", "leaves=2", "hosts_per_leaf=6", "duration_ms=1", "transport=newreno", "workload=cachefollower"}},
		{"background", []string{"spines=1", "leaves=4", "hosts_per_leaf=8", "duration_ms=1", "fabric_gbps=25"}},
	} {
		exptest.CheckCost(t, lookup(t, c.exp), 1, c.sets...)
	}
}
