package crew

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Objective is what the scatter-weight LP minimises.
//
// Our reading of Sec. IV-A. With the model as one unit and x_j the share
// of block j, Eq. 1a gives the scatter time as
//
//	T_scatter = max_{i in P} max_{j in N} x_j / b_ij = max_j x_j / s_j,  s_j = min_{i in P} b_ij,
//
// that is, an initiator's connections to different aggregators run in
// parallel and do not share an uplink (the full-mesh abstraction of
// Sec. III), and Eq. 1b gives the multicast time as
//
//	T_multicast = max_j x_j / m_j,  m_j = min_{i in P} b_ji,
//
// with b_ii = +Inf (a worker's own block does not travel). LP (2)
// minimises T = T_scatter + T_multicast subject to sum x = 1, x >= 0. The
// paper motivates T as an upper bound of the pipelined completion T_CREW
// (T/2 <= T_CREW <= T), and x of the LP as a guideline, not as the exact
// optimum of T_CREW; the simulator pipelines blocks chunk by chunk by
// default (Pipeline), within that bound. When each block moves as one
// transfer and is multicast once its p copies have arrived
// (PipelineBlock: store-and-forward per block), an uncontended partial
// reduce takes max_j x_j (1/s_j + 1/m_j) plus latencies, which is at most
// T. ObjectiveStoreForward minimises that quantity instead; it is the
// alternative reading, kept as a parameter.
type Objective uint8

const (
	// ObjectiveEq2 is LP (2): minimise T_scatter + T_multicast.
	ObjectiveEq2 Objective = iota
	// ObjectiveStoreForward minimises max_j x_j (1/s_j + 1/m_j), the
	// uncontended time of block-level store-and-forward.
	ObjectiveStoreForward
)

// String names the objective as in parameters: "eq2" or "store-forward".
func (o Objective) String() string {
	if o == ObjectiveStoreForward {
		return "store-forward"
	}
	return "eq2"
}

// ParseObjective parses "eq2" or "store-forward".
func ParseObjective(s string) (Objective, error) {
	switch s {
	case "eq2":
		return ObjectiveEq2, nil
	case "store-forward":
		return ObjectiveStoreForward, nil
	}
	return 0, fmt.Errorf("unknown LP objective %q (allowed: eq2, store-forward)", s)
}

// ErrNoAggregator is returned when no candidate aggregator has a working
// connection from and to every worker of P.
var ErrNoAggregator = errors.New("no aggregator has working connections to and from every initiator")

// Bottlenecks returns, for each candidate aggregator aggs[k], s[k] = min
// over i in P (i != aggs[k]) of bw[i][aggs[k]] (its scatter bottleneck,
// Eq. 1a) and m[k] = min over i in P of bw[aggs[k]][i] (its multicast
// bottleneck, Eq. 1b). Both are +Inf when P holds only aggs[k]. A zero
// entry (a broken connection) makes the bottleneck 0.
func Bottlenecks(bw Matrix, P, aggs []int) (s, m []float64) {
	s = make([]float64, len(aggs))
	m = make([]float64, len(aggs))
	for k, j := range aggs {
		s[k], m[k] = math.Inf(1), math.Inf(1)
		for _, i := range P {
			if i == j {
				continue
			}
			s[k] = min(s[k], bw[i][j])
			m[k] = min(m[k], bw[j][i])
		}
	}
	return s, m
}

// Weights are scatter weights over a set of aggregators and the times
// Eq. 1a/1b give them.
type Weights struct {
	Aggs      []int     // worker index of each aggregator
	X         []float64 // share of the model for each aggregator; sums to 1
	Scatter   float64   // T_scatter of Eq. 1a, seconds
	Multicast float64   // T_multicast of Eq. 1b, seconds
	// Objective is the value of the objective the weights were chosen for
	// (seconds): Scatter + Multicast for Eq. 2 and even weights, the
	// store-and-forward time for ObjectiveStoreForward.
	Objective float64
}

