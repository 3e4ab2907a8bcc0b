package inagg

import (
	"fmt"

	"syncsim/netsim"
)

// ID is the job's identifier.
func (j *Job) ID() int { return j.cfg.ID }

// Protocol is the job's protocol.
func (j *Job) Protocol() Protocol { return j.cfg.Protocol }

// Workers is the number of workers.
func (j *Job) Workers() int { return len(j.workers) }

// PacketsPerIteration is P, the gradient packets each worker sends per
// iteration (ceil(Gradient / payload)).
func (j *Job) PacketsPerIteration() int64 { return j.packets }

// PayloadBytes and HeaderBytes are the packet sizes in use.
func (j *Job) PayloadBytes() netsim.Bytes { return j.payload }

// HeaderBytes is the per-packet header (and GACK size) in use.
func (j *Job) HeaderBytes() netsim.Bytes { return j.hdr }

// Done reports whether every worker finished every iteration.
func (j *Job) Done() bool { return j.done }

// DoneAt is when the job finished (valid when Done).
func (j *Job) DoneAt() netsim.Time { return j.doneAt }

// IterationsDone is the number of iterations every worker has finished.
func (j *Job) IterationsDone() int {
	n := 0
	for n < len(j.finished) && j.finished[n] == len(j.workers) {
		n++
	}
	return n
}

// IterationTimes are the job's iteration times: iteration k ends when the
// last worker holds every result of k, and lasts from the end of k-1 (the
// job's start for k = 0). Only finished iterations are listed.
func (j *Job) IterationTimes() []netsim.Time {
	n := j.IterationsDone()
	out := make([]netsim.Time, n)
	prev := j.cfg.Start
	for k := 0; k < n; k++ {
		out[k] = j.iterEnd[k] - prev
		prev = j.iterEnd[k]
	}
	return out
}

// AJCT is the mean iteration time (PA-ATP Sec. V-A: "the average iteration
// time of model training"), or 0 before the first iteration ends.
func (j *Job) AJCT() netsim.Time {
	ts := j.IterationTimes()
	if len(ts) == 0 {
		return 0
	}
	var sum netsim.Time
	for _, t := range ts {
		sum += t
	}
	return sum / netsim.Time(len(ts))
}

// IterationsPerSecond is the training throughput in iterations per second
// of simulated time over the finished iterations (multiply by the batch
// size for samples per second, PA-ATP Sec. V-A "training throughput").
func (j *Job) IterationsPerSecond() float64 {
	n := j.IterationsDone()
	if n == 0 {
		return 0
	}
	return float64(n) / (j.iterEnd[n-1] - j.cfg.Start).Seconds()
}

// WorkerIterationEnds returns when worker w finished each of its
// iterations.
func (j *Job) WorkerIterationEnds(w int) []netsim.Time {
	return append([]netsim.Time(nil), j.workers[w].finish...)
}

// WorkerStats returns worker w's counters.
func (j *Job) WorkerStats(w int) WorkerStats { return j.workers[w].stats }

// TotalWorkerStats sums the counters over the job's workers.
func (j *Job) TotalWorkerStats() WorkerStats {
	var t WorkerStats
	for _, w := range j.workers {
		s := w.stats
		t.Sent += s.Sent
		t.SentBytes += s.SentBytes
		t.Retransmits += s.Retransmits
		t.FastRetx += s.FastRetx
		t.Timeouts += s.Timeouts
		t.GACKs += s.GACKs
		t.Results += s.Results
		t.DupResults += s.DupResults
		t.BadResults += s.BadResults
		t.Pulls += s.Pulls
	}
	return t
}

// Stats returns the job's contribution books.
func (j *Job) Stats() JobStats { return j.stats }

// PSStats returns the parameter server's counters.
func (j *Job) PSStats() PSStats { return j.ps.stats }

