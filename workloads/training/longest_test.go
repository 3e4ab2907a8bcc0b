package training

import (
	"math"
	"strings"
	"testing"
)

func TestLongest(t *testing.T) {
	trace, err := ReadTrace(strings.NewReader("0.3\n2.5\n0.4\n"))
	if err != nil {
		t.Fatal(err)
	}
	mix, err := NewMixture("two", []float64{0.5, 0.5}, []Dist{Constant{T: 1}, Uniform{Lo: 2, Hi: 3}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		d       Dist
		want    float64
		bounded bool
	}{
		{"constant", Constant{T: 0.3}, 0.3, true},
		{"uniform", Uniform{Lo: 0.2, Hi: 0.4}, 0.4, true},
		{"trace file", trace, 2.5, true},
		{"scaled trace", Scaled{D: trace, M: 4}, 10, true},
		{"bounded mixture", mix, 3, true},
		// Unbounded: the median. A lognormal's median is Median (+Shift).
		{"lognormal", LogNormal{Median: 1e4, Sigma: 5}, 1e4, false},
		{"transformer", Transformer(), 0.35, false},
		{"scaled lognormal", Scaled{D: LogNormal{Median: 2, Sigma: 1}, M: 3}, 6, false},
		// The CNN mixture: 0.9 of a narrow lognormal at 0.3 s, so its
		// median lies inside that peak, a little above 0.3 s.
		{"cnn", CNN(), math.NaN(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, b := Longest(tc.d)
			if b != tc.bounded {
				t.Errorf("bounded = %v, want %v", b, tc.bounded)
			}
			if math.IsNaN(tc.want) {
				if !(got > 0.3 && got < 0.32) {
					t.Errorf("Longest = %v, want a median just above 0.3", got)
				}
				return
			}
			if math.Abs(got-tc.want) > 1e-9*tc.want {
				t.Errorf("Longest = %v, want %v", got, tc.want)
			}
		})
	}
}
