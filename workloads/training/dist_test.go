package training

import (
	"math"
	"sort"
	"testing"

	"syncsim/netsim"
)

// TestDistMeanAndCDF draws many samples and checks the declared mean and
// CDF against the sample mean and empirical CDF (Kolmogorov-Smirnov
// distance), for every distribution the package offers.
func TestDistMeanAndCDF(t *testing.T) {
	cases := []struct {
		name string
		d    Dist
		mean float64 // analytic mean, NaN to skip
	}{
		{"constant", Constant{T: 0.25}, 0.25},
		{"uniform", Uniform{Lo: 0.1, Hi: 0.5}, 0.3},
		{"lognormal", LogNormal{Median: 0.3, Sigma: 0.5}, 0.3 * math.Exp(0.125)},
		{"shiftedexp", ShiftedExp{Shift: 0.2, Scale: 0.1}, 0.3},
		{"cnn", CNN(), 0.9*0.3*math.Exp(0.0008) + 0.1*0.47},
		{"transformer", Transformer(), 0.05 + 0.3*math.Exp(0.08)},
	}
	const n = 200000
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.d.Mean(); math.Abs(got-c.mean) > 1e-12 {
				t.Fatalf("Mean() = %v, want %v", got, c.mean)
			}
			r := netsim.Stream(7, "test/"+c.name)
			xs := make([]float64, n)
			sum := 0.0
			for i := range xs {
				xs[i] = c.d.Sample(r)
				if !(xs[i] > 0) {
					t.Fatalf("sample %d = %v, want > 0", i, xs[i])
				}
				sum += xs[i]
			}
			if m := sum / n; math.Abs(m-c.mean) > 0.01*c.mean {
				t.Errorf("sample mean %v, want %v within 1%%", m, c.mean)
			}
			sort.Float64s(xs)
			ks := 0.0
			for i, x := range xs {
				if i+1 < n && xs[i+1] == x {
					continue // evaluate at the top of a run of ties
				}
				ks = math.Max(ks, math.Abs(c.d.CDF(x)-float64(i+1)/n))
			}
			if ks > 0.01 {
				t.Errorf("KS distance between CDF and samples = %v, want < 0.01", ks)
			}
		})
	}
}

func TestCDFValues(t *testing.T) {
	cases := []struct {
		name string
		d    Dist
		x    float64
		want float64
	}{
		{"constant below", Constant{T: 1}, 0.999, 0},
		{"constant at", Constant{T: 1}, 1, 1},
		{"uniform mid", Uniform{Lo: 1, Hi: 3}, 1.5, 0.25},
		{"uniform below", Uniform{Lo: 1, Hi: 3}, 0, 0},
		{"uniform above", Uniform{Lo: 1, Hi: 3}, 4, 1},
		{"lognormal median", LogNormal{Median: 0.4, Sigma: 0.3}, 0.4, 0.5},
		{"lognormal shifted median", LogNormal{Median: 0.4, Sigma: 0.3, Shift: 0.1}, 0.5, 0.5},
		{"lognormal +1 sigma", LogNormal{Median: 1, Sigma: 0.5}, math.Exp(0.5), 0.8413447460685429},
		{"lognormal below shift", LogNormal{Median: 1, Sigma: 0.5, Shift: 1}, 0.9, 0},
		{"shiftedexp one scale", ShiftedExp{Shift: 1, Scale: 2}, 3, 1 - math.Exp(-1)},
		{"cnn far tail", CNN(), 100, 1},
		{"cnn zero", CNN(), 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.d.CDF(c.x); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("CDF(%v) = %v, want %v", c.x, got, c.want)
			}
		})
	}
}

func TestNewMixtureErrors(t *testing.T) {
	cases := []struct {
		name string
		w    []float64
		p    []Dist
	}{
		{"empty", nil, nil},
		{"length mismatch", []float64{1}, []Dist{Constant{1}, Constant{2}}},
		{"zero weight", []float64{0, 1}, []Dist{Constant{1}, Constant{2}}},
		{"sum not one", []float64{0.5, 0.6}, []Dist{Constant{1}, Constant{2}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := NewMixture("m", c.w, c.p); err == nil {
				t.Error("want an error")
			}
		})
	}
}

func TestParseDist(t *testing.T) {
	ok := []struct {
		name string
		args []float64
		mean float64
	}{
		{"constant", []float64{0.5}, 0.5},
		{"uniform", []float64{0.2, 0.4}, 0.3},
		{"lognormal", []float64{1, 0}, 1},
		{"CNN", nil, CNN().Mean()},
		{"transformer", nil, Transformer().Mean()},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			d, err := ParseDist(c.name, c.args...)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(d.Mean()-c.mean) > 1e-12 {
				t.Errorf("mean %v, want %v", d.Mean(), c.mean)
			}
		})
	}
	bad := []struct {
		name string
		args []float64
	}{
		{"nope", nil},
		{"constant", nil},
		{"constant", []float64{-1}},
		{"uniform", []float64{0.5, 0.2}},
		{"lognormal", []float64{0, 1}},
		{"cnn", []float64{1}},
		{"empirical", []float64{0.5}},
		{"constant", []float64{math.NaN()}},
	}
	for _, c := range bad {
		t.Run("bad "+c.name, func(t *testing.T) {
			if _, err := ParseDist(c.name, c.args...); err == nil {
				t.Errorf("ParseDist(%q, %v): want an error", c.name, c.args)
			}
		})
	}
}
