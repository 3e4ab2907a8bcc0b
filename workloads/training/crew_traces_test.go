package training

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCrewTraces: T1 and T2 stay in [0.05, 0.2] s, and their samples agree
// with their CDFs (Kolmogorov-Smirnov distance) and means; so does the
// unscaled LSTM approximation.
func TestCrewTraces(t *testing.T) {
	cases := []struct {
		name   string
		d      Dist
		lo, hi float64
	}{
		{"t1", CrewT1(), 0.05, 0.2},
		{"t2", CrewT2(), 0.05, 0.2},
		{"lstm", LSTM(), 0.1, 1.0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			const n = 20000
			xs := make([]float64, n)
			sum := 0.0
			for i := range xs {
				xs[i] = tc.d.Sample(r)
				if xs[i] < tc.lo || xs[i] > tc.hi {
					t.Fatalf("sample %g outside [%g, %g]", xs[i], tc.lo, tc.hi)
				}
				sum += xs[i]
			}
			slices.Sort(xs)
			// KS distance at each distinct value (the LSTM's steps are
			// discrete): F(x) against the share of samples <= x, and
			// F just below x against the share < x.
			ks := 0.0
			for i := 0; i < n; {
				j := i
				for j < n && xs[j] == xs[i] {
					j++
				}
				below := tc.d.CDF(xs[i] - 1e-9)
				ks = max(ks, math.Abs(tc.d.CDF(xs[i])-float64(j)/n), math.Abs(below-float64(i)/n))
				i = j
			}
			// 1.95/sqrt(n) is the 0.1% critical value; the discrete LSTM
			// steps add ties, so allow a little more.
			if ks > 2.5/math.Sqrt(n) {
				t.Errorf("KS distance %.4f between samples and CDF", ks)
			}
			mean := sum / n
			if math.Abs(mean-tc.d.Mean()) > 0.01*tc.d.Mean() {
				t.Errorf("sample mean %.5f, Mean() %.5f", mean, tc.d.Mean())
			}
			t.Logf("%s: mean %.4f p5 %.4f p50 %.4f p95 %.4f", tc.name, mean, xs[n/20], xs[n/2], xs[n-n/20])
		})
	}
}

func TestRescaledErrors(t *testing.T) {
	for i, args := range [][3]float64{{0, 0.05, 0.2}, {0.5, 0.05, 0.2}, {0.01, 0.2, 0.05}, {0.01, 0, 0.2}} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if _, err := NewRescaled("x", Transformer(), args[0], args[1], args[2]); err == nil {
				t.Errorf("NewRescaled%v accepted", args)
			}
		})
	}
	if _, err := NewRescaled("c", Constant{T: 1}, 0.01, 0.05, 0.2); err == nil {
		t.Error("a constant has no range to rescale")
	}
}
