package background

import (
	"math"
	"strings"
	"testing"

	"syncsim/netsim"
)

func mustCDF(t *testing.T, pts []Point) *CDF {
	t.Helper()
	c, err := NewCDF("test", pts)
	if err != nil {
		t.Fatalf("NewCDF: %v", err)
	}
	return c
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// A two-segment CDF worked by hand: half the flows uniform on [0, 100],
// half uniform on [100, 300]. Mean = 0.5*50 + 0.5*200 = 125.
func TestTinyCDFByHand(t *testing.T) {
	c := mustCDF(t, []Point{{0, 0}, {100, 0.5}, {300, 1}})
	if got := c.Mean(); got != 125 {
		t.Fatalf("Mean = %v, want 125", got)
	}
	quantiles := []struct{ u, want float64 }{
		{-1, 0}, {0, 0}, {0.25, 50}, {0.5, 100}, {0.625, 150}, {0.75, 200}, {1, 300}, {2, 300},
	}
	for _, q := range quantiles {
		if got := c.Quantile(q.u); !near(got, q.want, 1e-9) {
			t.Errorf("Quantile(%v) = %v, want %v", q.u, got, q.want)
		}
	}
	if !math.IsNaN(c.Quantile(math.NaN())) {
		t.Errorf("Quantile(NaN) is not NaN")
	}
	probs := []struct{ x, want float64 }{
		{-5, 0}, {0, 0}, {50, 0.25}, {100, 0.5}, {200, 0.75}, {300, 1}, {1e9, 1},
	}
	for _, p := range probs {
		if got := c.Prob(p.x); !near(got, p.want, 1e-12) {
			t.Errorf("Prob(%v) = %v, want %v", p.x, got, p.want)
		}
	}
	// E[X^2] = 0.5*100^2/3 + 0.5*(100^2 + 100*300 + 300^2)/3 = 70000/3.
	if got, want := c.Variance(), 70000.0/3-125*125; !near(got, want, 1e-9) {
		t.Errorf("Variance = %v, want %v", got, want)
	}
	if c.Min() != 0 || c.Max() != 300 {
		t.Errorf("Min, Max = %v, %v; want 0, 300", c.Min(), c.Max())
	}
}

// A first point above probability zero is a point mass at that size:
// P(68) = 0.2, then uniform on [68, 168]. Mean = 68*0.2 + 118*0.8 = 108.
func TestPointMassAtFirstSize(t *testing.T) {
	c := mustCDF(t, []Point{{68, 0.2}, {168, 1}})
	if got := c.Mean(); !near(got, 108, 1e-9) {
		t.Fatalf("Mean = %v, want 108", got)
	}
	if got := c.Points(); len(got) != 3 || got[0] != (Point{68, 0}) {
		t.Fatalf("Points = %v, want a (68, 0) knot in front", got)
	}
	for _, q := range []struct{ u, want float64 }{{0.1, 68}, {0.2, 68}, {0.6, 118}} {
		if got := c.Quantile(q.u); !near(got, q.want, 1e-9) {
			t.Errorf("Quantile(%v) = %v, want %v", q.u, got, q.want)
		}
	}
	if got := c.Prob(67.9); got != 0 {
		t.Errorf("Prob(67.9) = %v, want 0", got)
	}
	if got := c.Prob(68); !near(got, 0.2, 1e-12) {
		t.Errorf("Prob(68) = %v, want 0.2 (right-continuous)", got)
	}
}

func TestNewCDFRejectsMalformedPoints(t *testing.T) {
	cases := []struct {
		name string
		pts  []Point
		want string
	}{
		{"empty", nil, "no points"},
		{"negative size", []Point{{-1, 0}, {10, 1}}, "not a finite non-negative"},
		{"nan size", []Point{{math.NaN(), 0}, {10, 1}}, "not a finite non-negative"},
		{"infinite size", []Point{{0, 0}, {math.Inf(1), 1}}, "not a finite non-negative"},
		{"negative probability", []Point{{0, -0.1}, {10, 1}}, "outside [0, 1]"},
		{"probability above one", []Point{{0, 0}, {10, 1.5}}, "outside [0, 1]"},
		{"decreasing size", []Point{{0, 0}, {10, 0.5}, {5, 1}}, "below the previous size"},
		{"decreasing probability", []Point{{0, 0}, {10, 0.6}, {20, 0.5}, {30, 1}}, "must not decrease"},
		{"repeated point", []Point{{0, 0}, {10, 0.5}, {10, 0.5}, {20, 1}}, "repeats point"},
		{"does not reach one", []Point{{0, 0}, {10, 0.9}}, "want 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewCDF("bad", tc.pts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// Means of the embedded workloads under the linear reading. The HPCC values
// are the trapezoid sums quoted in data/SOURCES.md; for the Homa files the
// linear mean is the header's step mean less half of every segment's width
// times its probability, sum (x_i - x_{i-1})/2 * (p_i - p_{i-1}).
func TestWorkloadMeans(t *testing.T) {
	for _, tc := range []struct {
		name string
		want float64
	}{{"hadoop", 120421}, {"websearch", 1711250}} {
		c, err := Workload(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if !near(c.Mean(), tc.want, 1) {
			t.Errorf("%s: Mean = %v, want %v", tc.name, c.Mean(), tc.want)
		}
	}
	for _, name := range []string{"cachefollower", "cachefollower-coarse", "hadoop-homa"} {
		c, err := Workload(name)
		if err != nil {
			t.Fatal(err)
		}
		pts := c.Points()
		gap := 0.0
		for i := 1; i < len(pts); i++ {
			gap += (pts[i].Size - pts[i-1].Size) / 2 * (pts[i].P - pts[i-1].P)
		}
		if want := c.HeaderMean() - gap; !near(c.Mean(), want, 1e-6*want) {
			t.Errorf("%s: Mean = %v, want header %v - %v = %v", name, c.Mean(), c.HeaderMean(), gap, want)
		}
	}
}

// Quantiles quoted in data/SOURCES.md and read off the files' knots.
func TestWorkloadQuantiles(t *testing.T) {
	cases := []struct {
		workload string
		u, want  float64
		tol      float64
	}{
		{"hadoop", 0.5, 700, 1e-9},                       // knot "700 50"
		{"hadoop", 0.55, 850, 1e-9},                      // halfway between 700 (50%) and 1000 (60%)
		{"hadoop", 0.95, 300000, 1e-6},                   // knot "300000 95"
		{"hadoop", 1, 10000000, 0},                       // maximum 10 MB
		{"websearch", 0.535, 80000 + 0.5/7*120000, 1e-6}, // 0.5 of 7 points from 80 KB (53%) to 200 KB (60%)
		{"cachefollower", 0.5, 28270, 1},                 // median 28,270 B
		{"cachefollower", 1, 3837698, 0},                 // maximum 3.84 MB
	}
	for _, tc := range cases {
		c, err := Workload(tc.workload)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Quantile(tc.u); !near(got, tc.want, tc.tol) {
			t.Errorf("%s Quantile(%v) = %v, want %v", tc.workload, tc.u, got, tc.want)
		}
	}
	cf, _ := Workload("cachefollower")
	// "About 45% of flows are <= 3 KB, and about 28% of flows are larger than 1 MB."
	if p := cf.Prob(3000); !near(p, 0.45, 0.01) {
		t.Errorf("cachefollower Prob(3000) = %v, want about 0.45", p)
	}
	if p := 1 - cf.Prob(1e6); !near(p, 0.28, 0.01) {
		t.Errorf("cachefollower P(size > 1 MB) = %v, want about 0.28", p)
	}
}

// Prob and Quantile are inverses wherever the CDF rises.
func TestQuantileInvertsProb(t *testing.T) {
	for _, name := range Names() {
		c, err := Workload(name)
		if err != nil {
			t.Fatal(err)
		}
		floor := c.Prob(c.Min()) // a point mass at Min has no inverse inside it
		for i := 1; i < 1000; i++ {
			u := float64(i) / 1000
			if u <= floor {
				continue
			}
			if got := c.Prob(c.Quantile(u)); !near(got, u, 1e-9) {
				t.Fatalf("%s: Prob(Quantile(%v)) = %v", name, u, got)
			}
		}
	}
}

// At least 200k samples: the sample mean is within 2% of Mean() and within
// 4 standard errors of it, the empirical CDF is within 0.005 of the CDF at
// nine quantiles, and every sample is a whole number of bytes in
// [max(1, Min), Max]. Hadoop's size has a coefficient of variation of about
// 5.3 (1% of flows are 2-10 MB), so 200k samples give a standard error of
// 1.2%, and 2% would be only 1.7 standard errors; n is raised until 2% is at
// least 4 standard errors.
func TestSampleMatchesCDF(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			c, err := Workload(name)
			if err != nil {
				t.Fatal(err)
			}
			cv := math.Sqrt(c.Variance()) / c.Mean()
			n := max(200000, int(math.Ceil(math.Pow(4*cv/0.02, 2))))
			r := netsim.Stream(7, "test/"+name)
			qs := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
			below := make([]int, len(qs))
			sum := 0.0
			for range n {
				s := c.Sample(r)
				if s < 1 || float64(s) > c.Max() || float64(s) < math.Floor(c.Min()) {
					t.Fatalf("sample %d outside [%v, %v]", s, c.Min(), c.Max())
				}
				sum += float64(s)
				for i, q := range qs {
					if float64(s) <= math.Round(c.Quantile(q)) {
						below[i]++
					}
				}
			}
			mean := sum / float64(n)
			se := math.Sqrt(c.Variance() / float64(n))
			if rel := math.Abs(mean-c.Mean()) / c.Mean(); rel > 0.02 || math.Abs(mean-c.Mean()) > 4*se {
				t.Errorf("n=%d: sample mean %v vs Mean %v: off by %.2f%% (%.1f standard errors)",
					n, mean, c.Mean(), 100*rel, math.Abs(mean-c.Mean())/se)
			}
			for i, q := range qs {
				if got := float64(below[i]) / float64(n); !near(got, q, 0.005) {
					t.Errorf("fraction of samples <= Quantile(%v) = %v", q, got)
				}
			}
		})
	}
}

// Sizes below half a byte round to 0 and are raised to the 1-byte floor.
func TestSampleAtLeastOneByte(t *testing.T) {
	c := mustCDF(t, []Point{{0, 0}, {2, 1}})
	r := netsim.Stream(1, "test")
	counts := map[netsim.Bytes]int{}
	for range 10000 {
		counts[c.Sample(r)]++
	}
	if counts[0] != 0 || counts[1] == 0 || counts[2] == 0 || len(counts) != 2 {
		t.Fatalf("samples = %v, want only 1 and 2", counts)
	}
	// u < 0.75 gives Quantile < 1.5, which rounds to 1 (or 0, raised to 1).
	if f := float64(counts[1]) / 10000; !near(f, 0.75, 0.02) {
		t.Errorf("fraction of 1-byte samples = %v, want about 0.75", f)
	}
}
