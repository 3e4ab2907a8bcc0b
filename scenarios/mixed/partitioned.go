package mixed

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/netsim"
)

// mixed-fabric on the parallel engine (engine=partitioned). The fabric is
// partitioned by setup.Parallel (a leaf with its hosts per partition,
// the spines apart) before anything is made on it, and every tenant keeps
// what it shares across partitions apart:
//
//   - the INA jobs are inagg's, partition-safe (inagg/partitioned.go): a
//     job ends at the barrier after its last worker finished, booked at
//     its exact end;
//   - the ring jobs run ring_partitioned.go's ring on the persistent
//     connections of transport.Persistent, partition-safe
//     (transport/persistent_part.go), with their transfer books per
//     partition (books.go);
//   - the background generator is a feeder of the coordinator
//     (workloads/background/partitioned.go), measuring online per
//     partition, merged in partition order;
//   - a partial-reduce job runs its syncctl cluster on one partition and
//     its groups' rings on their hosts' (pr_partitioned.go);
//   - the count of jobs left and the run's stop are touched only at
//     barriers, by the jobs' barrier hooks.

// mixedEngineParam is mixed-fabric's engine parameter.
func mixedEngineParam() experiments.Param {
	return experiments.EngineParam("engine", "; the INA jobs' shared asynchronous degree window and iteration books are folded at "+
		"window barriers, a ring host learns that its send to another partition completed one lookahead late, and a ring "+
		"iteration's compute starts at the barrier when it is shorter than one lookahead, and a partial-reduce job's controller "+
		"and the hosts of its groups reach each other one lookahead late across partitions; see docs/performance.md, The parallel engine")
}

// validateEngine: engine=partitioned needs cables of positive delay (the
// lookahead).
func validateEngine(ps experiments.Params) error {
	if ps.String("engine") != experiments.EnginePartitioned {
		return nil
	}
	if ps.Float("delay_us") <= 0 {
		return fmt.Errorf("engine=%s needs delay_us > 0: the cables' delay is the lookahead of its windows", experiments.EnginePartitioned)
	}
	return nil
}

// end is the run's end: on the sequential engine the instant the last
// job finished or the limit; on the parallel engine, where the run stops
// at the barrier after the last job's end, that job's end when every job
// finished (the barrier's time otherwise).
func (rig *mixedRig) end() netsim.Time {
	now := rig.sim.Now()
	if !rig.part || rig.left > 0 {
		return now
	}
	var last netsim.Time
	for _, j := range rig.ina {
		last = max(last, j.DoneAt())
	}
	for _, j := range rig.rings {
		last = max(last, j.doneAt)
	}
	for _, j := range rig.prs {
		last = max(last, j.doneAt)
	}
	return last
}
