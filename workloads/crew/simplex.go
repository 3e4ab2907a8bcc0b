package crew

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// simplex is gonum's lp.Simplex for any input: x is the optimum, or err
// says why there is none. gonum panics when a supplied initial basis is
// singular or infeasible (optimize/convex/lp/simplex.go, Simplex's doc:
// initialBasic "must be an actual feasible solution to the LP, otherwise
// Simplex will panic"; simplex re-raises initializeFromBasic's error),
// and the bases this package builds from the closed forms are singular
// in floating point when the coefficients span too many orders of
// magnitude (a 1e9 MB model over 1 Mbit/s links: crew-single with
// model_mb=1e6 model_scale=1000 bw_scale=0.001). Such a basis is
// dropped and the simplex starts from its own Phase I; an error or a
// panic from there is returned as an error.
func simplex(c []float64, A mat.Matrix, b []float64, tol float64, basis []int) (x []float64, err error) {
	if basis != nil {
		if x, err = simplexOnce(c, A, b, tol, basis); err == nil {
			return x, nil
		}
	}
	return simplexOnce(c, A, b, tol, nil)
}

// simplexOnce is one call of lp.Simplex with its panics returned as
// errors.
func simplexOnce(c []float64, A mat.Matrix, b []float64, tol float64, basis []int) (x []float64, err error) {
	defer func() {
		if v := recover(); v != nil {
			x, err = nil, fmt.Errorf("%v", v)
		}
	}()
	_, x, err = lp.Simplex(c, A, b, tol, basis)
	return x, err
}
