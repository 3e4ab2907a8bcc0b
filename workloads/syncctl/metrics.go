package syncctl

// Metrics are the selective-reduce paper's evaluation metrics (Sec. IV-A2)
// plus per-worker idle time. Only synchronisations that completed within
// the run count.
type Metrics struct {
	// AvgSyncTime is the mean duration (seconds) of a completed
	// synchronisation, from launch to completion ("average sync time").
	AvgSyncTime float64
	// AvgSyncScale is the mean number of workers in a completed
	// synchronisation ("average sync scale").
	AvgSyncScale float64
	// TotalSync is the number of completed synchronisations ("total sync").
	TotalSync int
	// TotalIteration is the number of training computations completed by
	// all workers ("total iteration": the utilisation of the accelerators).
	TotalIteration int
	// WastedWait is the wasted wait time per worker in seconds, averaged
	// over the n workers: a worker that BPAWR told to wait (wait and
	// replace) and that was finally launched in a group no newly ready
	// worker joined wasted the time from the start of its wait to the
	// launch (see SelectiveReduce).
	WastedWait float64
	// Idle is the mean time per worker (seconds) spent in the ready queue,
	// neither computing nor synchronising (with Config.Buckets, from the
	// end of its backprop, not from its ready signal).
	Idle float64
	// Launched counts launched synchronisations, completed or not.
	Launched int
	// Events is the number of simulator events fired.
	Events uint64
}

func (c *Cluster) metrics() Metrics {
	m := Metrics{TotalSync: c.syncs, Launched: c.launched, Events: c.sim.Events()}
	if c.syncs > 0 {
		m.AvgSyncTime = c.syncTime.Seconds() / float64(c.syncs)
		m.AvgSyncScale = float64(c.syncScale) / float64(c.syncs)
	}
	now := c.sim.Now()
	var idle, wasted float64
	for i := range c.w {
		x := &c.w[i]
		m.TotalIteration += x.iters
		idle += x.idle.Seconds()
		if x.state == ready {
			idle += c.idleSince(i, now).Seconds()
		}
		wasted += x.wasted.Seconds()
	}
	n := float64(len(c.w))
	m.Idle = idle / n
	m.WastedWait = wasted / n
	return m
}
