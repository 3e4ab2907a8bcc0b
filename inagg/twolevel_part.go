package inagg

import (
	"cmp"
	"slices"

	"syncsim/netsim"
)

// Two-level ATP aggregation on a partitioned network. A two-level job's
// switch books (SwitchJobStats and the aggregators it holds over time)
// are written by its PS's switch and by every first-level (rack) switch,
// which may lie in different partitions. Each of those switches then
// keeps a share of its own (swJob.share), written only on its partition:
//
//   - the counters add: SwitchStats sums the shares, in switch order (the
//     PS's switch, then the first-level switches in worker order);
//   - the held aggregators are a time-weighted book (mean, peak, now) of
//     the job's total across its switches, whose peak does not follow from
//     the shares' own: each share logs its changes inside a window, and at
//     every barrier the logs are merged by (time, switch order, the
//     switch's own order) into the job's book, the sequential rule on the
//     same stream with ties within one picosecond broken by switch order.

// jobShare is one switch's share of a two-level job's books.
type jobShare struct {
	sw  SwitchJobStats
	log []heldDelta // changes of the held aggregators since the last barrier
}

// heldDelta is one change of a job's held aggregators.
type heldDelta struct {
	at netsim.Time
	d  int
}

// stats is where the switch counts the job's counters: its share, or the
// job's own books.
func (s *swJob) stats() *SwitchJobStats {
	if s.share != nil {
		return &s.share.sw
	}
	return &s.job.sw
}

// heldAdd changes the job's held aggregators by d at t: in the switch's
// share's log, or in the job's book.
func (s *swJob) heldAdd(t netsim.Time, d int) {
	if s.share != nil {
		s.share.log = append(s.share.log, heldDelta{t, d})
		return
	}
	s.job.held.add(t, d)
}

// shareBooks gives each switch of a two-level job a share of its books
// (on a partitioned network; a one-switch job keeps its books whole).
func (j *Job) shareBooks() {
	if len(j.first) == 0 {
		return
	}
	for _, a := range append([]*Aggregator{j.agg}, j.first...) {
		s := a.jobs[j.cfg.ID]
		s.share = &jobShare{}
		j.shares = append(j.shares, s.share)
	}
}

// foldHeld merges the shares' logs into the job's held book in the order
// (time, switch order, the switch's own order). A release at the job's
// end, booked at a barrier at its switch's clock, never moves the book
// back in time.
func (j *Job) foldHeld() {
	if len(j.shares) == 0 {
		return
	}
	buf := j.heldBuf[:0]
	for _, sh := range j.shares {
		buf = append(buf, sh.log...)
		sh.log = sh.log[:0]
	}
	slices.SortStableFunc(buf, func(a, b heldDelta) int { return cmp.Compare(a.at, b.at) })
	for _, c := range buf {
		j.held.add(max(c.at, j.held.last), c.d)
	}
	j.heldBuf = buf[:0]
}

// add adds o's counters to s's.
func (s *SwitchJobStats) add(o *SwitchJobStats) {
	s.Overflowed += o.Overflowed
	s.AECNMarked += o.AECNMarked
	s.OverflowSequences += o.OverflowSequences
	s.OverflowGradients += o.OverflowGradients
	s.CollisionSequences += o.CollisionSequences
	s.ExhaustionSequences += o.ExhaustionSequences
	s.ResendSequences += o.ResendSequences
	s.SelfCollisions += o.SelfCollisions
}