// SwitchAggregatedBytes and PSAggregatedBytes are the gradient payload
// bytes summed at the switch and at the PS (contributions x payload).
func (j *Job) SwitchAggregatedBytes() float64 {
	return float64(j.stats.SwitchContributions) * float64(j.cfg.Gradient) / float64(j.packets)
}

// PSAggregatedBytes is the gradient payload summed at the PS.
func (j *Job) PSAggregatedBytes() float64 {
	return float64(j.stats.PSContributions) * float64(j.cfg.Gradient) / float64(j.packets)
}

// WindowState is a snapshot of one worker's windows, for time series.
type WindowState struct {
	CWD, AWD, Alpha, Beta float64 // AWD and Beta are 0 without the asynchrony limit
	LastGACK, LastAACK    int64
	SndNext               int64
	// CWDCuts counts congestion-window cuts on ECN (Eq. 1; under ATP the
	// window-closing results that halved a thread's window); D is the
	// decreasing factor of the last one (0 under ATP).
	CWDCuts uint64
	D       float64
	// WindowIncreases counts ATP's window-closing results that grew a
	// thread's window by ATPIncreaseBytes (0 for the other protocols).
	WindowIncreases uint64
	// Threads are the windows of ATP's sending threads in packets (CWD is
	// their sum); nil for the other protocols.
	Threads []float64
	// AWDCuts, AWDIncrements, AWDPeakSum and AWDDropSum describe the AWD
	// sawtooth (Sec. III-C): cuts by Eq. 2, +1 increments per round, and
	// the sums of AWD before each cut and of the reductions. With AWDJob
	// every worker reports the job's AWD (see Job.AWDCuts).
	AWDCuts, AWDIncrements uint64
	AWDPeakSum, AWDDropSum float64
}

// AWDBoundFrac is the fraction of its workers' time, from the job's start
// to its end (or now), during which AWD held them back: the next new
// sequence was past last_AACK + AWD but within last_GACK + CWD. 0 without
// the asynchrony limit.
func (j *Job) AWDBoundFrac() float64 {
	end := j.net.Sim.Now()
	if j.done {
		end = j.doneAt
	}
	if end <= j.cfg.Start {
		return 0
	}
	var t netsim.Time
	for _, w := range j.workers {
		t += w.awdTime
		if w.awdBound {
			t += end - w.awdSince
		}
	}
	return float64(t) / (float64(len(j.workers)) * float64(end-j.cfg.Start))
}

// AWDBoundNow is the fraction of the job's workers that AWD holds back now.
func (j *Job) AWDBoundNow() float64 {
	n := 0
	for _, w := range j.workers {
		if w.awdBound {
			n++
		}
	}
	return float64(n) / float64(len(j.workers))
}

// AWDCuts is the number of cuts of the job's asynchronous degree windows
// (Eq. 2): of its one AWD with AWDJob, summed over its workers' with
// AWDWorker; 0 without the asynchrony limit.
func (j *Job) AWDCuts() uint64 {
	var n uint64
	seen := map[*awdCtl]bool{}
	for _, w := range j.workers {
		if c, ok := w.ctl.(*asyncCtl); ok && c.limit && !seen[c.awd] {
			seen[c.awd] = true
			n += c.awd.cuts
		}
	}
	return n
}

// Window returns worker w's current windows.
func (j *Job) Window(w int) WindowState {
	wk := j.workers[w]
	s := WindowState{LastGACK: wk.lastGACK, LastAACK: wk.lastAACK, SndNext: wk.sndNext}
	switch c := wk.ctl.(type) {
	case *asyncCtl:
		s.CWD, s.Alpha, s.CWDCuts, s.D = c.cwd, c.alpha, c.cuts, c.lastD
		if c.limit {
			a := c.awd
			s.AWD, s.Beta = a.awd, a.beta
			s.AWDCuts, s.AWDIncrements = a.cuts, a.increments
			s.AWDPeakSum, s.AWDDropSum = a.peakSum, a.dropSum
		}
	case *atpCtl:
		s.CWD, s.CWDCuts, s.WindowIncreases = c.cwnd(), c.halvings, c.increases
		s.Threads = c.threadWindows()
	case *switchmlCtl:
		s.CWD = float64(c.pool)
	}
	return s
}

