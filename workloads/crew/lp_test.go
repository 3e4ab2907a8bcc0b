package crew

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// closedFormEq2 is the exact optimum of LP (2), derived independently of
// any LP solver. With Ts = aT and Tm = (1-a)T, the constraints x_j <= Ts
// s_j / S and x_j <= Tm m_j / S admit sum x = 1 iff T g(a) >= S, where
// g(a) = sum_j min(a s_j, (1-a) m_j). So T* = S / max_a g(a); g is
// concave and piecewise linear in a, so its maximum sits at a breakpoint
// a_j = m_j / (s_j + m_j) or at an end (0 or 1). An infinite s_j (or m_j)
// drops that side's constraint; a zero one drops the aggregator.
func closedFormEq2(s, m []float64, S float64) float64 {
	g := func(a float64) float64 {
		sum := 0.0
		for j := range s {
			switch {
			case s[j] == 0 || m[j] == 0:
			case math.IsInf(s[j], 1) && math.IsInf(m[j], 1):
				return math.Inf(1)
			case math.IsInf(s[j], 1):
				sum += (1 - a) * m[j]
			case math.IsInf(m[j], 1):
				sum += a * s[j]
			default:
				sum += min(a*s[j], (1-a)*m[j])
			}
		}
		return sum
	}
	cands := []float64{0, 1}
	for j := range s {
		if s[j] > 0 && m[j] > 0 && !math.IsInf(s[j], 1) && !math.IsInf(m[j], 1) {
			cands = append(cands, m[j]/(s[j]+m[j]))
		}
	}
	best := 0.0
	for _, a := range cands {
		best = max(best, g(a))
	}
	return S / best
}

// closedFormSF is the exact optimum of the store-and-forward objective:
// x_j proportional to h_j = 1/(1/s_j + 1/m_j), T = S / sum h_j.
func closedFormSF(s, m []float64, S float64) float64 {
	sum := 0.0
	for j := range s {
		if s[j] > 0 && m[j] > 0 {
			sum += 1 / (1/s[j] + 1/m[j])
		}
	}
	return S / sum
}

// lpCase is one random instance.
type lpCase struct {
	name string
	bw   Matrix
	P    []int
	aggs []int
}

// randomLPCases draws small instances: random bandwidths, ties (values
// from a tiny set), all-equal matrices, and broken directions (zeros).
func randomLPCases(r *rand.Rand, count int) []lpCase {
	var out []lpCase
	for c := 0; c < count; c++ {
		n := 2 + r.IntN(6)
		bw := NewMatrix(n)
		kind := c % 4
		for i := range bw {
			for j := range bw[i] {
				if i == j {
					continue
				}
				switch kind {
				case 0: // continuous
					bw[i][j] = 1e6 * (1 + 249*r.Float64())
				case 1: // ties: few distinct values
					bw[i][j] = 25e6 * float64(1+r.IntN(3))
				case 2: // all equal
					bw[i][j] = 50e6
				case 3: // continuous with broken directions
					bw[i][j] = 1e6 * (1 + 249*r.Float64())
					if r.IntN(5) == 0 {
						bw[i][j] = 0
					}
				}
			}
		}
		perm := r.Perm(n)
		p := 1 + r.IntN(n)
		P := append([]int(nil), perm[:p]...)
		aggs := make([]int, n)
		for i := range aggs {
			aggs[i] = i
		}
		if c%5 == 4 { // OPR: aggregators are P
			aggs = append([]int(nil), P...)
		}
		out = append(out, lpCase{fmt.Sprintf("%d/kind%d/n%d/p%d", c, kind, n, p), bw, P, aggs})
	}
	return out
}

