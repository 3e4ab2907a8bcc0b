package syncctl

import (
	"reflect"
	"testing"

	"syncsim/netsim"
	"syncsim/workloads/training"
)

// TestBAGSeed works Alg. 1 by hand under both readings of line 6, on
// bandwidths 10, 9, 8, 4, 3.99, 2 with p = 2 and eta = 0.5.
//
//	p+1 (as printed): 10, 9, 8 seed (b* = 4); 4 >= 4 joins; 3.99 opens
//	  the next group and seeds it with 2: [[10 9 8 4] [3.99 2]].
//	p (the text): 10, 9 seed (b* = 4.5); 8 joins; 4 < 4.5 opens the next
//	  group, 4 and 3.99 seed it (b* = 1.995); 2 joins: [[10 9 8] [4 3.99 2]].
func TestBAGSeed(t *testing.T) {
	q := members(10, 9, 8, 4, 3.99, 2)
	for _, tc := range []struct {
		seed BAGSeed
		want [][]int
	}{
		{SeedPseudocode, [][]int{{0, 1, 2, 3}, {4, 5}}},
		{SeedProse, [][]int{{0, 1, 2}, {3, 4, 5}}},
	} {
		t.Run(tc.seed.String(), func(t *testing.T) {
			if got := ids(BAGWith(q, 2, 0.5, tc.seed)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("BAG = %v, want %v", got, tc.want)
			}
			if s, err := ParseBAGSeed(tc.seed.String()); err != nil || s != tc.seed {
				t.Errorf("ParseBAGSeed(%s) = %v, %v", tc.seed, s, err)
			}
		})
	}
	if _, err := ParseBAGSeed("p+2"); err == nil {
		t.Error("ParseBAGSeed(p+2): want an error")
	}
}

// TestKRounding works Alg. 2, line 8 by hand: three computing workers
// faster than g's bottleneck, each ready within dt with probability 0.55,
// so sum p_i = 1.65: floor inserts 1 virtual worker, round 2. With p = 1,
// eta = 0 and the seed p+1 = 2, g = {10, 2} becomes L = {10, 8, 2} (floor)
// or {10, 8, 8, 2} (round); g* is the first two, {10, 8}, in both, so
// g_delta = {2} and t_X = 1/2 - 1/8 = 0.375 s (2 x 8v = 1 bit).
func TestKRounding(t *testing.T) {
	s := []Training{{4, 8, 0}, {5, 8, 0}, {6, 8, 0}}
	pred := table(map[int]float64{4: 0.55, 5: 0.55, 6: 0.55})
	g := []Member{{1, 10}, {2, 2}}
	for _, tc := range []struct {
		k    KRounding
		want int
	}{{KFloor, 1}, {KRound, 2}} {
		t.Run(tc.k.String(), func(t *testing.T) {
			prm := BPAWRParams{P: 1, Eta: 0, Theta: 1, Dt: 0.1, ModelBytes: 1.0 / 16, KRound: tc.k}
			res, _ := BPAWR(append([]Training(nil), s...), g, prm, pred)
			if res.K != tc.want || res.VirtualBW != 8 || res.Decision != WaitReplace ||
				!reflect.DeepEqual(res.Delta, []Member{{2, 2}}) || abs(res.TX-0.375) > 1e-12 {
				t.Errorf("%+v; want k = %d, virtual bandwidth 8, wait-replace g_delta {2}, t_X 0.375", res, tc.want)
			}
			if k, err := ParseKRounding(tc.k.String()); err != nil || k != tc.k {
				t.Errorf("ParseKRounding(%s) = %v, %v", tc.k, k, err)
			}
		})
	}
	if KRound.Of(2.5) != 3 || KRound.Of(0.49) != 0 || KFloor.Of(0.999999999999) != 1 {
		t.Error("rounding of 2.5, 0.49 or a sum a hair below 1")
	}
	if _, err := ParseKRounding("ceil"); err == nil {
		t.Error("ParseKRounding(ceil): want an error")
	}
}

