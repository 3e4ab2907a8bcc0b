package dssync

import (
	"fmt"
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/mat"
)

// This file is the consensus analysis of Sec. IV-B: in the distributed
// average problem X_{k+1} = W_k X_k, W_k says how workers exchange
// parameters in iteration k. For DS-Sync w_ij = 1/|g| when i and j share
// group g in iteration k and 0 otherwise, so W_k is symmetric and doubly
// stochastic; the pattern is periodic (W_k = W_{k+B}) and the period
// product P = W_{B-1} ... W_0 describes a connected graph, so its second
// largest eigenvalue modulus rho is below one and (Lemma IV.1) the
// distance to the average after k periods falls as rho^k.

// GroupMatrix is W for one grouping of n workers: w_ij = 1/|g| when i and
// j are in the same group g, 0 otherwise.
func GroupMatrix(g Grouping, n int) *mat.Dense {
	w := mat.NewDense(n, n, nil)
	for _, grp := range g {
		v := 1 / float64(len(grp))
		for _, i := range grp {
			for _, j := range grp {
				w.Set(i, j, v)
			}
		}
	}
	return w
}

// ShiftMatrix is W for one iteration of push-sum gossip on a shift graph
// with uniform mixing weights (stochastic gradient push,
// gossip_module/mixing_manager.py, UniformMixing with one out-peer): every
// worker keeps half of its value and sends half to worker
// (i + offset) mod n, so x'_j = (x_j + x_{j-offset}) / 2. It is doubly
// stochastic but not symmetric.
func ShiftMatrix(n, offset int) *mat.Dense {
	w := mat.NewDense(n, n, nil)
	for j := 0; j < n; j++ {
		w.Set(j, j, w.At(j, j)+0.5)
		i := ((j-offset)%n + n) % n
		w.Set(j, i, w.At(j, i)+0.5)
	}
	return w
}

// Matrices lists the W_k of one period of a pattern.
func (p Pattern) Matrices() []*mat.Dense {
	ws := make([]*mat.Dense, len(p.Phases))
	for k, g := range p.Phases {
		ws[k] = GroupMatrix(g, p.Workers)
	}
	return ws
}

// Product is W_{len-1} ... W_1 W_0: the map from X_0 to X_len.
func Product(ws []*mat.Dense) *mat.Dense {
	n, _ := ws[0].Dims()
	p := identity(n)
	for _, w := range ws {
		var q mat.Dense
		q.Mul(w, p)
		p = &q
	}
	return p
}

func identity(n int) *mat.Dense {
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		m.Set(i, i, 1)
	}
	return m
}

// CheckDoublyStochastic reports the first entry that is negative, or row
// or column sum that differs from one, by more than tol.
func CheckDoublyStochastic(w mat.Matrix, tol float64) error {
	r, c := w.Dims()
	if r != c {
		return fmt.Errorf("W is %dx%d, not square", r, c)
	}
	for i := 0; i < r; i++ {
		var row, col float64
		for j := 0; j < r; j++ {
			if w.At(i, j) < -tol {
				return fmt.Errorf("W[%d][%d] = %g is negative", i, j, w.At(i, j))
			}
			row += w.At(i, j)
			col += w.At(j, i)
		}
		if math.Abs(row-1) > tol {
			return fmt.Errorf("row %d sums to %g", i, row)
		}
		if math.Abs(col-1) > tol {
			return fmt.Errorf("column %d sums to %g", i, col)
		}
	}
	return nil
}

// SLEM is the second largest eigenvalue modulus of a doubly stochastic
// matrix P: the spectral radius of P - J/n, whose eigenvalues are P's with
// the eigenvalue 1 of the all-ones vector replaced by 0 (J is the all-ones
// matrix). Computed with gonum's general eigensolver.
func SLEM(p mat.Matrix) (float64, error) {
	n, _ := p.Dims()
	d := mat.NewDense(n, n, nil)
	d.Apply(func(i, j int, v float64) float64 { return v - 1/float64(n) }, p)
	var e mat.Eigen
	if !e.Factorize(d, mat.EigenNone) {
		return math.NaN(), fmt.Errorf("eigendecomposition did not converge")
	}
	rho := 0.0
	for _, v := range e.Values(nil) {
		rho = math.Max(rho, cmplx.Abs(v))
	}
	return rho, nil
}

// Rho is rho of Sec. IV-B for a periodic sequence of W_k (one period):
// the second largest eigenvalue modulus of the period product.
func Rho(ws []*mat.Dense) (float64, error) {
	if len(ws) == 0 {
		return math.NaN(), fmt.Errorf("no matrices")
	}
	return SLEM(Product(ws))
}

// Deviation is ||x - mean(x) 1||^2, the squared distance of x to its
// average.
func Deviation(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	d := 0.0
	for _, v := range x {
		d += (v - m) * (v - m)
	}
	return d
}

// PeriodDistances applies the period product of ws to x0 k times and
// returns the squared distance to the average after 0, 1, ..., k periods
// (Lemma IV.1's left-hand side, summed over workers).
func PeriodDistances(ws []*mat.Dense, x0 []float64, k int) []float64 {
	p := Product(ws)
	x := mat.NewVecDense(len(x0), append([]float64(nil), x0...))
	out := []float64{Deviation(x.RawVector().Data)}
	for i := 0; i < k; i++ {
		var y mat.VecDense
		y.MulVec(p, x)
		x = &y
		out = append(out, Deviation(x.RawVector().Data))
	}
	return out
}

// WorstDistance is the worst case over initial vectors of
// ||X_k - average|| / ||X_0 - average|| after k periods:
// ||P^k - J/n||_2 for the period product P (gonum's SVD).
func WorstDistance(ws []*mat.Dense, k int) float64 {
	return WorstDistances(ws, k)[k]
}

// WorstDistances is WorstDistance after 0, 1, ..., k periods.
func WorstDistances(ws []*mat.Dense, k int) []float64 {
	p := Product(ws)
	n, _ := p.Dims()
	q := identity(n)
	out := []float64{spectralDeviation(q)}
	for i := 0; i < k; i++ {
		var r mat.Dense
		r.Mul(p, q)
		q = &r
		out = append(out, spectralDeviation(q))
	}
	return out
}

// spectralDeviation is ||m - J/n||_2.
func spectralDeviation(m *mat.Dense) float64 {
	n, _ := m.Dims()
	d := mat.NewDense(n, n, nil)
	d.Apply(func(i, j int, v float64) float64 { return v - 1/float64(n) }, m)
	var svd mat.SVD
	if !svd.Factorize(d, mat.SVDNone) {
		return math.NaN()
	}
	return svd.Values(nil)[0]
}

// ConsensusIters is the number of iterations t after which the worst case
// over initial vectors of ||X_t - average|| / ||X_0 - average|| is at most
// tol, where X_t = W(t-1) ... W(0) X_0 and W(t) is the matrix of iteration
// t: the smallest t with ||W(t-1)...W(0) - J/n||_2 <= tol (spectral norm,
// gonum's SVD). It returns -1 if maxIters iterations do not get there.
func ConsensusIters(n int, w func(t int) *mat.Dense, tol float64, maxIters int) int {
	p := identity(n)
	for t := 1; t <= maxIters; t++ {
		var q mat.Dense
		q.Mul(w(t-1), p)
		p = &q
		s := spectralDeviation(p)
		if math.IsNaN(s) {
			return -1
		}
		if s <= tol {
			return t
		}
	}
	return -1
}
