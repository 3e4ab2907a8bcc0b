package netsim

import (
	"math"
	"math/bits"
	"strconv"
)

// Bytes is a byte count.
type Bytes int64

// Byte multiples (decimal, as link and buffer sizes are quoted in papers).
const (
	Byte     Bytes = 1
	Kilobyte Bytes = 1000
	Megabyte Bytes = 1000 * Kilobyte
	Gigabyte Bytes = 1000 * Megabyte
	KiB      Bytes = 1024
	MiB      Bytes = 1024 * KiB
)

// Bits returns the number of bits in b.
func (b Bytes) Bits() int64 { return int64(b) * 8 }

// Rate is a data rate in bits per second.
type Rate int64

// Rate units.
const (
	BitPerSecond Rate = 1
	Kbps         Rate = 1000 * BitPerSecond
	Mbps         Rate = 1000 * Kbps
	Gbps         Rate = 1000 * Mbps
)

// Gbps returns r in gigabits per second.
func (r Rate) Gbps() float64 { return float64(r) / float64(Gbps) }

// String prints r with a unit, e.g. "40Gbps".
func (r Rate) String() string {
	switch {
	case r >= Gbps:
		return strconv.FormatFloat(float64(r)/float64(Gbps), 'f', -1, 64) + "Gbps"
	case r >= Mbps:
		return strconv.FormatFloat(float64(r)/float64(Mbps), 'f', -1, 64) + "Mbps"
	case r >= Kbps:
		return strconv.FormatFloat(float64(r)/float64(Kbps), 'f', -1, 64) + "Kbps"
	}
	return strconv.FormatInt(int64(r), 10) + "bps"
}

// TxTime is the exact serialisation time of b bytes at rate r, rounded up to
// the next picosecond: ceil(8 b 1e12 / r). It uses 128-bit intermediate
// arithmetic, so it is exact for every non-negative b and positive r.
func TxTime(b Bytes, r Rate) Time {
	if r <= 0 {
		panic("netsim: TxTime with non-positive rate")
	}
	if b <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(b)*8, uint64(Second))
	if hi >= uint64(r) {
		return Never
	}
	q, rem := bits.Div64(hi, lo, uint64(r))
	if rem != 0 {
		q++
	}
	if q > math.MaxInt64 {
		return Never
	}
	return Time(q)
}

// BytesIn is the number of whole bytes rate r carries in duration d:
// floor(r d / (8 1e12)).
func BytesIn(r Rate, d Time) Bytes {
	if r <= 0 || d <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(r), uint64(d))
	den := uint64(8) * uint64(Second)
	if hi >= den {
		return Bytes(math.MaxInt64)
	}
	q, _ := bits.Div64(hi, lo, den)
	return Bytes(q)
}

// RateOf returns the average rate of b bytes over duration d, in bits/s.
func RateOf(b Bytes, d Time) float64 {
	if d <= 0 {
		return 0
	}
	return float64(b) * 8 / d.Seconds()
}
