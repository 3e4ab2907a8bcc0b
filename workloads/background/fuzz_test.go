package background

import (
	"math"
	"testing"

	"syncsim/internal/fuzzcheck"
)

// FuzzParse: any flow-size CDF file is refused with a one-line error or
// read as a valid distribution: sizes and probabilities non-decreasing from the
// first point to probability 1, a finite mean within the sizes (zero only
// for a CDF of empty flows, which the generator refuses),
// and quantiles that stay within [Min, Max] and never decrease.
func FuzzParse(f *testing.F) {
	fuzzcheck.Seeds(f,
		"1000 0\n2000 50\n3000 100\n",
		"2000\n1000 0\n3000 1\n",
		"# comment\n100 0 # x\n\n200 100\n",
		"100 0\n200 1\n",
		"5 10\n4 20\n",
		"1e3 0\n1e400 100\n",
		"1 0\n1 100\n",
		"0x10 0\n20 100\n",
		"-1 0\n2 100\n",
		"10 0 7\n",
		"",
	)
	for _, w := range workloadFiles {
		if b, err := data.ReadFile("data/" + w.file); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseBytes("fuzz", data)
		if fuzzcheck.Refused(t, err, "") {
			return
		}
		pts := c.Points()
		for i := 1; i < len(pts); i++ {
			if pts[i].Size < pts[i-1].Size || pts[i].P < pts[i-1].P {
				t.Fatalf("points not non-decreasing: %v", pts)
			}
		}
		if last := pts[len(pts)-1].P; math.Abs(last-1) > 1e-9 {
			t.Fatalf("CDF ends at %v", last)
		}
		m := c.Mean()
		if !(m >= 0) || math.IsInf(m, 0) || m < c.Min()*(1-1e-9) || m > c.Max()*(1+1e-9) {
			t.Fatalf("mean %v outside [%v, %v]", m, c.Min(), c.Max())
		}
		prev := math.Inf(-1)
		for _, u := range []float64{0, 1e-9, 0.25, 0.5, 0.75, 1 - 1e-9, 1} {
			q := c.Quantile(u)
			if q < prev || q < c.Min() || q > c.Max() {
				t.Fatalf("Quantile(%v) = %v after %v, range [%v, %v]", u, q, prev, c.Min(), c.Max())
			}
			prev = q
		}
	})
}
