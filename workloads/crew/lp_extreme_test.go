package crew

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestLPExtremeScales: LP (2) and the store-and-forward LP at the edges of
// what crew-single and crew-training accept (model_mb up to 1e7 times
// model_scale up to 1000, bw_scale 0.001 to 1000) never panic: gonum's
// simplex panics on an initial basis that is singular in floating point
// (crew-single with model_mb=1e6 model_scale=1000 bw_scale=0.001 did),
// and simplex drops such a basis for its Phase I. The weights found reach
// the closed-form optimum (to a relative 1e-6), or the error says the LP
// failed.
func TestLPExtremeScales(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	base, err := N1(r, PlaceRegions(r, 60), N1Pooled)
	if err != nil {
		t.Fatal(err)
	}
	all := r.Perm(60)
	solved := 0
	for _, k := range []float64{0.001, 1, 1000} {
		bw := NewMatrix(60)
		for i := range bw {
			for j := range bw[i] {
				bw[i][j] = base[i][j] * k
			}
		}
		for _, S := range []float64{8 * 1e3, 8 * 500e6, 8 * 1e15, 8 * 1e16} {
			for _, obj := range []Objective{ObjectiveEq2, ObjectiveStoreForward} {
				name := fmt.Sprintf("bw_scale=%g/S=%g/%v", k, S, obj)
				P := all[:10]
				w, err := SolveLP(bw, P, all, S, obj)
				if err != nil {
					t.Logf("%s: %v", name, err)
					continue
				}
				s, m := Bottlenecks(bw, P, all)
				want := closedFormEq2(s, m, S)
				if obj == ObjectiveStoreForward {
					want = closedFormSF(s, m, S)
				}
				if math.Abs(w.Objective-want) > 1e-6*want {
					t.Errorf("%s: LP %.12g s, exact %.12g s", name, w.Objective, want)
				}
				solved++
			}
		}
	}
	if solved < 20 {
		t.Errorf("only %d of 24 LPs solved", solved)
	}
}
