package experiments

import "fmt"

// ThreadedHint names the experiments that run on the parallel engine,
// for the message that refuses --threads elsewhere. Keep it in step with
// the experiments that set Experiment.Threads or Experiment.Engine (a
// test checks it).
const ThreadedHint = "background, incast and permutation, and with engine=partitioned ina-leafspine, ina-testbed and mixed-fabric"

// The values of an engine parameter (Experiment.Engine).
const (
	EngineSequential  = "sequential"
	EnginePartitioned = "partitioned"
)

// EngineParam is the engine parameter of an experiment whose partitioned
// model is opt-in (Experiment.Engine): sequential (the default) or
// partitioned.
func EngineParam(name, detail string) Param {
	return EnumParam(name, EngineSequential, []string{EngineSequential, EnginePartitioned},
		"simulation engine: sequential (the documented results) or partitioned, which runs on the parallel engine at any "+
			"--threads with the same results at every thread count; its results differ from the sequential engine's "+
			"(ties between partitions break differently"+detail+")")
}

// Partitioned reports whether a run of e with parameters ps runs on the
// parallel engine (partitioned at every thread count).
func (e *Experiment) Partitioned(ps Params) bool {
	if e.Threads {
		return true
	}
	return e.Engine != "" && ps.Has(e.Engine) && ps.String(e.Engine) == EnginePartitioned
}

// ThreadsRefusal is the error for running the points pts of e at
// threads threads when one of them stays on the sequential engine, or
// nil.
func ThreadsRefusal(e *Experiment, threads int, pts Points) error {
	if threads <= 1 || e.Threads {
		return nil
	}
	if e.Engine == "" {
		return e.threadsRefusal(threads, Params{})
	}
	for i := range pts.Len() {
		if err := e.threadsRefusal(threads, pts.Point(i)); err != nil {
			return err
		}
	}
	return nil
}

// threadsRefusal is the error for threads > 1 on a run of e with
// parameters ps that stays on the sequential engine, or nil.
func (e *Experiment) threadsRefusal(threads int, ps Params) error {
	if threads <= 1 || e.Partitioned(ps) {
		return nil
	}
	if e.Engine != "" {
		return fmt.Errorf("%s runs on the parallel engine only with --set %s=%s (the default %s=%s keeps the sequential engine's "+
			"documented results; partitioned results differ from them in ties between partitions and in the job state shared "+
			"across partitions, folded at window barriers one lookahead late)",
			e.Name, e.Engine, EnginePartitioned, e.Engine, EngineSequential)
	}
	return fmt.Errorf("%s runs on the sequential engine only; --threads above 1 is for %s", e.Name, ThreadedHint)
}
