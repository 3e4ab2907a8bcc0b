package syncctl

import (
	"testing"

	"syncsim/netsim"
	"syncsim/workloads/training"
)

// TestColdStartPredictor: before MinSamples observations the learnt CDF is
// 0 (nobody predicted); afterwards Eq. 4 reads the empirical CDF.
func TestColdStartPredictor(t *testing.T) {
	sr, err := NewSelectiveReduce(SelectiveConfig{P: 1, Dt: 0.1, Cold: true, MinSamples: 3}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	pred := sr.predictor(nil) // the cold predictor never consults the cluster
	if got := pred(0, 0.5, 0.1); got != 0 {
		t.Fatalf("cold, no samples: %v, want 0", got)
	}
	for _, x := range []float64{0.55, 0.58, 0.9} {
		sr.emp.Observe(x)
	}
	for _, c := range []struct{ elapsed, want float64 }{{0.5, 2.0 / 3}, {0.3, 0}, {0.85, 1}} {
		if got := pred(0, c.elapsed, 0.1); got != c.want {
			t.Errorf("F(%v+0.1) = %v, want %v", c.elapsed, got, c.want)
		}
	}
}

// TestColdStartLearnsFromArrivals: every arrival feeds the learnt
// distribution with the worker's computation time.
func TestColdStartLearnsFromArrivals(t *testing.T) {
	sr, _ := NewSelectiveReduce(SelectiveConfig{P: 2, Dt: 0.1, Cold: true}, 1, nil)
	cl, err := NewCluster(netsim.New(1), Config{BW: []float64{8, 8, 8, 8}, ModelBytes: 1, MaxIters: 2,
		Compute: []training.Dist{training.Constant{T: 0.5}}}, sr)
	if err != nil {
		t.Fatal(err)
	}
	m := cl.Run()
	if sr.emp.Len() != m.TotalIteration || sr.emp.Mean() != 0.5 {
		t.Errorf("learnt %d samples of mean %v; want %d of 0.5", sr.emp.Len(), sr.emp.Mean(), m.TotalIteration)
	}
}

// TestBandwidthEstimateError: estimates lie in b(1 +- e), vary between
// refreshes, and are exact when e = 0.
func TestBandwidthEstimateError(t *testing.T) {
	bw := []float64{1e9, 2e9, 5e9, 10e9, 20e9, 3e9}
	for _, e := range []float64{0, 0.3} {
		sr, err := NewSelectiveReduce(SelectiveConfig{P: 1, Dt: 0.1, BWError: e}, 1e6, netsim.Stream(1, "syncctl/bw-estimate"))
		if err != nil {
			t.Fatal(err)
		}
		cl, err := NewCluster(netsim.New(1), Config{BW: bw, ModelBytes: 1e6, MaxIters: 1,
			Compute: []training.Dist{training.Constant{T: 1}}}, sr)
		if err != nil {
			t.Fatal(err)
		}
		for i := range bw {
			cl.w[i].state = ready
			cl.queue = append(cl.queue, i)
		}
		var first []float64
		for round := range 2 {
			sr.selectAndLaunch(cl, nil)
			differs := false
			for i, b := range bw {
				est := sr.est[i]
				if est < b*(1-e) || est > b*(1+e) {
					t.Fatalf("e=%v: estimate %v of %v out of bounds", e, est, b)
				}
				if e == 0 && est != b {
					t.Fatalf("e=0: estimate %v of %v", est, b)
				}
				if round == 1 && est != first[i] {
					differs = true
				}
			}
			if round == 0 {
				first = append([]float64(nil), sr.est...)
			} else if e > 0 && !differs {
				t.Errorf("e=%v: estimates identical across refreshes", e)
			}
		}
	}
}
