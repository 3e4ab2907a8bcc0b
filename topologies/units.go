package topologies

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"syncsim/netsim"
)

// rateUnits are the units of ns-3's DataRate strings (src/network/utils/
// data-rate.cc), in bits per second: b for bits, B for bytes, k/K, M, G
// for decimal and Ki, Mi, Gi for binary prefixes.
var rateUnits = map[string]float64{
	"bps": 1, "b/s": 1, "Bps": 8, "B/s": 8,
	"kbps": 1e3, "kb/s": 1e3, "Kbps": 1e3, "Kb/s": 1e3, "kBps": 8e3, "kB/s": 8e3, "KBps": 8e3, "KB/s": 8e3,
	"Kib/s": 1 << 10, "KiB/s": 8 << 10,
	"Mbps": 1e6, "Mb/s": 1e6, "MBps": 8e6, "MB/s": 8e6, "Mib/s": 1 << 20, "MiB/s": 8 << 20,
	"Gbps": 1e9, "Gb/s": 1e9, "GBps": 8e9, "GB/s": 8e9, "Gib/s": 1 << 30, "GiB/s": 8 << 30,
}

// timeUnits are the units of ns-3's Time strings (src/core/model/
// time.cc), in picoseconds; fs rounds to the picosecond.
var timeUnits = map[string]float64{
	"s": 1e12, "ms": 1e9, "us": 1e6, "ns": 1e3, "ps": 1, "fs": 1e-3, "min": 60e12, "h": 3600e12,
}

// splitUnit splits "12.5Gbps" into the number and its unit.
func splitUnit(s string) (float64, string, bool) {
	i := strings.IndexFunc(s, func(r rune) bool {
		return (r < '0' || r > '9') && r != '.' && r != 'e' && r != 'E' && r != '+' && r != '-'
	})
	// An exponent letter followed by a unit ("1e9bps") is a number; a
	// unit starting with e would be mistaken, but none does.
	if i < 0 {
		i = len(s)
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, "", false
	}
	return v, s[i:], true
}

// ParseDataRate reads an ns-3 DataRate string ("100Gbps", "25Gb/s",
// "12.5GBps"; a bare number is in bits per second) into a positive Rate.
func ParseDataRate(s string) (netsim.Rate, error) {
	v, unit, ok := splitUnit(s)
	mul, known := rateUnits[unit]
	if unit == "" {
		mul, known = 1, true
	}
	switch {
	case !ok:
		return 0, fmt.Errorf("rate %q is not a number with a unit such as 100Gbps", s)
	case !known:
		return 0, fmt.Errorf("rate %q: unknown unit %q (bps, Kbps, Mbps, Gbps, Bps, Gb/s, GiB/s, ...)", s, unit)
	}
	r := math.Round(v * mul)
	if r < 1 || r > float64(math.MaxInt64/2) {
		return 0, fmt.Errorf("rate %q is not between 1 bps and 4.6e18 bps", s)
	}
	return netsim.Rate(r), nil
}

// ParseNS3Time reads an ns-3 Time string ("1000ns", "0.001ms", "1us"; a
// bare number is in seconds) into a non-negative delay of at most an
// hour.
func ParseNS3Time(s string) (netsim.Time, error) {
	v, unit, ok := splitUnit(s)
	mul, known := timeUnits[unit]
	if unit == "" {
		mul, known = timeUnits["s"], true
	}
	switch {
	case !ok:
		return 0, fmt.Errorf("delay %q is not a number with a unit such as 1us", s)
	case !known:
		return 0, fmt.Errorf("delay %q: unknown unit %q (s, ms, us, ns, ps)", s, unit)
	}
	d := math.Round(v * mul)
	if d < 0 || d > float64(maxFileDelay) {
		return 0, fmt.Errorf("delay %q is not between 0 and 1 hour", s)
	}
	return netsim.Time(d), nil
}