// TestLPMatchesClosedForm: gonum's simplex reaches the exact optimum of
// LP (2) (from the warm basis and from a cold start) and of the
// store-and-forward objective on random small matrices, including ties,
// all-equal matrices and zero-capacity directions; the weights are
// feasible and achieve the optimum.
func TestLPMatchesClosedForm(t *testing.T) {
	const S = 8 * 180e6
	r := rand.New(rand.NewPCG(1, 2))
	cases := randomLPCases(r, 400)
	// Hand-made edge cases.
	tie := Matrix{{0, 10e6, 10e6}, {10e6, 0, 10e6}, {10e6, 10e6, 0}}
	oneWay := Matrix{{0, 0, 30e6}, {20e6, 0, 40e6}, {50e6, 60e6, 0}}
	// N1 and N2 at full size: integer-Mbps bandwidths tie often.
	for k, p := range []int{5, 10, 60} {
		n1, err := N1(r, PlaceRegions(r, 60), N1Pooled)
		if err != nil {
			t.Fatal(err)
		}
		all := r.Perm(60)
		for _, bw := range []Matrix{n1, N2(r, 60)} {
			cases = append(cases, lpCase{fmt.Sprintf("n60/p%d/%d", p, k), bw, all[:p], all})
		}
	}
	cases = append(cases,
		lpCase{"symmetric tie", tie, []int{0, 1}, []int{0, 1, 2}},
		lpCase{"zero-capacity direction 0->1", oneWay, []int{0, 1}, []int{0, 1, 2}},
		lpCase{"zero direction, OPR", oneWay, []int{0, 2}, []int{0, 2}},
	)
	solved := 0
	for _, tc := range cases {
		for _, run := range []struct {
			obj  Objective
			warm bool
		}{{ObjectiveEq2, true}, {ObjectiveEq2, false}, {ObjectiveStoreForward, true}} {
			obj := run.obj
			if !run.warm && len(tc.aggs) > 10 {
				continue // a cold start at n = 60 takes 0.1 s
			}
			s, m := Bottlenecks(tc.bw, tc.P, tc.aggs)
			var want float64
			if obj == ObjectiveEq2 {
				want = closedFormEq2(s, m, S)
			} else {
				want = closedFormSF(s, m, S)
			}
			w, err := solveLP(tc.bw, tc.P, tc.aggs, S, obj, run.warm)
			if math.IsInf(want, 1) {
				if !errors.Is(err, ErrNoAggregator) {
					t.Errorf("%s/%v: no usable aggregator, got err %v", tc.name, obj, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s/%v: %v", tc.name, obj, err)
				continue
			}
			if len(tc.P) < 2 {
				if w.Objective != 0 {
					t.Errorf("%s: one initiator, objective %v", tc.name, w.Objective)
				}
				continue
			}
			solved++
			if math.Abs(w.Objective-want) > 1e-9*want {
				t.Errorf("%s/%v: LP %.12g s, exact %.12g s", tc.name, obj, w.Objective, want)
			}
			sum := 0.0
			for k, x := range w.X {
				if x < 0 {
					t.Errorf("%s: x[%d] = %v < 0", tc.name, k, x)
				}
				if x > 0 && (s[k] == 0 || m[k] == 0) {
					t.Errorf("%s: weight %v on aggregator %d with a broken connection", tc.name, x, tc.aggs[k])
				}
				sum += x
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("%s: weights sum to %v", tc.name, sum)
			}
			ts, tm := Evaluate(tc.bw, tc.P, tc.aggs, w.X, S)
			if obj == ObjectiveEq2 && math.Abs(ts+tm-want) > 1e-9*want {
				t.Errorf("%s: weights give %v, optimum %v", tc.name, ts+tm, want)
			}
		}
	}
	if solved < 800 {
		t.Errorf("only %d instances with two or more initiators were solved", solved)
	}
}

// TestLPHandWorked: two initiators {0,1}, aggregators {0,1,2}. Worker 2's
// bottlenecks are s = min(b02, b12) = 10, m = min(b20, b21) = 10 (Mbps);
// aggregator 0: s = b10 = 40, m = b01 = 40; aggregator 1: s = b01 = 40,
// m = b10 = 40. g(a) = 40 min(a, 1-a) * 2 + 10 min(a, 1-a) peaks at a =
// 1/2 with g = 45 Mbps, so T = S / 45 Mbps, split evenly between scatter
// and multicast, with x proportional to (40, 40, 10).
func TestLPHandWorked(t *testing.T) {
	bw := Matrix{{0, 40e6, 10e6}, {40e6, 0, 10e6}, {10e6, 10e6, 0}}
	const S = 90e6 // bits
	w, err := SolveLP(bw, []int{0, 1}, []int{0, 1, 2}, S, ObjectiveEq2)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(w.Objective-2) > 1e-9 || math.Abs(w.Scatter-1) > 1e-9 || math.Abs(w.Multicast-1) > 1e-9 {
		t.Errorf("T = %v (scatter %v, multicast %v), want 2 (1 + 1)", w.Objective, w.Scatter, w.Multicast)
	}
	want := []float64{4.0 / 9, 4.0 / 9, 1.0 / 9}
	for k := range want {
		if math.Abs(w.X[k]-want[k]) > 1e-9 {
			t.Errorf("x = %v, want %v", w.X, want)
			break
		}
	}
	e, err := EvenWeights(bw, []int{0, 1}, []int{0, 1, 2}, S)
	if err != nil {
		t.Fatal(err)
	}
	// Even thirds: scatter 30e6/10e6 = 3 s, multicast 3 s.
	if math.Abs(e.Objective-6) > 1e-9 {
		t.Errorf("E-D objective %v, want 6", e.Objective)
	}
}

func TestLPNoAggregator(t *testing.T) {
	bw := Matrix{{0, 0, 0}, {10e6, 0, 0}, {10e6, 10e6, 0}}
	if _, err := SolveLP(bw, []int{0, 1}, []int{0, 1, 2}, 1e6, ObjectiveEq2); !errors.Is(err, ErrNoAggregator) {
		t.Errorf("err = %v, want ErrNoAggregator", err)
	}
	if _, err := EvenWeights(bw, []int{0, 1}, []int{0, 1, 2}, 1e6); !errors.Is(err, ErrNoAggregator) {
		t.Errorf("even: err = %v, want ErrNoAggregator", err)
	}
}

// BenchmarkLP60 solves LP (2) for n = 60 aggregators and p = 10
// initiators on N1 and N2, as every partial reduce of crew-training does
// (N2's 25 Mbit/s steps make many aggregators tie, a degenerate vertex).
func BenchmarkLP60(b *testing.B) {
	for _, nw := range []string{"n1", "n2"} {
		b.Run(nw, func(b *testing.B) {
			r := rand.New(rand.NewPCG(3, 4))
			bw := N2(r, 60)
			if nw == "n1" {
				var err error
				if bw, err = N1(r, PlaceRegions(r, 60), N1Pooled); err != nil {
					b.Fatal(err)
				}
			}
			aggs := make([]int, 60)
			for i := range aggs {
				aggs[i] = i
			}
			b.ReportAllocs()
			for b.Loop() {
				P := r.Perm(60)[:10]
				if _, err := SolveLP(bw, P, aggs, 8*180e6, ObjectiveEq2); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
