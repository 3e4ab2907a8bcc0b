package inagg

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

func TestDecreaseFactor(t *testing.T) {
	tests := []struct {
		name           string
		alpha, p, pmax float64
		want           float64
	}{
		{"straggler gets DCTCP's alpha", 0.5, 0, 4, 0.5},
		{"leader halves whatever alpha", 0.01, 4, 4, 1},
		{"quarter progress: 0.5^(3/4)", 0.5, 1, 4, 0.5946035575013605},
		{"half progress: 0.2^(1/2)", 0.2, 2, 4, 0.4472135954999579},
		{"p beyond p_max clamps to 1", 0.3, 9, 4, 1},
		{"undefined p_max (p_avg <= 0) falls back to alpha", 0.3, 0, math.Inf(1), 0.3},
		{"no congestion, straggler: no cut", 0, 0, 4, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := DecreaseFactor(tc.alpha, tc.p, tc.pmax); !near(got, tc.want, 1e-12) {
				t.Fatalf("DecreaseFactor(%v, %v, %v) = %v, want %v", tc.alpha, tc.p, tc.pmax, got, tc.want)
			}
		})
	}
}

func TestProgressDegree(t *testing.T) {
	// Fig. 4-like case: 4 workers whose last sequences are 9, 7, 3 and 5
	// (s_sum = 24, s_avg = 6); this worker has last_GACK 9, last_AACK 2.
	pl := LocalProgress(9, 2)
	pavg := AverageProgress(24, 4, 2)
	if pl != 7 || pavg != 4 {
		t.Fatalf("p_l = %v, p_avg = %v; want 7, 4", pl, pavg)
	}
	p := ProgressDegree(pl, pavg)
	pmax := MaxProgressDegree(10, pavg) // AWD = 10
	if p != 1.75 || pmax != 2.5 {
		t.Fatalf("p = %v, p_max = %v; want 1.75, 2.5", p, pmax)
	}
	// d = alpha^(1 - 1.75/2.5) = 0.4^0.3
	if d := DecreaseFactor(0.4, p, pmax); !near(d, math.Pow(0.4, 0.3), 1e-12) {
		t.Fatalf("d = %v", d)
	}
	if ProgressDegree(3, 0) != 0 || !math.IsInf(MaxProgressDegree(10, -1), 1) {
		t.Fatal("p and p_max must degrade safely when p_avg <= 0")
	}
}

func TestWindowUpdates(t *testing.T) {
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"Eq. 1 with d = 1 halves", CutCWD(40, 1), 20},
		{"Eq. 1 with d = 0.5", CutCWD(40, 0.5), 30},
		{"Eq. 1 floors at one packet", CutCWD(1.2, 1), 1},
		{"Eq. 2 with beta = 0.25", CutAWD(800, 0.25), 700},
		{"Eq. 2 with beta = 0", CutAWD(800, 0), 800},
		{"alpha EWMA f = 1/8 from 1 with no marks", EWMA(1, 0.125, 0), 0.875},
		{"alpha EWMA f = 1/8 from 0 with half marked", EWMA(0, 0.125, 0.5), 0.0625},
		{"AECN threshold 0.9 (40960 + 416)", AECNThreshold(0.9, 40960, 416), 37238.4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !near(tc.got, tc.want, 1e-12) {
				t.Fatalf("got %v, want %v", tc.got, tc.want)
			}
		})
	}
}
