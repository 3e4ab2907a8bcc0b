package training

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParseWorkerClasses(t *testing.T) {
	cs, err := ParseWorkerClasses("V100:0.5+ p100:0.25 ,t4:0.25:0.3")
	if err != nil {
		t.Fatal(err)
	}
	want := []WorkerClass{{"v100", 0.5, 1}, {"p100", 0.25, 0.60}, {"t4", 0.25, 0.3}}
	for i := range want {
		if cs[i] != want[i] {
			t.Errorf("class %d = %+v, want %+v", i, cs[i], want[i])
		}
	}
	for in, msg := range map[string]string{
		"v100:0.5,t4:0.5": "no built-in speed",
		"v100:0.5":        "sum to 0.5",
		"v100":            "name:share",
		"v100:0,k80:1":    "share",
		"v100:1:-2":       "speed",
	} {
		if _, err := ParseWorkerClasses(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: err %v, want %q", in, err, msg)
		}
	}
	if cs, err := ParseWorkerClasses(" "); cs != nil || err != nil {
		t.Errorf("empty: %v, %v", cs, err)
	}
}

// TestWorkerMultipliers: class counts by largest remainder (10 workers at
// 1/3 each: 4, 3, 3), each worker 1/speed, stragglers multiplied, the same
// stream giving the same assignment, and homogeneous runs getting nil.
func TestWorkerMultipliers(t *testing.T) {
	h := Heterogeneity{Classes: []WorkerClass{{"a", 1.0 / 3, 1}, {"b", 1.0 / 3, 0.5}, {"c", 1.0 / 3, 0.25}}, Stragglers: 2, Slowdown: 10}
	m, err := h.WorkerMultipliers(rand.New(rand.NewPCG(1, 2)), 10)
	if err != nil {
		t.Fatal(err)
	}
	count := map[float64]int{}
	for _, x := range m {
		count[x]++
	}
	// Before stragglers: four 1s, three 2s, three 4s; two of the ten are
	// then ten times slower.
	base := map[float64]int{1: 4, 2: 3, 4: 3}
	slow := 0
	for x, k := range count {
		if x >= 10 {
			slow += k
			base[x/10] -= k
		} else {
			base[x] -= k
		}
	}
	for x, k := range base {
		if k != 0 {
			t.Errorf("multiplier %v: count off by %d (%v)", x, k, m)
		}
	}
	if slow != 2 {
		t.Errorf("%d stragglers, want 2 (%v)", slow, m)
	}
	m2, _ := h.WorkerMultipliers(rand.New(rand.NewPCG(1, 2)), 10)
	for i := range m {
		if m[i] != m2[i] {
			t.Fatal("same stream, different assignment")
		}
	}
	if m, err := (Heterogeneity{Stragglers: 3, Slowdown: 1}).WorkerMultipliers(nil, 5); m != nil || err != nil {
		t.Errorf("slowdown 1: %v, %v; want homogeneous", m, err)
	}
	if _, err := (Heterogeneity{Stragglers: 6, Slowdown: 2}).WorkerMultipliers(rand.New(rand.NewPCG(1, 1)), 5); err == nil {
		t.Error("6 stragglers of 5 accepted")
	}
	if _, err := (Heterogeneity{Multipliers: []float64{1, 2}}).WorkerMultipliers(rand.New(rand.NewPCG(1, 1)), 3); err == nil {
		t.Error("2 multipliers for 3 workers accepted")
	}
}

// TestScaled: samples, CDF and mean of a scaled distribution.
func TestScaled(t *testing.T) {
	s := Scaled{D: Uniform{Lo: 1, Hi: 3}, M: 2}
	if s.Mean() != 4 || s.CDF(4) != 0.5 || s.CDF(2) != 0 || s.CDF(6) != 1 {
		t.Errorf("mean %v, CDF(4) %v, CDF(2) %v, CDF(6) %v", s.Mean(), s.CDF(4), s.CDF(2), s.CDF(6))
	}
	r := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 100; i++ {
		if x := s.Sample(r); x < 2 || x > 6 {
			t.Fatalf("sample %v outside [2, 6]", x)
		}
	}
	if d := PerWorker(Constant{T: 1}, []float64{1, 3}); d[0] != (Constant{T: 1}) || math.Abs(d[1].Mean()-3) > 1e-12 {
		t.Errorf("PerWorker: %v", d)
	}
	if _, err := ReadMultipliers(strings.NewReader("# x\n1.5\n\n2\n")); err != nil {
		t.Error(err)
	}
	if _, err := ReadMultipliers(strings.NewReader("1\n0\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("zero multiplier: %v", err)
	}
}
