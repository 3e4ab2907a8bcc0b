package inagg

import (
	"math/bits"

	"syncsim/netsim"
)

// overflowCause is why a contribution went on to the PS instead of into
// an aggregator.
type overflowCause uint8

const (
	// ovfCollision: its aggregator held another (job, sequence) while the
	// memory had a free aggregator elsewhere (an index collision).
	ovfCollision overflowCause = iota
	// ovfExhaustion: its aggregator was held and so was every other one
	// (the memory was full).
	ovfExhaustion
	// ovfFollow: an earlier contribution of its sequence had overflowed, so
	// it followed that one to the PS (AggregatorConfig.FollowOverflow).
	ovfFollow
	// ovfResend: a retransmission, which goes to the PS (Sec. III-B1).
	ovfResend
	// ovfPassed: every other worker had sent its sequence or a later one
	// while its aggregator was free, so its partners were beyond the
	// switch (AggregatorConfig.ForwardPassed).
	ovfPassed
)

// missingPassed reports whether every worker of s whose bit the
// contributions in bitmap lack has already sent sequence seq or a later
// one as a new gradient through this switch (the S_n registers, Sec. IV),
// so that none of them will bring seq here.
func (s *swJob) missingPassed(bitmap uint64, seq int64) bool {
	missing := s.full &^ bitmap
	if missing == 0 {
		return false
	}
	for ; missing != 0; missing &= missing - 1 {
		if s.sn[bits.TrailingZeros64(missing)] < seq {
			return false
		}
	}
	return true
}

// busyCause classifies a contribution that found its aggregator held by
// another (job, sequence): exhaustion if every aggregator is in use (or
// reserved by a slot pool), else a collision.
func (a *Aggregator) busyCause() overflowCause {
	if a.mem.used+a.mem.reserved >= a.mem.Size() {
		return ovfExhaustion
	}
	return ovfCollision
}

// heldBook is a job's aggregators at its aggregating switch over time: the
// number it holds now, the most it held at once and the integral, for
// the mean over the job's run.
type heldBook struct {
	now  int
	peak int
	area float64 // aggregator-picoseconds
	last netsim.Time
}

// add changes the job's held aggregators by d at time t.
func (h *heldBook) add(t netsim.Time, d int) {
	h.area += float64(h.now) * float64(t-h.last)
	h.last = t
	h.now += d
	h.peak = max(h.peak, h.now)
}

// allocate takes aggregator idx for s's sequence seq.
func (a *Aggregator) allocate(s *swJob, idx int, seq int64) *aggregator {
	s.heldAdd(a.sw.Sim().Now(), 1)
	return a.mem.allocate(idx, s.id, seq)
}

// release frees aggregator idx, held by s.
func (a *Aggregator) release(s *swJob, idx int) {
	s.heldAdd(a.sw.Sim().Now(), -1)
	a.mem.release(idx)
}

// AggregatorsHeld are the job's aggregators at its switch: the time
// average from its start to its end (or now, if it runs), the most it held
// at once and how many it holds now (PA-ATP Sec. III-C's occupancy, job by
// job).
func (j *Job) AggregatorsHeld() (mean float64, peak, now int) {
	end := j.net.Sim.Now()
	if j.done {
		end = j.doneAt
	}
	area := j.held.area + float64(j.held.now)*float64(end-j.held.last)
	if d := end - j.cfg.Start; d > 0 {
		mean = area / float64(d)
	}
	return mean, j.held.peak, j.held.now
}
