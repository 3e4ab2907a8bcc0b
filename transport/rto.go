package transport

import "syncsim/netsim"

// RTOEstimator computes the retransmission timeout of RFC 6298 in exact
// integer picoseconds. The zero value is not usable; call NewRTOEstimator.
type RTOEstimator struct {
	srtt, rttvar netsim.Time
	sampled      bool
	backoff      uint // number of doublings since the last valid sample
	min, max     netsim.Time
	init         netsim.Time
	cur          netsim.Time // RTO(), recomputed on every change
}

// NewRTOEstimator returns an estimator with no samples: its RTO is init
// (RFC 6298 Sec. 2.1), bounded below by min (Sec. 2.4) and above by max
// (Sec. 2.5).
func NewRTOEstimator(init, min, max netsim.Time) RTOEstimator {
	e := RTOEstimator{init: init, min: min, max: max}
	e.cur = e.compute()
	return e
}

// Sample feeds one round-trip time measurement r (RFC 6298 Sec. 2.2-2.3):
//
//	first:  SRTT = R, RTTVAR = R/2
//	later:  RTTVAR = (1 - 1/4) RTTVAR + 1/4 |SRTT - R|,  SRTT = (1 - 1/8) SRTT + 1/8 R
//
// (RTTVAR is updated with the old SRTT, as Sec. 2.3 requires.) A valid
// sample also clears the exponential backoff (Sec. 5, note after 5.7).
func (e *RTOEstimator) Sample(r netsim.Time) {
	if r < 0 {
		return
	}
	if !e.sampled {
		e.srtt, e.rttvar, e.sampled = r, r/2, true
	} else {
		d := e.srtt - r
		if d < 0 {
			d = -d
		}
		e.rttvar = (3*e.rttvar + d) / 4
		e.srtt = (7*e.srtt + r) / 8
	}
	e.backoff = 0
	e.cur = e.compute()
}

// Backoff doubles the timeout after an expiry (RFC 6298 Sec. 5.5), up to
// the maximum.
func (e *RTOEstimator) Backoff() {
	if e.backoff < 62 {
		e.backoff++
	}
	e.cur = e.compute()
}

// Backoffs is the number of doublings in force.
func (e *RTOEstimator) Backoffs() uint { return e.backoff }

// SRTT is the smoothed round-trip time (0 before the first sample).
func (e *RTOEstimator) SRTT() netsim.Time { return e.srtt }

// RTTVar is the round-trip time variation (0 before the first sample).
func (e *RTOEstimator) RTTVar() netsim.Time { return e.rttvar }

// Base is the RTO without backoff: SRTT + 4 RTTVAR (RFC 6298 Sec. 2.3, with
// a clock granularity G of zero since virtual time is exact), or the
// initial RTO before any sample, clamped to [min, max].
func (e *RTOEstimator) Base() netsim.Time {
	r := e.init
	if e.sampled {
		r = e.srtt + 4*e.rttvar
	}
	if r < e.min {
		r = e.min
	}
	if e.max > 0 && r > e.max {
		r = e.max
	}
	return r
}

// RTO is the current timeout: Base doubled once per backoff, at most max
// (RFC 6298 Sec. 5.5 and 2.5).
func (e *RTOEstimator) RTO() netsim.Time { return e.cur }

func (e *RTOEstimator) compute() netsim.Time {
	r := e.Base()
	for i := uint(0); i < e.backoff; i++ {
		if e.max > 0 && r >= e.max/2 {
			return e.max
		}
		if r > netsim.Never/2 {
			return netsim.Never
		}
		r *= 2
	}
	return r
}
