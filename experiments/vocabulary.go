package experiments

import "strings"

// Units is the vocabulary of unit suffixes in parameter and metric names:
// a name ending in the suffix is a quantity in the unit. The longest
// matching suffix wins (fct_p99_us is in us, ca_pkts_rtt in packets/RTT).
// A name without one of these suffixes is a count of what it names
// (drops, timeouts, flows_done), a ratio (jain, utilisation, load), a
// choice (protocol) or a model constant (eta, theta).
var Units = []struct{ Suffix, Unit, Meaning string }{
	{"_ps", "ps", "picoseconds"},
	{"_ns", "ns", "nanoseconds"},
	{"_us", "us", "microseconds"},
	{"_ms", "ms", "milliseconds"},
	{"_s", "s", "seconds"},
	{"_per_s", "1/s", "per second"},
	{"_gbps", "Gbit/s", "10^9 bit/s"},
	{"_kb", "KB", "10^3 bytes"},
	{"_mb", "MB", "10^6 bytes"},
	{"_mib", "MiB", "2^20 bytes"},
	{"_pkts", "packets", "packets (a queue, window, threshold or count of packets)"},
	{"_pkts_rtt", "packets/RTT", "packets per base round-trip time"},
	{"_frac", "", "a fraction in [0, 1]"},
	{"_units", "units", "the experiment's own time or data units"},
	{"_rounds", "rounds", "rounds of a window protocol"},
}

// UnitOf returns the unit a name's suffix declares ("" when it has none
// or names a fraction) and whether it has a unit suffix at all.
func UnitOf(name string) (unit string, ok bool) {
	best := -1
	for i, u := range Units {
		if strings.HasSuffix(name, u.Suffix) && len(name) > len(u.Suffix) &&
			(best < 0 || len(u.Suffix) > len(Units[best].Suffix)) {
			best = i
		}
	}
	if best < 0 {
		return "", false
	}
	return Units[best].Unit, true
}
