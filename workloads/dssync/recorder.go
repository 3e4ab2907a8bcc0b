package dssync

// Recorder hears the schedule a job's synchronisation produces, for a
// learner that applies it to real parameter vectors (scenarios'
// learnrig, package workloads/learn). Every call happens at the simulated
// moment of the event it reports. Piece l is the l-th synchronised piece
// (input side first); t is the iteration.
type Recorder interface {
	// Computed: worker w's gradients of iteration t are ready (its first
	// backward hook, Sec. V-A1). They were computed at the model in place
	// when t's forward pass began, which nothing changes until now.
	Computed(w, t int)
	// GroupAveraged: piece l of iteration t is averaged among members,
	// each with weight 1/len(members) (GroupSync: DS-Sync's groups, Sec.
	// III-A step 4, and BSP's one group).
	GroupAveraged(t, l int, members []int)
	// GossipSent: worker w, its piece l of iteration t ready, sends half
	// of it (and half its push-sum weight) to dst (GossipSync).
	GossipSent(w, dst, t, l int)
	// GossipMerged: worker w adds the half of piece l of iteration t that
	// src sent it; both its own send and src's have completed.
	GossipMerged(w, src, t, l int)
	// Pushed: worker w's gradient of piece l of iteration t has reached
	// the parameter server, which applies it now (ASPSync).
	Pushed(w, t, l int)
	// Pulled: the server starts sending worker w its current piece l (the
	// value w will hold once it arrives; w reads nothing before that).
	Pulled(w, t, l int)
	// IterationDone: every piece of iteration t is in place at worker w.
	IterationDone(w, t int)
}

// nopRecorder hears nothing.
type nopRecorder struct{}

func (nopRecorder) Computed(int, int)               {}
func (nopRecorder) GroupAveraged(int, int, []int)   {}
func (nopRecorder) GossipSent(int, int, int, int)   {}
func (nopRecorder) GossipMerged(int, int, int, int) {}
func (nopRecorder) Pushed(int, int, int)            {}
func (nopRecorder) Pulled(int, int, int)            {}
func (nopRecorder) IterationDone(int, int)          {}

// rec is the job's recorder (a no-op one when none is configured).
func (j *Job) rec() Recorder {
	if j.cfg.Recorder == nil {
		return nopRecorder{}
	}
	return j.cfg.Recorder
}
