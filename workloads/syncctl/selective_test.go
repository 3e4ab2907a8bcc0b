package syncctl

import (
	"fmt"
	"strings"
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

// hiddenChecks wraps a controller so that NewCluster cannot see its
// CheckWorkers: the run shows what the refused settings would do.
type hiddenChecks struct{ Controller }

// TestSelectiveReduceRefusesUnlaunchableP: on n = 4 workers that all
// compute 1 s, p = 3 launches (all four ready is more than p) and p = 4
// is refused; run anyway, p = 4 launches nothing in 10 s, and with c = 2
// only the first full all reduce. With c = 1 every round is a full all
// reduce, so p = 4 is allowed and launches.
func TestSelectiveReduceRefusesUnlaunchableP(t *testing.T) {
	const n = 4
	run := func(cfg SelectiveConfig, hide bool) (int, error) {
		sr, err := NewSelectiveReduce(cfg, 0.5, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ctl Controller = sr
		if hide {
			ctl = hiddenChecks{sr}
		}
		rec := &recorder{}
		cl, err := NewCluster(netsim.New(1), Config{BW: []float64{8, 8, 8, 8}, ModelBytes: 0.5, Cost: CostApprox, Exec: rec,
			Compute: []training.Dist{training.Constant{T: 1}}, Duration: 10 * netsim.Second}, ctl)
		if err != nil {
			return 0, err
		}
		cl.Run()
		return len(rec.groups), nil
	}
	for _, tc := range []struct {
		p, c     int
		refused  bool
		launches int // run with the check hidden; -1: at least one per round
	}{
		{p: n - 1, launches: -1},
		{p: n, refused: true, launches: 0},
		{p: n + 3, refused: true, launches: 0},
		{p: n, c: 2, refused: true, launches: 1},
		{p: n, c: 1, launches: -1},
	} {
		cfg := SelectiveConfig{P: tc.p, C: tc.c, Eta: 0.3, Theta: 1, Dt: 0.1}
		_, err := run(cfg, false)
		if (err != nil) != tc.refused {
			t.Errorf("p = %d, c = %d: error %v, want refused %v", tc.p, tc.c, err, tc.refused)
		}
		if err != nil && !strings.Contains(err.Error(), fmt.Sprintf("p = %d with 4 workers never launches a group", tc.p)) {
			t.Errorf("p = %d, c = %d: message %q", tc.p, tc.c, err)
		}
		got, err := run(cfg, true)
		if err != nil {
			t.Fatal(err)
		}
		// A round is 1 s of compute and 1 s of sync (8/8 under CostApprox).
		if tc.launches >= 0 && got != tc.launches || tc.launches < 0 && got < 4 {
			t.Errorf("p = %d, c = %d: %d groups launched in 10 s, want %d (-1: at least 4)", tc.p, tc.c, got, tc.launches)
		}
	}
}
