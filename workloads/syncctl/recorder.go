package syncctl

// Recorder hears the schedule a cluster's controller produces, for a
// learner that applies it to real parameter vectors (scenarios'
// learnrig, package workloads/learn). Calls happen at the simulated
// moment of the event.
type Recorder interface {
	// Computed: worker w finished a round of local training (its model
	// changed only by this computation since its last synchronisation).
	Computed(w int)
	// Synced: the group's (weighted) all-reduce completed; every member
	// now holds the group's average and starts computing again. The
	// members did not compute while it ran.
	Synced(group []int)
}

// nopRecorder hears nothing.
type nopRecorder struct{}

func (nopRecorder) Computed(int) {}
func (nopRecorder) Synced([]int) {}

// rec is the cluster's recorder (a no-op one when none is configured).
func (c *Cluster) rec() Recorder {
	if c.cfg.Recorder == nil {
		return nopRecorder{}
	}
	return c.cfg.Recorder
}