// Check verifies the job's books once it is done: every worker received
// every result exactly right, the PS saw nothing stale, and the switch and
// PS contributions add up to workers x packets x iterations.
func (j *Job) Check() error {
	if !j.done {
		return fmt.Errorf("inagg: job %d not done (%d of %d iterations)", j.cfg.ID, j.IterationsDone(), j.cfg.Iterations)
	}
	want := uint64(len(j.workers)) * uint64(j.packets) * uint64(j.cfg.Iterations)
	for i, w := range j.workers {
		if w.stats.BadResults != 0 {
			return fmt.Errorf("inagg: job %d worker %d received %d wrong results", j.cfg.ID, i, w.stats.BadResults)
		}
		if got := w.stats.Results; got != uint64(j.packets)*uint64(j.cfg.Iterations) {
			return fmt.Errorf("inagg: job %d worker %d received %d results, want %d", j.cfg.ID, i, got, uint64(j.packets)*uint64(j.cfg.Iterations))
		}
	}
	if s := j.ps.stats; s.Stale != 0 || s.Overwritten != 0 {
		return fmt.Errorf("inagg: job %d PS ring too small: %d stale packets, %d overwritten sequences", j.cfg.ID, s.Stale, s.Overwritten)
	}
	if got := j.stats.SwitchContributions + j.stats.PSContributions; got != want {
		return fmt.Errorf("inagg: job %d aggregated %d contributions at switch + %d at PS = %d, want %d",
			j.cfg.ID, j.stats.SwitchContributions, j.stats.PSContributions, got, want)
	}
	return nil
}

// SwitchJobStats are a job's share of its aggregating switch's counters
// (AggregatorStats): summed over the jobs registered at a switch they give
// the switch's totals.
type SwitchJobStats struct {
	// Overflowed counts the job's gradients sent on to the PS: collisions
	// plus forwarded retransmissions (AggregatorStats.Collisions +
	// RetxForwarded).
	Overflowed uint64
	// AECNMarked counts the job's results marked AECN (Sec. III-B3).
	AECNMarked uint64
	// OverflowSequences and OverflowGradients are what AECN's occupancy
	// counts of the job (aecn.go): its sequences with at least one
	// contribution sent on to the PS and still awaiting their result, and
	// those contributions, accumulated over the run.
	OverflowSequences, OverflowGradients uint64
	// CollisionSequences, ExhaustionSequences and ResendSequences split
	// OverflowSequences by the cause of each sequence's first overflowed
	// contribution: its aggregator held by another (job, sequence) while
	// some aggregator was free (an index collision), while every
	// aggregator was in use (exhaustion), or a retransmission.
	CollisionSequences, ExhaustionSequences, ResendSequences uint64
	// SelfCollisions counts the job's gradients whose aggregator was held
	// by another sequence of the same job (its outstanding sequences
	// spanned more than the memory).
	SelfCollisions uint64
}

// SwitchStats returns the job's counters at its aggregating switch (zero
// for BytePS, which aggregates at the PS only).
// A two-level job on a partitioned network sums its switches' shares in
// switch order (twolevel_part.go).
func (j *Job) SwitchStats() SwitchJobStats {
	t := j.sw
	for _, sh := range j.shares {
		t.add(&sh.sw)
	}
	return t
}

// WorkerHost is the host of worker w.
func (j *Job) WorkerHost(w int) *netsim.Host { return j.workers[w].host }

// PSHost is the host of the job's parameter server.
func (j *Job) PSHost() *netsim.Host { return j.cfg.PS }

// Iterations is the number of iterations the job trains.
func (j *Job) Iterations() int { return j.cfg.Iterations }

// StartAt is when the job starts (its first compute phase).
func (j *Job) StartAt() netsim.Time { return j.cfg.Start }
