package setup

import (
	"fmt"
	"runtime"
	"strings"

	"syncsim/experiments"
	"syncsim/netsim"
)

// HostsPerPartition is the most hosts a partition of the parallel engine
// takes with their switch (netsim.Network.AutoPartition): a leaf of a
// leaf-spine keeps its hosts; a star's hosts are cut into groups.
const HostsPerPartition = 8

// The values of the partitions parameter (PartitionsParam).
const (
	PartitionsSwitchHosts = "switch-hosts"
	PartitionsSwitchAlone = "switch-alone"
)

// PartitionsParam is the parameter that chooses how the parallel engine
// cuts the network (netsim.Network.AutoPartition or
// AutoPartitionSwitches). Experiments whose parallel engine is opt-in
// declare it OnlyWhen their engine parameter is partitioned.
func PartitionsParam() experiments.Param {
	return experiments.EnumParam("partitions", PartitionsSwitchHosts, []string{PartitionsSwitchHosts, PartitionsSwitchAlone},
		fmt.Sprintf("how the parallel engine cuts the network: switch-hosts (a switch with up to %d of its hosts, its further hosts "+
			"in partitions of %d; the documented results) or switch-alone (every switch a partition of its own, its hosts in "+
			"the same groups of %d: a leaf no longer shares a core with its hosts' transports, which raises the speedup beyond 8 "+
			"threads, and every host cable crosses partitions); the results differ between the two in ties between partitions "+
			"and are the same at every --threads; see docs/performance.md, The parallel engine at the sizes users run",
			HostsPerPartition, HostsPerPartition, HostsPerPartition))
}

// Parallel puts the network of run r on the parallel engine when r's
// experiment runs on it (Experiment.Threads, or Experiment.Engine set to
// partitioned in r's parameters): it partitions net from its topology
// (as r's partitions parameter says, PartitionsParam), sets the threads r asks for, and, with r.EngineProfile, has
// the run report its windows. Call it once the topology is built and
// before any host stack, flow or switch program is created on it. The
// partitions and windows depend on the topology only, so the results
// are the same at every thread count. Other experiments keep the
// sequential engine; for them it is an error to ask for more threads.
func Parallel(r *experiments.Run, net *netsim.Network) error {
	threads := max(r.Threads, 1)
	if !r.Exp.Partitioned(r.Params) {
		if threads > 1 {
			return fmt.Errorf("%s runs on the sequential engine only; --threads above 1 is for %s", r.Exp.Name, experiments.ThreadedHint)
		}
		return nil
	}
	cut := net.AutoPartition
	if r.Params.Has("partitions") && r.Params.String("partitions") == PartitionsSwitchAlone {
		cut = net.AutoPartitionSwitches
	}
	note, err := net.Partition(cut(HostsPerPartition))
	if err != nil {
		return err
	}
	sim := net.Sim
	if err := sim.SetThreads(threads); err != nil {
		return err
	}
	// Spinning between windows pays on cores of one's own and costs a
	// core another thread needs on a machine with more threads than cores.
	sim.SetSpin(threads*max(r.Concurrent, 1) <= runtime.NumCPU())
	if r.EngineProfile {
		prof := sim.EnableProfile()
		r.SetEngineReport(func() string {
			var b strings.Builder
			if note != "" {
				b.WriteString("note: " + note + "\n")
			}
			prof.Write(&b)
			return b.String()
		})
	}
	return nil
}
