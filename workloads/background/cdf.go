package background

import (
	"fmt"
	"math"
	"math/rand/v2"

	"syncsim/netsim"
)

// Point is one knot of a flow-size CDF: the probability that a flow has at
// most Size bytes is P.
type Point struct {
	Size float64 // flow size in bytes
	P    float64 // cumulative probability in [0, 1]
}

// CDF is a piecewise-linear flow-size distribution. Between two knots the
// CDF is linear in size (not in log-size), so the density is uniform on each
// segment. This is how HPCC's traffic generator reads its files (see
// data/SOURCES.md); Quantile, Sample and Mean all use this one reading, so
// the sampled mean converges to Mean().
//
// Two knots with the same size form a vertical step, i.e. a point mass at
// that size. A file whose first knot has a probability above zero (the
// coarse Homa files start at 68 B with CDF 0.0204) therefore places that
// probability on the first size.
//
// The knots always start at probability 0 and end at probability 1, with
// sizes and probabilities non-decreasing.
type CDF struct {
	name       string
	pts        []Point
	mean       float64
	headerMean float64
}

// NewCDF validates pts and returns the piecewise-linear CDF through them.
// Sizes must be finite, non-negative and non-decreasing; probabilities
// finite, non-decreasing, within [0, 1] and ending at 1 (within 1e-6, then
// set to exactly 1); no point may repeat. If the first probability is above
// zero, a knot (first size, 0) is added in front: a point mass.
func NewCDF(name string, pts []Point) (*CDF, error) {
	c := &CDF{name: name}
	if err := c.setPoints(pts); err != nil {
		return nil, fmt.Errorf("cdf %q: %w", name, err)
	}
	return c, nil
}

// lastTolerance is how far the last cumulative probability may be from 1.
// The files end at exactly 1 or 100; the slack forgives rounding in
// user-written files.
const lastTolerance = 1e-6

func (c *CDF) setPoints(in []Point) error {
	if len(in) == 0 {
		return fmt.Errorf("no points")
	}
	for i, p := range in {
		switch {
		case math.IsNaN(p.Size) || math.IsInf(p.Size, 0) || p.Size < 0:
			return fmt.Errorf("point %d: size %v is not a finite non-negative number", i+1, p.Size)
		case math.IsNaN(p.P) || p.P < 0 || p.P > 1+lastTolerance:
			return fmt.Errorf("point %d: cumulative probability %v is outside [0, 1]", i+1, p.P)
		}
		if i == 0 {
			continue
		}
		q := in[i-1]
		switch {
		case p.Size < q.Size:
			return fmt.Errorf("point %d: size %v is below the previous size %v (sizes must not decrease)", i+1, p.Size, q.Size)
		case p.P < q.P:
			return fmt.Errorf("point %d: cumulative probability %v is below the previous %v (the CDF must not decrease)", i+1, p.P, q.P)
		case p == q:
			return fmt.Errorf("point %d: repeats point (%v, %v)", i+1, p.Size, p.P)
		}
	}
	last := in[len(in)-1].P
	if math.Abs(last-1) > lastTolerance {
		return fmt.Errorf("last cumulative probability is %v, want 1", last)
	}
	pts := make([]Point, 0, len(in)+1)
	if in[0].P > 0 {
		pts = append(pts, Point{Size: in[0].Size})
	}
	pts = append(pts, in...)
	pts[len(pts)-1].P = 1
	c.pts = pts
	c.mean = trapezoidMean(pts)
	return nil
}

// trapezoidMean is the mean of the piecewise-linear CDF through pts: on each
// segment the density is uniform, so the segment contributes its midpoint
// size times its probability, sum (x_i + x_{i-1})/2 * (p_i - p_{i-1}).
func trapezoidMean(pts []Point) float64 {
	m := 0.0
	for i := 1; i < len(pts); i++ {
		m += (pts[i].Size + pts[i-1].Size) / 2 * (pts[i].P - pts[i-1].P)
	}
	return m
}