// TestSelectiveSeedScale: under the printed reading a launched group has at
// least p+1 workers; under the text's, at least p, and some groups have
// exactly p (on a CNN cluster of 20 with p = 6).
func TestSelectiveSeedScale(t *testing.T) {
	for _, seed := range []BAGSeed{SeedPseudocode, SeedProse} {
		t.Run(seed.String(), func(t *testing.T) {
			sim := netsim.New(2)
			bw, _ := training.Bandwidths(sim.Rand("training/bandwidth"), 20, 0.05)
			for i := range bw {
				bw[i] *= 1e9
			}
			sr, err := NewSelectiveReduce(SelectiveConfig{P: 6, Eta: 0.3, Theta: 1, Dt: 0.1, Seed: seed}, 500e6, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := &recorder{}
			cl, err := NewCluster(sim, Config{BW: bw, ModelBytes: 500e6, Alpha: 1e-3, Compute: []training.Dist{training.CNN()},
				Duration: 40 * netsim.Second, Exec: rec}, sr)
			if err != nil {
				t.Fatal(err)
			}
			cl.Run()
			least := 20
			for _, g := range rec.groups {
				least = min(least, len(g))
			}
			want := map[BAGSeed]int{SeedPseudocode: 7, SeedProse: 6}[seed]
			if len(rec.groups) < 5 || least != want {
				t.Errorf("%d groups, smallest %d; want at least 5 groups, smallest %d", len(rec.groups), least, want)
			}
		})
	}
}

// steps is a hand-made bandwidth schedule: epoch e has bws[min(e, last)].
type steps struct {
	period netsim.Time
	bws    [][]float64
}

func (s steps) Period() netsim.Time { return s.period }
func (s steps) Epoch(e int) []float64 {
	return s.bws[min(e, len(s.bws)-1)]
}

// TestAnalyticTimeVarying works the integrated Eq. 2 by hand. Two workers
// compute 0.5 s; bandwidths are {8, 2} bits/s in [0, 1) s and {8, 8} after.
// CostApprox with v = 0.5 byte and alpha = 0 moves 2 x 8v = 8 bits at the
// group's slowest bandwidth: 2 bits/s for 0.5 s (1 bit), then 8 bits/s for
// the remaining 7 bits (0.875 s): the all reduce ends at 1.875 s, 1.375 s
// after its launch (static bandwidths would give 8/2 = 4 s). The cluster
// and OnBandwidth see the changes at 1 s and 2 s; then every worker has
// finished and no further change is scheduled.
func TestAnalyticTimeVarying(t *testing.T) {
	sched := steps{period: netsim.Second, bws: [][]float64{{8, 2}, {8, 8}}}
	var seen []int
	var bwAt1 float64
	cl, err := NewCluster(netsim.New(1), Config{
		Schedule: sched, ModelBytes: 0.5, Cost: CostApprox, MaxIters: 1, Duration: 10 * netsim.Second,
		Compute: []training.Dist{training.Constant{T: 0.5}},
		OnBandwidth: func(e int, bw []float64) {
			seen = append(seen, e)
			bwAt1 = bw[1]
		},
	}, AllReduce{})
	if err != nil {
		t.Fatal(err)
	}
	m := cl.Run()
	if err := cl.Check(); err != nil {
		t.Fatal(err)
	}
	if abs(m.AvgSyncTime-1.375) > 1e-9 || m.TotalSync != 1 {
		t.Errorf("%+v; want one sync of 1.375 s", m)
	}
	if !reflect.DeepEqual(seen, []int{1, 2}) || bwAt1 != 8 || cl.BW(1) != 8 || cl.Epoch() != 2 {
		t.Errorf("epochs seen %v, bandwidth of w1 %v (cluster %v, epoch %d); want [1 2], 8", seen, bwAt1, cl.BW(1), cl.Epoch())
	}
	// CostRing with alpha = 0.25 s: the volume is 2(2-1)/2 x 8v = 4 bits,
	// 1 bit by 1 s and 3 bits at 8 bits/s (0.375 s), then the latency
	// term 2(2-1) x 0.25 = 0.5 s: 0.5 + 0.375 + 0.5 = 1.375 s.
	cl, _ = NewCluster(netsim.New(1), Config{
		Schedule: sched, ModelBytes: 0.5, Cost: CostRing, Alpha: 0.25, MaxIters: 1,
		Compute: []training.Dist{training.Constant{T: 0.5}},
	}, AllReduce{})
	if m := cl.Run(); abs(m.AvgSyncTime-1.375) > 1e-9 {
		t.Errorf("ring: avg sync time %v, want 1.375", m.AvgSyncTime)
	}
}

// TestSelectiveReadsCurrentBandwidth: Alg. 3 line 9 reads the bandwidths in
// force at each pass. Bandwidths are {8, 4, 1} in [0, 1) s and {8, 4, 16}
// after; p = 1, eta = 0, dt = 0.25 s, v = 0.5 byte (2 x 8v = 8 bits).
// w0 is ready at 0.5 s, w1 at 1.5 s; w2 is believed ready by 1 s but
// finishes at 2 s.
//
//	t=1.5: Q = {w0, w1}; with the current values w2 (16 > 4) is a
//	  candidate, k = 1, g* = {V16, w0}, t_X = 8/4 - 8/8 = 1 > 0.25: wait.
//	  (With the values of time 0, w2 at 1 would not be a candidate and
//	  {w0, w1} would launch at once.)
//	t=2: w2 arrives; BAG on {16, 8, 4} gives [{w2, w0}, {w1}], both launch.
func TestSelectiveReadsCurrentBandwidth(t *testing.T) {
	sr, err := NewSelectiveReduce(SelectiveConfig{P: 1, Eta: 0, Theta: 1, Dt: 0.25}, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	cl, err := NewCluster(netsim.New(1), Config{
		Schedule:   steps{period: netsim.Second, bws: [][]float64{{8, 4, 1}, {8, 4, 16}}},
		ModelBytes: 0.5, Cost: CostApprox, MaxIters: 1, Exec: rec,
		Compute: []training.Dist{training.Constant{T: 0.5}, training.Constant{T: 1.5}, liar{Actual: 2, Believed: 1}},
	}, sr)
	if err != nil {
		t.Fatal(err)
	}
	cl.Run()
	if err := cl.Check(); err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{2, 0}, {1}}; !reflect.DeepEqual(rec.groups, want) {
		t.Errorf("groups %v, want %v", rec.groups, want)
	}
	if sr.Waits() < 1 {
		t.Errorf("waits %d, want at least one at 1.5 s", sr.Waits())
	}
}
