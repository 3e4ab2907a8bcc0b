package crew

import (
	"math"
	"testing"
)

// asymmetric is a hand-made matrix (Mbit/s) whose two directions differ on
// every pair, so that reading b_ik for b_ki anywhere changes the answers:
//
//	b01 = 1  b02 = 2
//	b10 = 4  b12 = 3
//	b20 = 6  b21 = 1
func asymmetric() Matrix {
	return Matrix{
		{0, 1e6, 2e6},
		{4e6, 0, 3e6},
		{6e6, 1e6, 0},
	}
}

// TestBottlenecksAsymmetric checks Eq. 1a/1b's bottlenecks against values
// worked out by hand from the definitions, not from the code: for P =
// {0, 1} and aggregators {0, 1, 2}, s_k = min over i in P, i != k, of
// b_ik (the scatter into k) and m_k = min over i in P, i != k, of b_ki
// (the multicast out of k):
//
//	k = 0: s = b10 = 4, m = b01 = 1
//	k = 1: s = b01 = 1, m = b10 = 4
//	k = 2: s = min(b02, b12) = min(2, 3) = 2, m = min(b20, b21) = min(6, 1) = 1
func TestBottlenecksAsymmetric(t *testing.T) {
	s, m := Bottlenecks(asymmetric(), []int{0, 1}, []int{0, 1, 2})
	wantS := []float64{4e6, 1e6, 2e6}
	wantM := []float64{1e6, 4e6, 1e6}
	for k := range wantS {
		if s[k] != wantS[k] || m[k] != wantM[k] {
			t.Errorf("aggregator %d: s = %v, m = %v; want s = %v (into k), m = %v (out of k)", k, s[k], m[k], wantS[k], wantM[k])
		}
	}
	// A third initiator changes the minima: P = {0, 1, 2}.
	s, m = Bottlenecks(asymmetric(), []int{0, 1, 2}, []int{0, 1, 2})
	wantS = []float64{4e6, 1e6, 2e6} // k=0: min(b10, b20) = min(4, 6); k=1: min(b01, b21) = min(1, 1); k=2: min(b02, b12)
	wantM = []float64{1e6, 3e6, 1e6} // k=0: min(b01, b02) = min(1, 2); k=1: min(b10, b12) = min(4, 3); k=2: min(b20, b21)
	for k := range wantS {
		if s[k] != wantS[k] || m[k] != wantM[k] {
			t.Errorf("P = {0,1,2}, aggregator %d: s = %v, m = %v; want %v, %v", k, s[k], m[k], wantS[k], wantM[k])
		}
	}
	// Evaluate reads the same bottlenecks: x = (0, 0, 1) scatters 1 Mbit
	// into worker 2 at s = 2 and multicasts it at m = 1.
	ts, tm := Evaluate(asymmetric(), []int{0, 1}, []int{0, 1, 2}, []float64{0, 0, 1}, 1e6)
	if math.Abs(ts-0.5) > 1e-12 || math.Abs(tm-1) > 1e-12 {
		t.Errorf("Evaluate on aggregator 2 alone: T_scatter %v, T_multicast %v, want 0.5 and 1", ts, tm)
	}
}

// TestLPHandWorkedAsymmetric solves LP (2) on the asymmetric matrix by
// hand. With S = 1 Mbit and the bottlenecks above, Ts >= x_k S/s_k and Tm
// >= x_k S/m_k. Write Ts = aT, Tm = (1-a)T: sum x = 1 is feasible iff
// T g(a) >= S with g(a) = sum_k min(a s_k, (1-a) m_k) (Mbit/s):
//
//	g(a) = min(4a, 1-a) + min(a, 4(1-a)) + min(2a, 1-a)
//
// g is concave, piecewise linear, with breakpoints a = m_k/(s_k + m_k) =
// 1/5, 4/5, 1/3: g(1/5) = 0.8 + 0.2 + 0.4 = 1.4, g(4/5) = 0.2 + 0.8 + 0.2 =
// 1.2, g(1/3) = 2/3 + 1/3 + 2/3 = 5/3. So T = 3/5 s, Ts = 1/5, Tm = 2/5, and
// x_k = min(Ts s_k, Tm m_k) = (min(0.8, 0.4), min(0.2, 1.6), min(0.4,
// 0.4)) = (0.4, 0.2, 0.4), which sums to 1, so it is the only optimum.
// Reading the multicast bottleneck the wrong way round (m = s) would give
// x proportional to s = (4, 1, 2) and T = 2/7.
func TestLPHandWorkedAsymmetric(t *testing.T) {
	w, err := SolveLP(asymmetric(), []int{0, 1}, []int{0, 1, 2}, 1e6, ObjectiveEq2)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(w.Objective-0.6) > 1e-9 || math.Abs(w.Scatter-0.2) > 1e-9 || math.Abs(w.Multicast-0.4) > 1e-9 {
		t.Errorf("T = %v (scatter %v, multicast %v), want 0.6 (0.2 + 0.4)", w.Objective, w.Scatter, w.Multicast)
	}
	want := []float64{0.4, 0.2, 0.4}
	for k := range want {
		if math.Abs(w.X[k]-want[k]) > 1e-9 {
			t.Errorf("x = %v, want %v", w.X, want)
			break
		}
	}
	// The store-and-forward objective by hand: x_k proportional to
	// h_k = 1/(1/s_k + 1/m_k) = (0.8, 0.8, 2/3), T = S / sum h = 1/(34/15).
	sf, err := SolveLP(asymmetric(), []int{0, 1}, []int{0, 1, 2}, 1e6, ObjectiveStoreForward)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(sf.Objective-15.0/34) > 1e-9 {
		t.Errorf("store-forward T = %v, want 15/34", sf.Objective)
	}
	wantSF := []float64{12.0 / 34, 12.0 / 34, 10.0 / 34}
	for k := range wantSF {
		if math.Abs(sf.X[k]-wantSF[k]) > 1e-9 {
			t.Errorf("store-forward x = %v, want %v", sf.X, wantSF)
			break
		}
	}
}
