package plotting

import "strings"

// unitSuffix maps a column-name suffix to the unit printed on an axis.
// Column names carry their unit as the last snake_case word(s), as the
// CSV writer documents (ajct_ms, goodput_gbps, buffer_kb); the longest
// matching suffix wins, so fct_per_s reads as a rate and not as seconds.
var unitSuffix = []struct{ suffix, unit string }{
	{"_pkts_rtt", "packets/RTT"},
	{"_per_s", "1/s"},
	{"_ps", "ps"},
	{"_ns", "ns"},
	{"_us", "µs"},
	{"_ms", "ms"},
	{"_s", "s"},
	{"_bps", "bit/s"},
	{"_kbps", "kbit/s"},
	{"_mbps", "Mbit/s"},
	{"_gbps", "Gbit/s"},
	{"_tbps", "Tbit/s"},
	{"_bytes", "bytes"},
	{"_kb", "KB"},
	{"_mb", "MB"},
	{"_gb", "GB"},
	{"_kib", "KiB"},
	{"_mib", "MiB"},
	{"_gib", "GiB"},
	{"_pkts", "packets"},
	{"_pct", "%"},
	{"_rounds", "rounds"},
	{"_units", "units"},
}

// SplitUnit splits a column name into the quantity and the unit its
// suffix names: "ajct_ms" gives ("ajct", "ms"), "goodput_gbps" gives
// ("goodput", "Gbit/s"). A name without a known unit suffix (or that is
// nothing but the suffix) is returned whole with an empty unit.
func SplitUnit(column string) (quantity, unit string) {
	best := -1
	for i, s := range unitSuffix {
		if strings.HasSuffix(column, s.suffix) && len(column) > len(s.suffix) &&
			(best < 0 || len(s.suffix) > len(unitSuffix[best].suffix)) {
			best = i
		}
	}
	if best < 0 {
		return column, ""
	}
	return strings.TrimSuffix(column, unitSuffix[best].suffix), unitSuffix[best].unit
}

// Label is the axis label of a column: the quantity with its underscores
// as spaces, followed by the unit in parentheses when the name carries
// one. "ajct_ms" gives "ajct (ms)", "fct_p99_us" gives "fct p99 (µs)",
// "load" gives "load".
func Label(column string) string {
	q, u := SplitUnit(column)
	q = strings.ReplaceAll(q, "_", " ")
	if u == "" {
		return q
	}
	return q + " (" + u + ")"
}

// unitSpelling maps units as experiments declare them to the figure's
// spelling.
var unitSpelling = map[string]string{"us": "µs"}

// LabelUnit is the axis label of a column whose unit is declared (by the
// experiment's schema) rather than read from its name. An empty unit
// gives Label(column); a unit that the name's suffix already states gives
// the same as Label; otherwise the whole name is the quantity, so model_s
// declared in packets reads "model s (packets)", not "model (s)".
func LabelUnit(column, unit string) string {
	if unit == "" {
		return Label(column)
	}
	if s, ok := unitSpelling[unit]; ok {
		unit = s
	}
	q, u := SplitUnit(column)
	if u != unit {
		q = column
	}
	return strings.ReplaceAll(q, "_", " ") + " (" + unit + ")"
}
