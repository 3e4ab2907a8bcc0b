package netsim

import (
	"math"
	"strings"
	"testing"
)

func TestMaxSeconds(t *testing.T) {
	// 2^63 - 1 ps = 9,223,372.036854775807 s.
	if math.Abs(MaxSeconds-9223372.036854775807) > 1e-6 {
		t.Fatalf("MaxSeconds = %v", MaxSeconds)
	}
}

func TestLater(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    Time
		s    float64
		want Time
		ok   bool
	}{
		{"zero", 0, 0, 0, true},
		{"one and a half seconds", Second, 1.5, 2500 * Millisecond, true},
		{"rounds to the picosecond", 0, 1.4e-12, Picosecond, true},
		{"a day", 0, 86400, 86400 * Second, true},
		{"just below the end", 0, 9.2e6, 9200000 * Second, true},
		{"past the end from zero", 0, 1e10, Never, false},
		{"past the end from late", 9e6 * Second, 3e5, Never, false},
		{"1e308", Second, 1e308, Never, false},
		{"infinite", 0, math.Inf(1), Never, false},
		{"NaN", 0, math.NaN(), Never, false},
		{"negative", Second, -1, Never, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at, ok := Later(tc.t, tc.s)
			if at != tc.want || ok != tc.ok {
				t.Errorf("Later(%v, %g) = %v, %v; want %v, %v", tc.t, tc.s, at, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestChecks(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string // "" for nil
	}{
		{"seconds in range", CheckSeconds(9e6), ""},
		{"seconds zero", CheckSeconds(0), ""},
		{"seconds past the clock", CheckSeconds(1e10), "1e+10 s is beyond the 9.22e+06 s"},
		{"seconds at the clock", CheckSeconds(MaxSeconds), "beyond"},
		{"seconds negative", CheckSeconds(-1), "not a non-negative"},
		{"seconds NaN", CheckSeconds(math.NaN()), "not a non-negative"},
		{"rate in range", CheckRate(400, 1e9, "Gbps"), ""},
		{"rate of one bit/s", CheckRate(1e-9, 1e9, "Gbps"), ""},
		{"rate too high", CheckRate(1e308, 1e9, "Gbps"), "1e+308 Gbps is beyond the 9.22e+09 Gbps"},
		{"rate too low", CheckRate(1e-12, 1e9, "Gbps"), "below the 1 bit/s"},
		{"rate zero", CheckRate(0, 1e6, "Mbps"), "0 Mbps is not a positive rate"},
		{"bytes in range", CheckBytes(1e15), ""},
		{"bytes too many", CheckBytes(1e20), "beyond"},
		{"bytes negative", CheckBytes(-1), "not a non-negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			switch {
			case tc.want == "" && tc.err != nil:
				t.Errorf("unexpected error %v", tc.err)
			case tc.want != "" && (tc.err == nil || !strings.Contains(tc.err.Error(), tc.want)):
				t.Errorf("error %v, want one containing %q", tc.err, tc.want)
			}
		})
	}
}
