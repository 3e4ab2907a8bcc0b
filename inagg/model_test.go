package inagg

import (
	"math"
	"testing"
)

// TestModelHandWorked checks Eq. 3-12 on small cases worked by hand.
func TestModelHandWorked(t *testing.T) {
	tests := []struct {
		name string
		in   ModelInput
		want ModelPoint
	}{
		{
			// eta bound = 1 - (10+2)/120 = 0.9; R_max = 0.9*120 + 2 = 110;
			// A = 1/2 sqrt(2*2*108) = 10.3923; R_min = 99.6077 < M:
			// Eq. 12: (110-100)^2 / sqrt(432) + 10 = 14.8113.
			name: "Eq. 12 regime",
			in:   ModelInput{M: 100, BDP: 20, CA: 10, N: 2},
			want: ModelPoint{Eta: 0.9, AWDStar: 54, RMax: 110, A: 10.392304845413264, T: 5.196152422706632,
				RMin: 99.60769515458674, ThrPA: 14.811252243246881, Eq12Mode: true},
		},
		{
			// eta bound = 1 - 3/120 = 0.975; R_max = 117 + 1 = 118;
			// A = 1/2 sqrt(2*117) = 7.6485; R_min = 110.3515 >= M:
			// Eq. 11: 118 - 15.2971/4 - 100 + 2 = 16.1757.
			name: "Eq. 11 regime",
			in:   ModelInput{M: 100, BDP: 20, CA: 2, N: 1},
			want: ModelPoint{Eta: 0.975, AWDStar: 117, RMax: 118, A: 7.648529270389178, T: 7.648529270389178,
				RMin: 110.35147072961082, ThrPA: 16.17573536480541},
		},
		{
			// Fig. 6(b): M = 40K, BDP = 416 (100 Gbps, 10 us), C_A =
			// 0.1 BDP, N = 8: eta = 1 - 49.6/40416, R_max = 40374.4,
			// A = 2 sqrt(40366.4) = 401.83, R_min = 39972.57 < M,
			// Thr = 374.4^2 / 803.66 + 41.6 = 216.02, gain 5.19.
			name: "Fig. 6(b) 100G, C_A = 0.1 BDP, 8 jobs",
			in:   ModelInput{M: 40000, BDP: 416, CA: 41.6, N: 8},
			want: ModelPoint{Eta: 0.9987727632620744, RMax: 40374.4, A: 401.8278238250806, T: 50.228477978135075,
				RMin: 39972.57217617492, ThrPA: 216.0221675164793, Eq12Mode: true},
		},
		{
			// Same at C_A = 0.9 BDP: little idle bandwidth, gain ~1.006.
			name: "Fig. 6(b) 100G, C_A = 0.9 BDP, 8 jobs",
			in:   ModelInput{M: 40000, BDP: 416, CA: 374.4, N: 8},
			want: ModelPoint{Eta: 0.9905384006334125, RMax: 40041.6, A: 400.1679647348098, T: 50.020995591851225,
				RMin: 39641.43203526519, ThrPA: 376.5622920279822, Eq12Mode: true},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ModelAnalysis(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			w := tc.want
			check := func(name string, g, x float64) {
				t.Helper()
				if x != 0 && !near(g, x, 1e-9) {
					t.Errorf("%s = %v, want %v", name, g, x)
				}
			}
			check("eta", got.Eta, w.Eta)
			check("AWD*", got.AWDStar, w.AWDStar)
			check("R_max", got.RMax, w.RMax)
			check("A", got.A, w.A)
			check("T", got.T, w.T)
			check("R_min", got.RMin, w.RMin)
			check("Thr_pa", got.ThrPA, w.ThrPA)
			check("gain", got.Gain, w.ThrPA/tc.in.CA)
			if got.Eq12Mode != w.Eq12Mode {
				t.Errorf("Eq12Mode = %v", got.Eq12Mode)
			}
			// With eta at its Eq. 9 bound, R_max = M + BDP - C_A exactly
			// and Eq. 8 is just violated.
			if !near(got.RMax, tc.in.M+tc.in.BDP-tc.in.CA, 1e-12) || OverflowFree(got.RMax*(1+1e-12), tc.in.M, tc.in.BDP, tc.in.CA) {
				t.Errorf("R_max %v is not at the Eq. 8 boundary %v", got.RMax, tc.in.M+tc.in.BDP-tc.in.CA)
			}
		})
	}
}

// TestModelConsistency ties the equations together: Eq. 5's closed form
// is N times Eq. 4 with beta = sqrt(2/AWD*) up to the factor
// (AWD*+1)/AWD*, and Eq. 12's closed form equals its first form with the
// period T of Eq. 6.
func TestModelConsistency(t *testing.T) {
	for _, n := range []int{1, 4, 8, 32} {
		for _, ca := range []float64{0.1, 0.5, 0.9} {
			in := ModelInput{M: 40000, BDP: 166, CA: ca * 166, N: n}
			p, err := ModelAnalysis(in)
			if err != nil {
				t.Fatal(err)
			}
			if ratio := float64(n) * p.S / p.A; !near(ratio, (p.AWDStar+1)/p.AWDStar, 1e-9) {
				t.Errorf("N=%d: N S / A = %v, want (AWD*+1)/AWD* = %v", n, ratio, (p.AWDStar+1)/p.AWDStar)
			}
			if p.Eq12Mode {
				first := (p.RMax-in.M)/float64(n)/p.T*((p.RMax+in.M)/2-in.M) + in.CA
				if !near(first, p.ThrPA, 1e-9) {
					t.Errorf("N=%d C_A=%v: Eq. 12 first form %v != closed form %v", n, in.CA, first, p.ThrPA)
				}
			}
			if p.Gain < 1 {
				t.Errorf("N=%d C_A=%v: gain %v < 1", n, in.CA, p.Gain)
			}
		}
	}
	// The gain falls as C_A grows (Fig. 6).
	prev := math.Inf(1)
	for _, ca := range []float64{0.1, 0.3, 0.5, 0.7, 0.9} {
		p, _ := ModelAnalysis(ModelInput{M: 40000, BDP: 416, CA: ca * 416, N: 8})
		if p.Gain >= prev {
			t.Errorf("gain at C_A = %v BDP is %v, not below %v", ca, p.Gain, prev)
		}
		prev = p.Gain
	}
}

func TestModelRejectsBadInput(t *testing.T) {
	for _, in := range []ModelInput{
		{M: 0, BDP: 10, CA: 1, N: 1},
		{M: 10, BDP: 10, CA: 0, N: 1},
		{M: 10, BDP: 10, CA: 1, N: 0},
		{M: 10, BDP: 10, CA: 1, N: 1, Eta: 1.5},
		{M: 10, BDP: 0, CA: 30, N: 1}, // Eq. 9 bound negative
	} {
		if _, err := ModelAnalysis(in); err == nil {
			t.Errorf("ModelAnalysis(%+v) accepted", in)
		}
	}
}