// stepMean is the mean of the step CDF through pts (each size carries the
// probability step that ends at it), sum x_i * (p_i - p_{i-1}). Homa's files
// state this value in their header line.
func stepMean(pts []Point) float64 {
	m, prev := 0.0, 0.0
	for _, p := range pts {
		m += p.Size * (p.P - prev)
		prev = p.P
	}
	return m
}

// Name is the name the CDF was loaded under.
func (c *CDF) Name() string { return c.name }

// Points returns a copy of the knots.
func (c *CDF) Points() []Point { return append([]Point(nil), c.pts...) }

// Mean is the mean flow size in bytes of the piecewise-linear CDF, computed
// exactly as sum over segments of (x_i + x_{i-1})/2 * (p_i - p_{i-1}).
// Sample rounds to whole bytes and never returns less than 1 byte; for the
// embedded workloads that shifts the sampled mean by well under one byte.
func (c *CDF) Mean() float64 { return c.mean }

// Variance is the variance of the flow size in bytes squared. On each
// segment the size is uniform on [a, b], whose second moment is
// (a^2 + ab + b^2)/3, so E[X^2] = sum (a^2 + ab + b^2)/3 * (p_i - p_{i-1}).
func (c *CDF) Variance() float64 {
	m2 := 0.0
	for i := 1; i < len(c.pts); i++ {
		a, b := c.pts[i-1].Size, c.pts[i].Size
		m2 += (a*a + a*b + b*b) / 3 * (c.pts[i].P - c.pts[i-1].P)
	}
	return m2 - c.mean*c.mean
}

// HeaderMean is the mean stated in the file's header line (Homa format),
// which is the mean of the step reading of the same points; 0 when the file
// had no header.
func (c *CDF) HeaderMean() float64 { return c.headerMean }

// Min is the smallest size with positive probability.
func (c *CDF) Min() float64 { return c.pts[0].Size }

// Max is the largest size.
func (c *CDF) Max() float64 { return c.pts[len(c.pts)-1].Size }

// Quantile is the inverse CDF: the size x with CDF(x) = u, interpolated
// linearly in size between knots. u is clamped to [0, 1]; a NaN u gives NaN.
// Where the CDF is flat at u (a gap in the sizes), the lowest such size is
// returned; at a point mass, that size.
func (c *CDF) Quantile(u float64) float64 {
	if math.IsNaN(u) {
		return math.NaN()
	}
	pts := c.pts
	if u <= 0 {
		return pts[0].Size
	}
	if u >= 1 {
		return pts[len(pts)-1].Size
	}
	// First knot with P >= u; pts[0].P == 0 < u, so i >= 1.
	lo, hi := 1, len(pts)-1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if pts[mid].P >= u {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	a, b := pts[lo-1], pts[lo]
	return a.Size + (u-a.P)/(b.P-a.P)*(b.Size-a.Size)
}

// Prob is the CDF at size x: the probability that a flow has at most x
// bytes (right-continuous at point masses).
func (c *CDF) Prob(x float64) float64 {
	pts := c.pts
	if math.IsNaN(x) {
		return math.NaN()
	}
	if x < pts[0].Size {
		return 0
	}
	if x >= pts[len(pts)-1].Size {
		return 1
	}
	// Last knot with Size <= x; then pts[i+1].Size > x.
	lo, hi := 0, len(pts)-1
	for lo < hi {
		mid := int(uint(lo+hi+1) >> 1)
		if pts[mid].Size <= x {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	a, b := pts[lo], pts[lo+1]
	return a.P + (x-a.Size)/(b.Size-a.Size)*(b.P-a.P)
}

// Sample draws a flow size by inverse transform: u ~ U[0, 1) from r, then
// Quantile(u) rounded to the nearest byte, and at least 1 byte.
func (c *CDF) Sample(r *rand.Rand) netsim.Bytes {
	b := netsim.Bytes(math.Round(c.Quantile(r.Float64())))
	if b < 1 {
		b = 1
	}
	return b
}