// Evaluate returns T_scatter and T_multicast (seconds, Eq. 1a and 1b) of
// weights x over aggs for a model of modelBits bits. A positive share on
// an aggregator with a zero bottleneck gives +Inf.
func Evaluate(bw Matrix, P, aggs []int, x []float64, modelBits float64) (ts, tm float64) {
	s, m := Bottlenecks(bw, P, aggs)
	for k := range aggs {
		if x[k] <= 0 {
			continue
		}
		ts = max(ts, modelBits*x[k]/s[k])
		tm = max(tm, modelBits*x[k]/m[k])
	}
	return ts, tm
}

// storeForward returns max_k x_k (1/s_k + 1/m_k) modelBits.
func storeForward(s, m, x []float64, modelBits float64) float64 {
	t := 0.0
	for k := range x {
		if x[k] > 0 {
			t = max(t, modelBits*x[k]*(1/s[k]+1/m[k]))
		}
	}
	return t
}

// EvenWeights is the network-agnostic split (E-D): the model shared
// equally among the aggregators that have working connections to and from
// all of P.
func EvenWeights(bw Matrix, P, aggs []int, modelBits float64) (Weights, error) {
	s, m := Bottlenecks(bw, P, aggs)
	usable := 0
	for k := range aggs {
		if s[k] > 0 && m[k] > 0 {
			usable++
		}
	}
	if usable == 0 {
		return Weights{}, ErrNoAggregator
	}
	w := Weights{Aggs: append([]int(nil), aggs...), X: make([]float64, len(aggs))}
	for k := range aggs {
		if s[k] > 0 && m[k] > 0 {
			w.X[k] = 1 / float64(usable)
		}
	}
	w.Scatter, w.Multicast = Evaluate(bw, P, aggs, w.X, modelBits)
	w.Objective = w.Scatter + w.Multicast
	return w, nil
}

// lpTol is the simplex's optimality tolerance on reduced costs (seconds
// per unit of model; objective values are seconds to minutes).
const lpTol = 1e-10

// SolveLP returns the network-aware scatter weights (N-A) over aggs for
// initiators P: the optimum of LP (2) (obj = ObjectiveEq2) or of the
// store-and-forward objective, solved with gonum's simplex. Aggregators
// with a zero bottleneck (a broken connection) get weight 0; if none is
// usable the error is ErrNoAggregator. With a single initiator nothing
// travels: the weights are even and every time is 0.
func SolveLP(bw Matrix, P, aggs []int, modelBits float64, obj Objective) (Weights, error) {
	return solveLP(bw, P, aggs, modelBits, obj, true)
}

// solveLP is SolveLP; warm = false skips the warm start of LP (2) (tests
// use it to exercise the simplex from a cold basis).
func solveLP(bw Matrix, P, aggs []int, modelBits float64, obj Objective, warm bool) (Weights, error) {
	if len(aggs) == 0 {
		return Weights{}, ErrNoAggregator
	}
	if len(P) < 2 {
		w, err := EvenWeights(bw, P, aggs, modelBits)
		w.Scatter, w.Multicast, w.Objective = 0, 0, 0
		return w, err
	}
	s, m := Bottlenecks(bw, P, aggs)
	var use []int // indexes into aggs of usable aggregators
	for k := range aggs {
		if s[k] > 0 && m[k] > 0 {
			use = append(use, k)
		}
	}
	if len(use) == 0 {
		return Weights{}, ErrNoAggregator
	}
	solve := func(S float64) ([]float64, error) {
		if obj == ObjectiveStoreForward {
			return solveStoreForward(s, m, use, S)
		}
		return solveEq2(s, m, use, S, warm)
	}
	xs, err := solve(modelBits)
	if err != nil {
		// Both LPs are homogeneous in the model size: the optimal x is
		// the same for every S, and the times scale with it. Coefficients
		// S/s_q far from the constraint sum x = 1's (a 1e9 MB model over
		// 1 Mbit/s links: 1e12 against 1) leave gonum's bases singular in
		// floating point; at the geometric mean of the bottlenecks they
		// centre on 1.
		if xs2, err2 := solve(geoMeanFinite(s, m, use)); err2 == nil {
			xs, err = xs2, nil
		}
	}
	if err != nil {
		return Weights{}, fmt.Errorf("scatter-weight LP: %w", err)
	}
	w := Weights{Aggs: append([]int(nil), aggs...), X: make([]float64, len(aggs))}
	sum := 0.0
	for q, k := range use {
		v := max(xs[q], 0) // the simplex may leave -1e-17
		w.X[k] = v
		sum += v
	}
	for k := range w.X {
		w.X[k] /= sum
	}
	w.Scatter, w.Multicast = Evaluate(bw, P, aggs, w.X, modelBits)
	if obj == ObjectiveStoreForward {
		w.Objective = storeForward(s, m, w.X, modelBits)
	} else {
		w.Objective = w.Scatter + w.Multicast
	}
	return w, nil
}

