package crew

// Recorder hears the schedule of a training run's partial reduces, for a
// learner that applies it to real parameter vectors (scenarios'
// learnrig, package workloads/learn). Calls happen at the simulated
// moment of the event.
type Recorder interface {
	// Computed: worker w finished a local training iteration.
	Computed(w int)
	// Formed: the controller formed partial reduce pid of members P. Their
	// models stay as they are until each holds the result: CREW gives
	// every member of P the same reduced model (strong consistency, Sec.
	// II; "following P-Reduce").
	Formed(pid int, members []int)
	// Holds: worker w holds every block of its partial reduce's result.
	Holds(w int)
	// Released: worker w leaves its abandoned partial reduce without the
	// result and trains on with its own model.
	Released(w int)
}

// nopRecorder hears nothing.
type nopRecorder struct{}

func (nopRecorder) Computed(int)      {}
func (nopRecorder) Formed(int, []int) {}
func (nopRecorder) Holds(int)         {}
func (nopRecorder) Released(int)      {}

// rec is the cluster's recorder (a no-op one when none is configured).
func (c *Cluster) rec() Recorder {
	if c.cfg.Recorder == nil {
		return nopRecorder{}
	}
	return c.cfg.Recorder
}
