package netsim

import (
	"fmt"
	"math"
)

// The limits of what a simulation can represent. Time, Bytes and Rate are
// int64 counts (picoseconds, bytes, bits per second), so a value a user
// gives in float seconds, megabytes or Gbps can fall outside them: 1e10 s
// of compute wraps Time to a negative number, and the event is then
// "scheduled in the past". Parameters and file values are checked against
// these limits before a run (CheckSeconds, CheckRate, CheckBytes), and
// times derived during a run from random draws go through Later, which
// reports a time past the clock's end instead of wrapping.

// MaxSeconds is the latest time the clock holds, in seconds: Never is
// 2^63 - 1 ps, about 9.22e6 s (106.7 days). No event can be scheduled at
// or after it.
const MaxSeconds = float64(Never) / float64(Second)

// MaxBitRate is the largest Rate, in bits per second (2^63 - 1, about
// 9.22e9 Gbps); MinBitRate is the smallest positive one, 1 bit/s.
const (
	MaxBitRate = float64(math.MaxInt64)
	MinBitRate = 1.0
)

// MaxByteCount is the largest Bytes (2^63 - 1, about 9.22e18 bytes).
const MaxByteCount = float64(math.MaxInt64)

// clockEnd describes the clock's end for messages.
const clockEnd = "the 9.22e+06 s (106 days) the simulated clock holds"

// CheckSeconds returns nil when s seconds is a span the clock can hold
// (finite, non-negative, below MaxSeconds), and otherwise an error that
// says why, for callers to prefix with the parameter or file line.
func CheckSeconds(s float64) error {
	switch {
	case math.IsNaN(s) || s < 0:
		return fmt.Errorf("%g s is not a non-negative number of seconds", s)
	case !(s < MaxSeconds):
		return fmt.Errorf("%.4g s is beyond %s", s, clockEnd)
	}
	return nil
}

// CheckRate returns nil when v units of unitBPS bits per second each
// (v Gbps: unitBPS 1e9, unit "Gbps") is a rate a link or a transfer can
// have (MinBitRate to MaxBitRate), and otherwise an error that says why
// in the caller's unit.
func CheckRate(v, unitBPS float64, unit string) error {
	bps := v * unitBPS
	switch {
	case math.IsNaN(v) || !(v > 0):
		return fmt.Errorf("%g %s is not a positive rate", v, unit)
	case bps < MinBitRate:
		return fmt.Errorf("%g %s is below the 1 bit/s a rate can be", v, unit)
	case !(bps <= MaxBitRate):
		return fmt.Errorf("%g %s is beyond the %.3g %s a rate can be", v, unit, MaxBitRate/unitBPS, unit)
	}
	return nil
}

// CheckBytes returns nil when b bytes is a size the simulation can count
// (finite, non-negative, at most MaxByteCount), and otherwise an error.
func CheckBytes(b float64) error {
	switch {
	case math.IsNaN(b) || b < 0:
		return fmt.Errorf("%g bytes is not a non-negative size", b)
	case !(b <= MaxByteCount):
		return fmt.Errorf("%g bytes is beyond the %.3g bytes a size can be", b, MaxByteCount)
	}
	return nil
}

// Later is the time s seconds after t, rounded to the picosecond, and
// whether the clock holds it: ok is false (and at is Never) when the sum
// reaches or passes the clock's end, or s is not a finite non-negative
// number. A model that draws a duration at run time schedules the event
// only when ok, so a draw from a long tail means the event falls after
// any run's end rather than wrapping into the past.
func Later(t Time, s float64) (at Time, ok bool) {
	if !(s >= 0) || !(s < MaxSeconds-t.Seconds()) {
		return Never, false
	}
	d := FromSeconds(s)
	if d < 0 || d >= Never-t {
		return Never, false
	}
	return t + d, true
}
