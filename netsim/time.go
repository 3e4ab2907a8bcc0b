// Package netsim is the discrete-event kernel of syncsim: virtual time, units,
// the event scheduler, the simulation loop, seeded random streams, packets and
// their pool, links and ports, the network graph and its routing tables.
//
// It knows nothing about congestion control, in-network aggregation, jobs or
// the command line; those live in packages layered above it.
package netsim

import (
	"math"
	"strconv"
)

// Time is virtual simulation time in integer picoseconds. Models never use
// time.Time; all arithmetic is exact.
type Time int64

// Units of virtual time.
const (
	Picosecond  Time = 1
	Nanosecond  Time = 1000 * Picosecond
	Microsecond Time = 1000 * Nanosecond
	Millisecond Time = 1000 * Microsecond
	Second      Time = 1000 * Millisecond

	// Never is a time later than any event; Run(Never) runs until the
	// event queue drains or Stop is called.
	Never Time = math.MaxInt64
)

// Seconds returns t as floating-point seconds.
func (t Time) Seconds() float64 { return float64(t) / float64(Second) }

// Microseconds returns t as floating-point microseconds.
func (t Time) Microseconds() float64 { return float64(t) / float64(Microsecond) }

// Milliseconds returns t as floating-point milliseconds.
func (t Time) Milliseconds() float64 { return float64(t) / float64(Millisecond) }

// Add returns t+d.
func (t Time) Add(d Time) Time { return t + d }

// Sub returns t-u.
func (t Time) Sub(u Time) Time { return t - u }

// Before reports whether t is earlier than u.
func (t Time) Before(u Time) bool { return t < u }

// After reports whether t is later than u.
func (t Time) After(u Time) bool { return t > u }

// FromSeconds converts floating-point seconds to Time, rounding to the
// nearest picosecond.
func FromSeconds(s float64) Time { return Time(math.Round(s * float64(Second))) }

// FromMicros converts floating-point microseconds to Time.
func FromMicros(us float64) Time { return Time(math.Round(us * float64(Microsecond))) }

// FromMillis converts floating-point milliseconds to Time.
func FromMillis(ms float64) Time { return Time(math.Round(ms * float64(Millisecond))) }

// String prints t in the largest unit not exceeding it, e.g. "12.5us".
func (t Time) String() string {
	if t == Never {
		return "never"
	}
	a := t
	if a < 0 {
		a = -a
	}
	unit, name := Picosecond, "ps"
	switch {
	case a >= Second:
		unit, name = Second, "s"
	case a >= Millisecond:
		unit, name = Millisecond, "ms"
	case a >= Microsecond:
		unit, name = Microsecond, "us"
	case a >= Nanosecond:
		unit, name = Nanosecond, "ns"
	}
	if unit == Picosecond {
		return strconv.FormatInt(int64(t), 10) + name
	}
	return strconv.FormatFloat(float64(t)/float64(unit), 'f', -1, 64) + name
}