// geoMeanFinite is the geometric mean of the finite, positive
// bottlenecks s[k] and m[k] of the usable aggregators (1 when none is).
func geoMeanFinite(s, m []float64, use []int) float64 {
	sum, n := 0.0, 0
	for _, k := range use {
		for _, v := range []float64{s[k], m[k]} {
			if v > 0 && !math.IsInf(v, 1) {
				sum += math.Log(v)
				n++
			}
		}
	}
	if n == 0 {
		return 1
	}
	return math.Exp(sum / float64(n))
}

// solveEq2 solves LP (2) in standard form over the usable aggregators:
//
//	minimise Ts + Tm
//	s.t.     sum_q x_q = 1
//	         (S/s_q) x_q - Ts + u_q = 0   for each q with finite s_q
//	         (S/m_q) x_q - Tm + v_q = 0   for each q with finite m_q
//	         x, Ts, Tm, u, v >= 0
//
// Variables are ordered x (K), Ts, Tm, u (one per finite s), v (one per
// finite m). The simplex starts from the feasible basis that puts the
// whole model on the single best aggregator.
func solveEq2(s, m []float64, use []int, S float64, warm bool) ([]float64, error) {
	K := len(use)
	var sRows, mRows []int // q indexes with finite bottlenecks
	for q, k := range use {
		if !math.IsInf(s[k], 1) {
			sRows = append(sRows, q)
		}
		if !math.IsInf(m[k], 1) {
			mRows = append(mRows, q)
		}
	}
	rows := 1 + len(sRows) + len(mRows)
	iTs, iTm := K, K+1
	cols := K + 2 + len(sRows) + len(mRows)
	A := mat.NewDense(rows, cols, nil)
	b := make([]float64, rows)
	c := make([]float64, cols)
	c[iTs], c[iTm] = 1, 1
	b[0] = 1
	for q := 0; q < K; q++ {
		A.Set(0, q, 1)
	}
	row := 1
	for r, q := range sRows {
		A.Set(row, q, S/s[use[q]])
		A.Set(row, iTs, -1)
		A.Set(row, K+2+r, 1)
		row++
	}
	for r, q := range mRows {
		A.Set(row, q, S/m[use[q]])
		A.Set(row, iTm, -1)
		A.Set(row, K+2+len(sRows)+r, 1)
		row++
	}
	// A variable with an all-zero column (Ts without finite s rows, Tm
	// likewise) is fixed at 0: drop it.
	keep := make([]int, 0, cols)
	for j := 0; j < cols; j++ {
		if (j == iTs && len(sRows) == 0) || (j == iTm && len(mRows) == 0) {
			continue
		}
		keep = append(keep, j)
	}
	A2, c2 := selectCols(A, c, keep)
	pos := make([]int, cols) // original column -> column of A2, or -1
	for j := range pos {
		pos[j] = -1
	}
	for j, k := range keep {
		pos[k] = j
	}
	// Warm start: the basis of the threshold split (see warmEq2). The
	// simplex certifies it (all reduced costs non-negative) or pivots on
	// from it, so the optimum never rests on the warm start being right.
	if basis := warmEq2(s, m, use, S, sRows, mRows, pos, K); warm && basis != nil && feasibleBasis(A2, b, basis) {
		if x, err := simplexOnce(c2, A2, b, lpTol, basis); err == nil {
			return x[:K], nil
		}
	}
	// Otherwise start from the best single aggregator q0 carrying
	// everything; Ts, Tm and every other slack are basic.
	q0, best := -1, math.Inf(1)
	for q, k := range use {
		if t := S/s[k] + S/m[k]; !math.IsInf(s[k], 1) && !math.IsInf(m[k], 1) && t < best {
			q0, best = q, t
		}
	}
	var basis []int
	if q0 >= 0 {
		basis = append(basis, q0)
		for j := range keep {
			kj := keep[j]
			switch {
			case kj == iTs || kj == iTm:
				basis = append(basis, j)
			case kj >= K+2 && kj < K+2+len(sRows) && sRows[kj-K-2] != q0:
				basis = append(basis, j)
			case kj >= K+2+len(sRows) && mRows[kj-K-2-len(sRows)] != q0:
				basis = append(basis, j)
			}
		}
		if len(basis) != rows {
			basis = nil
		}
	}
	x, err := simplex(c2, A2, b, lpTol, basis)
	if err != nil {
		return nil, err
	}
	return x[:K], nil
}

