package network

import (
	"math"
	"testing"
)

func TestDCTCPAnalysis(t *testing.T) {
	cases := []struct {
		name   string
		bdp, k float64
		n      int
	}{
		{"10G-40us-K65-N2", 33.3, 65, 2},
		{"10G-40us-K65-N8", 33.3, 65, 8},
		{"paper-Fig-N10", 83, 40, 10}, // 10 Gbps, 100 us RTT, K = 40 (Sec. 3.3 example scale)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := DCTCPAnalysis(c.bdp, c.k, c.n)
			w := (c.bdp + c.k) / float64(c.n)
			if math.Abs(st.WStar-w) > 1e-12 {
				t.Fatalf("W* = %g, want %g", st.WStar, w)
			}
			// alpha solves the exact relation ...
			lhs := st.Alpha * st.Alpha * (1 - st.Alpha/4)
			rhs := (2*w + 1) / ((w + 1) * (w + 1))
			if math.Abs(lhs-rhs) > 1e-9 {
				t.Fatalf("alpha relation: %g vs %g", lhs, rhs)
			}
			// ... and is close to sqrt(2/W*) for W* >> 1.
			if a0 := math.Sqrt(2 / w); math.Abs(st.Alpha-a0)/a0 > 0.2 {
				t.Fatalf("alpha %g far from sqrt(2/W*) = %g", st.Alpha, a0)
			}
			if ap := dctcpAmplitudeApprox(c.bdp, c.k, c.n); math.Abs(st.Amplitude-ap)/ap > 0.2 {
				t.Fatalf("amplitude %g far from closed form %g", st.Amplitude, ap)
			}
			if st.QMax != c.k+float64(c.n) || math.Abs(st.QMin-(st.QMax-st.Amplitude)) > 1e-12 {
				t.Fatalf("QMax %g QMin %g", st.QMax, st.QMin)
			}
		})
	}
}
