package training

import (
	"math"
	"testing"

	"syncsim/netsim"
)

func TestEmpiricalColdStart(t *testing.T) {
	e := NewEmpirical(3, nil)
	if e.CDF(100) != 0 || e.Mean() != 0 {
		t.Fatalf("empty, no prior: CDF(100) = %v, Mean = %v; want 0, 0", e.CDF(100), e.Mean())
	}
	e.Observe(2)
	e.Observe(1)
	if e.Warm() || e.CDF(100) != 0 {
		t.Fatalf("2 of 3 samples: Warm = %v, CDF(100) = %v; want false, 0", e.Warm(), e.CDF(100))
	}
	if e.Mean() != 1.5 {
		t.Errorf("cold mean = %v, want 1.5 (mean of what was seen)", e.Mean())
	}
	e.Observe(3)
	if !e.Warm() {
		t.Fatal("3 samples: want warm")
	}
	for _, c := range []struct{ x, want float64 }{{0.5, 0}, {1, 1.0 / 3}, {2.5, 2.0 / 3}, {3, 1}} {
		if got := e.CDF(c.x); got != c.want {
			t.Errorf("CDF(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if e.Mean() != 2 {
		t.Errorf("mean = %v, want 2", e.Mean())
	}
	r := netsim.Stream(1, "t")
	for range 100 {
		if x := e.Sample(r); x != 1 && x != 2 && x != 3 {
			t.Fatalf("bootstrap sample %v is not an observation", x)
		}
	}
}

func TestEmpiricalPrior(t *testing.T) {
	prior := Uniform{Lo: 0, Hi: 2}
	e := NewEmpirical(10, prior)
	e.Observe(5)
	if got := e.CDF(1); got != 0.5 {
		t.Errorf("cold with prior: CDF(1) = %v, want the prior's 0.5", got)
	}
	if got := e.Mean(); got != 1 {
		t.Errorf("cold with prior: Mean = %v, want the prior's 1", got)
	}
}

// TestEmpiricalConverges learns the CNN trace online and checks the learnt
// CDF approaches the true one.
func TestEmpiricalConverges(t *testing.T) {
	d := CNN()
	e := NewEmpirical(DefaultMinSamples, nil)
	r := netsim.Stream(3, "learn")
	for range 20000 {
		e.Observe(d.Sample(r))
	}
	for _, x := range []float64{0.28, 0.3, 0.32, 0.4, 0.6} {
		if got, want := e.CDF(x), d.CDF(x); math.Abs(got-want) > 0.015 {
			t.Errorf("CDF(%v) = %v, want %v +- 0.015", x, got, want)
		}
	}
}