// warmEq2 returns a basis of LP (2) (columns of the reduced matrix, pos
// maps original columns to them) at the threshold split, or nil. For Ts =
// a T and Tm = (1-a) T the largest feasible sum of x is T g(a)/S with g(a)
// = sum_q min(a s_q, (1-a) m_q), concave and piecewise linear in a, so the
// optimum sits at a breakpoint a_q = m_q/(s_q+m_q); there x_q = min(Ts
// s_q, Tm m_q)/S. The basic variables are Ts, Tm, every x_q and every
// slack of a constraint that is not tight, completed with a tight slack
// for every breakpoint aggregator but one when ties make the vertex
// degenerate.
func warmEq2(s, m []float64, use []int, S float64, sRows, mRows, pos []int, K int) []int {
	if len(sRows) != K || len(mRows) != K {
		return nil // some bottleneck infinite: rare (tiny P); cold start
	}
	g := func(a float64) float64 {
		sum := 0.0
		for _, k := range use {
			sum += min(a*s[k], (1-a)*m[k])
		}
		return sum
	}
	bestA, bestG := 0.0, 0.0
	for _, k := range use {
		a := m[k] / (s[k] + m[k])
		if v := g(a); v > bestG {
			bestA, bestG = a, v
		}
	}
	if bestG <= 0 || bestA <= 0 || bestA >= 1 {
		return nil
	}
	T := S / bestG
	ts, tm := bestA*T, (1-bestA)*T
	rows := 1 + 2*K
	basis := make([]int, 0, rows)
	basis = append(basis, pos[K], pos[K+1])
	for q := 0; q < K; q++ {
		basis = append(basis, pos[q])
	}
	// Classify: scatter-tight (x = Ts s/S: u non-basic, v basic),
	// multicast-tight (u basic, v non-basic), or tied at the breakpoint
	// ratio. The tied ones decide the basis at a degenerate vertex: the
	// simplex multipliers are alpha_q = lambda s_q/S on the scatter side
	// and beta_q = lambda m_q/S on the multicast side, with lambda = T
	// and sum alpha = sum beta = 1 (the dual of LP (2)). Tied aggregators
	// join the scatter side while sum alpha stays within 1; the first that
	// does not fit is the one breakpoint aggregator with both slacks
	// non-basic; the rest join the multicast side. That basis is optimal
	// (dual feasible), so the simplex only has to certify it.
	invT := bestG / S
	as := 0.0
	var tied []int
	for q, k := range use {
		sv, mv := ts*s[k], tm*m[k]
		switch {
		case sv < mv*(1-1e-12):
			as += s[k] / S
			basis = append(basis, pos[K+2+K+q])
		case mv < sv*(1-1e-12):
			basis = append(basis, pos[K+2+q])
		default:
			tied = append(tied, q)
		}
	}
	if len(tied) == 0 {
		return nil
	}
	bp := -1
	for _, q := range tied {
		k := use[q]
		switch {
		case bp < 0 && as+s[k]/S <= invT*(1+1e-12):
			as += s[k] / S
			basis = append(basis, pos[K+2+K+q])
		case bp < 0:
			bp = q
		default:
			basis = append(basis, pos[K+2+q])
		}
	}
	if bp < 0 {
		// Every tied one fitted on the scatter side: the last becomes the
		// breakpoint aggregator.
		basis = basis[:len(basis)-1]
	}
	if len(basis) != rows {
		return nil
	}
	return basis
}

