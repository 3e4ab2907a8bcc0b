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

// Parallel puts the network of run r on the parallel engine when r's
// experiment runs on it (Experiment.Threads, or Experiment.Engine set to
// partitioned in r's parameters): it partitions net from its
// topology, sets the threads r asks for, and, with r.EngineProfile, has
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
	note, err := net.Partition(net.AutoPartition(HostsPerPartition))
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
