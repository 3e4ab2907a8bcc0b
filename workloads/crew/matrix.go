package crew

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Matrix is a directed quantity between n workers: m[i][j] goes from
// worker i to worker j (bandwidth b_ij in bits/s, or a latency). The
// diagonal is ignored: CREW takes b_ii as a large value so a worker's
// transfer to itself is never the bottleneck (Sec. III).
type Matrix [][]float64

// NewMatrix returns an n x n matrix of zeros.
func NewMatrix(n int) Matrix {
	m := make(Matrix, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}

// N is the number of workers.
func (m Matrix) N() int { return len(m) }

// Clone returns a deep copy.
func (m Matrix) Clone() Matrix {
	c := make(Matrix, len(m))
	for i := range m {
		c[i] = append([]float64(nil), m[i]...)
	}
	return c
}

// At is m[i][j] off the diagonal and +Inf on it.
func (m Matrix) At(i, j int) float64 {
	if i == j {
		return math.Inf(1)
	}
	return m[i][j]
}

// Validate checks that m is square with at least two workers and that
// every off-diagonal entry is finite and positive (what), naming the first
// bad entry with 1-based row and column.
func (m Matrix) Validate(what string) error {
	n := len(m)
	if n < 2 {
		return fmt.Errorf("%s: %d workers, need at least 2", what, n)
	}
	for i, row := range m {
		if len(row) != n {
			return fmt.Errorf("%s: row %d has %d entries, want %d (the matrix must be square)", what, i+1, len(row), n)
		}
		for j, v := range row {
			if i == j {
				continue
			}
			if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
				return fmt.Errorf("%s: entry (%d,%d) is %v, want a finite positive number", what, i+1, j+1, v)
			}
		}
	}
	return nil
}

// Noisy returns the estimate CREW's controller works with when the real
// capacities are m (Sec. V-H): every directed entry becomes b(1 + x) with
// x ~ U[-lambda, lambda] drawn once per entry from r, row by row. lambda =
// 0 returns a copy. lambda must lie in [0, 1).
func (m Matrix) Noisy(r *rand.Rand, lambda float64) (Matrix, error) {
	if !(lambda >= 0 && lambda < 1) {
		return nil, fmt.Errorf("bandwidth noise lambda %v must lie in [0, 1)", lambda)
	}
	c := m.Clone()
	if lambda == 0 {
		return c, nil
	}
	for i := range c {
		for j := range c[i] {
			if i != j {
				c[i][j] *= 1 + lambda*(2*r.Float64()-1)
			}
		}
	}
	return c, nil
}

// ReadMatrix reads a square matrix from CSV text: one row per line,
// entries separated by commas (spaces around them are allowed), blank
// lines and lines starting with '#' skipped. Diagonal entries are ignored
// and may be empty, '-' or any number. Each off-diagonal entry is scaled
// by unit (for example 1e6 for Mbps) and must be finite and positive
// unless allowZero. Errors name the line and column.
func ReadMatrix(r io.Reader, unit float64, allowZero bool) (Matrix, error) {
	var m Matrix
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, ",")
		i := len(m)
		row := make([]float64, len(fields))
		for j, f := range fields {
			f = strings.TrimSpace(f)
			if j == i {
				continue // diagonal: ignored
			}
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d, column %d: %q is not a number", line, j+1, f)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || (v == 0 && !allowZero) {
				return nil, fmt.Errorf("line %d, column %d: %v must be finite and positive", line, j+1, v)
			}
			if row[j] = v * unit; math.IsInf(row[j], 0) {
				return nil, fmt.Errorf("line %d, column %d: %v is too large", line, j+1, v)
			}
		}
		m = append(m, row)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("no rows")
	}
	for i, row := range m {
		if len(row) != len(m) {
			return nil, fmt.Errorf("row %d has %d entries but there are %d rows: the matrix must be square", i+1, len(row), len(m))
		}
	}
	if len(m) < 2 {
		return nil, fmt.Errorf("1 worker: need at least 2")
	}
	return m, nil
}