// feasibleBasis reports whether the columns basis of A form a
// non-singular matrix whose solution of A_B x = b is non-negative (gonum's
// simplex panics on a supplied basis that is not).
func feasibleBasis(A *mat.Dense, b []float64, basis []int) bool {
	r, _ := A.Dims()
	ab := mat.NewDense(r, len(basis), nil)
	for j, col := range basis {
		for i := 0; i < r; i++ {
			ab.Set(i, j, A.At(i, col))
		}
	}
	var x mat.VecDense
	if err := x.SolveVec(ab, mat.NewVecDense(r, b)); err != nil {
		return false
	}
	for i := 0; i < r; i++ {
		if x.AtVec(i) < -1e-14 {
			return false
		}
	}
	return true
}

// solveStoreForward solves min T s.t. sum x = 1, S x_q (1/s_q + 1/m_q) <=
// T, in standard form with one slack per aggregator.
func solveStoreForward(s, m []float64, use []int, S float64) ([]float64, error) {
	K := len(use)
	var tRows []int
	for q, k := range use {
		if !math.IsInf(s[k], 1) || !math.IsInf(m[k], 1) {
			tRows = append(tRows, q)
		}
	}
	if len(tRows) == 0 {
		x := make([]float64, K)
		for q := range x {
			x[q] = 1 / float64(K)
		}
		return x, nil
	}
	rows := 1 + len(tRows)
	cols := K + 1 + len(tRows)
	A := mat.NewDense(rows, cols, nil)
	b := make([]float64, rows)
	c := make([]float64, cols)
	c[K] = 1
	b[0] = 1
	for q := 0; q < K; q++ {
		A.Set(0, q, 1)
	}
	q0, best := -1, math.Inf(1)
	for r, q := range tRows {
		k := use[q]
		a := S * (1/s[k] + 1/m[k])
		A.Set(1+r, q, a)
		A.Set(1+r, K, -1)
		A.Set(1+r, K+1+r, 1)
		if a < best {
			q0, best = q, a
		}
	}
	basis := []int{q0, K}
	for r, q := range tRows {
		if q != q0 {
			basis = append(basis, K+1+r)
		}
	}
	if len(basis) != rows {
		basis = nil
	}
	x, err := simplex(c, A, b, lpTol, basis)
	if err != nil {
		return nil, err
	}
	return x[:K], nil
}

// selectCols returns the columns keep of A and c.
func selectCols(A *mat.Dense, c []float64, keep []int) (*mat.Dense, []float64) {
	r, cols := A.Dims()
	if len(keep) == cols {
		return A, c
	}
	A2 := mat.NewDense(r, len(keep), nil)
	c2 := make([]float64, len(keep))
	for j, k := range keep {
		c2[j] = c[k]
		for i := 0; i < r; i++ {
			A2.Set(i, j, A.At(i, k))
		}
	}
	return A2, c2
}
