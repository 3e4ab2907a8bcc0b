package crew

import (
	"math"
	"math/rand/v2"
	"testing"

	"syncsim/netsim"
	"syncsim/workloads/training"
)

// TestLawQuantiles: each law's quantile function reproduces the law the
// static networks draw from (N2's k frequencies within 1 percentage point
// of round(N(5, 1)) truncated to [1, 10]; N1's median 53 Mbit/s and range
// 3-245), and Atom inverts it: every u in a value's atom maps back to the
// value.
func TestLawQuantiles(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n2 := N2Law()
	drawn := N2(r, 200)
	var fromLaw, fromDraw [11]float64
	for i := 0; i < 200; i++ {
		for j := 0; j < 200; j++ {
			if i == j {
				continue
			}
			fromDraw[int(math.Round(drawn[i][j]/N2Unit))]++
			fromLaw[int(math.Round(n2.Quantile(i, j, r.Float64())/N2Unit))]++
		}
	}
	for k := 1; k <= 10; k++ {
		a, b := fromLaw[k]/(200*199), fromDraw[k]/(200*199)
		if math.Abs(a-b) > 0.01 {
			t.Errorf("N2: P(k=%d) %.4f from the quantile, %.4f from N2's draws", k, a, b)
		}
	}
	n1, err := N1Law(make([]int, 2), N1Pooled)
	if err != nil {
		t.Fatal(err)
	}
	if q := n1.Quantile(0, 1, 0.5); q != 53e6 {
		t.Errorf("N1 median %v, want 53 Mbit/s", q)
	}
	if lo, hi := n1.Quantile(0, 1, 0), n1.Quantile(0, 1, 0.999999); lo != 3e6 || hi != 245e6 {
		t.Errorf("N1 range %v-%v, want 3-245 Mbit/s", lo, hi)
	}
	for _, law := range []Law{n1, n2} {
		for k := 0; k < 200; k++ {
			b := law.Quantile(0, 1, r.Float64())
			lo, hi := law.Atom(0, 1, b)
			for _, u := range []float64{lo, (lo + hi) / 2, hi - 1e-12} {
				if q := law.Quantile(0, 1, u); q != b {
					t.Fatalf("%T: value %v has atom [%v, %v) but u = %v maps to %v", law, b, lo, hi, u, q)
				}
			}
		}
	}
}

// TestWalkKeepsLaw: after 30 periods of a walk with steps of 0.3, N2's
// bandwidths still follow N2's law (within 1.5 points per k over 60 x 59
// pairs), have moved (fewer than half the pairs keep their value), and
// the same seed gives the same process.
func TestWalkKeepsLaw(t *testing.T) {
	run := func() Matrix {
		nt := testNet(t, 7, 60, 0, Flow, FL)
		cfg := testConfig(CREW, 10)
		cfg.Compute = nil
		cfg.Duration = 30 * netsim.Second
		cfg.Vary = Variation{Model: BWWalk, Period: netsim.Second, Step: 0.3, Law: N2Law()}
		c, err := NewCluster(nt, cfg)
		if err != nil {
			t.Fatal(err)
		}
		c.Run()
		out := NewMatrix(60)
		for i := range out {
			for j := range out[i] {
				if i != j {
					out[i][j] = nt.Bandwidth(i, j)
				}
			}
		}
		return out
	}
	a, b := run(), run()
	start := testNet(t, 7, 60, 0, Flow, FL).BW
	var freq, want [11]float64
	same := 0
	for i := range a {
		for j := range a[i] {
			if i == j {
				continue
			}
			if a[i][j] != b[i][j] {
				t.Fatalf("same seed, different walk at (%d,%d)", i, j)
			}
			if a[i][j] == start[i][j] {
				same++
			}
			freq[int(math.Round(a[i][j]/N2Unit))]++
		}
	}
	law := N2Law().(*n2Law)
	for k := 1; k <= 10; k++ {
		want[k] = law.cum[k] - law.cum[k-1]
		if got := freq[k] / (60 * 59); math.Abs(got-want[k]) > 0.015 {
			t.Errorf("P(k=%d) = %.4f after the walk, law %.4f", k, got, want[k])
		}
	}
	if same > 60*59/2 {
		t.Errorf("%d of %d pairs kept their value: the walk hardly moved", same, 60*59)
	}
}

// TestTraceHandWorked: on relayNet (worker 2 relays a 3 MB model in 30
// chunks of 100 KB between workers 0 and 1, 8 ms per chunk at 100 Mbit/s)
// a trace drops 2 -> 0 and 2 -> 1 to 50 Mbit/s at 100 ms. The scatter
// runs at 100 Mbit/s (chunk c at 8c ms, all by 240 ms); the multicast
// trails it by a chunk, so at 100 ms it has sent 11.5 chunks, and the
// remaining 18.5 chunks (1.85 MB) take 296 ms at 50 Mbit/s, never waiting
// for the scatter: the partial reduce ends at 396 ms.
func TestTraceHandWorked(t *testing.T) {
	nt := relayNet(t, 0, FL)
	cfg := Config{Options: Options{Scheme: CREW, P: 2, Model: 3 * netsim.Megabyte, Chunks: 30}, ComputeScale: 1,
		Vary: Variation{Model: BWTrace, Trace: []training.SeriesRow{
			{At: 0.1, Key: []int{2, 0}, Value: 50}, {At: 0.1, Key: []int{2, 1}, Value: 50}}}}
	c, err := NewCluster(nt, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var took netsim.Time = -1
	c.onTaskEnd = func(_ int, ok bool, d netsim.Time) { took = d }
	c.startVariation()
	for _, w := range []int{0, 1} {
		c.wstate[w] = wReady
		c.enqueue(w)
	}
	nt.Sim.Run(netsim.Never)
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	if d := took - 396*netsim.Millisecond; d < -2 || d > 2 {
		t.Errorf("partial reduce took %v, want 396ms", took)
	}
	if nt.Bandwidth(2, 0) != 50e6 || nt.Bandwidth(0, 2) != 100e6 {
		t.Errorf("bandwidths after the trace: 2->0 %v, 0->2 %v", nt.Bandwidth(2, 0), nt.Bandwidth(0, 2))
	}
}

// TestProbeLearns: the controller's estimate follows the capacities only
// at probe times (every Probe, reports Control later), at once with an
// oracle (Probe = 0), and never with Probe < 0; a fixed estimation error
// carries over to what it learns.
func TestProbeLearns(t *testing.T) {
	ms := netsim.Millisecond
	for _, tc := range []struct {
		probe       netsim.Time
		at700, at1k float64 // estimate of 0 -> 1 at 0.7 s and 1.2 s
	}{
		{netsim.Second, 1.1e6, 2.2e6}, // report at 1 s + 100 ms
		{0, 2.2e6, 2.2e6},
		{-1, 1.1e6, 1.1e6},
	} {
		nt := relayNet(t, 0, FL)
		est := nt.BW.Clone()
		est[0][1] *= 1.1
		cfg := Config{Options: Options{Scheme: CREW, P: 2, Model: netsim.Megabyte, Chunks: 10, Control: 100 * ms},
			ComputeScale: 1, Estimate: est, Probe: tc.probe, Duration: 2 * netsim.Second,
			Vary: Variation{Model: BWTrace, Trace: []training.SeriesRow{{At: 0.5, Key: []int{0, 1}, Value: 2}}}}
		c, err := NewCluster(nt, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var at700, at1k float64
		nt.Sim.At(700*ms, func() { at700 = c.est[0][1] })
		nt.Sim.At(1200*ms, func() { at1k = c.est[0][1] })
		c.Run()
		if math.Abs(at700-tc.at700) > 1 || math.Abs(at1k-tc.at1k) > 1 {
			t.Errorf("probe %v: estimate %v at 0.7 s, %v at 1.2 s; want %v, %v", tc.probe, at700, at1k, tc.at700, tc.at1k)
		}
	}
	// A report carries what was measured: a change at 1.05 s, after the
	// 1 s probe and before its report arrives at 1.1 s, waits for the 2 s
	// probe (its report at 2.1 s).
	nt := relayNet(t, 0, FL)
	cfg := Config{Options: Options{Scheme: CREW, P: 2, Model: netsim.Megabyte, Chunks: 10, Control: 100 * ms},
		ComputeScale: 1, Probe: netsim.Second, Duration: 3 * netsim.Second,
		Vary: Variation{Model: BWTrace, Trace: []training.SeriesRow{{At: 1.05, Key: []int{0, 1}, Value: 2}}}}
	c, err := NewCluster(nt, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var at1200, at2200 float64
	nt.Sim.At(1200*ms, func() { at1200 = c.est[0][1] })
	nt.Sim.At(2200*ms, func() { at2200 = c.est[0][1] })
	c.Run()
	if at1200 != 1e6 || at2200 != 2e6 {
		t.Errorf("estimate %v at 1.2 s, %v at 2.2 s; want 1e6 (measured at 1 s), 2e6", at1200, at2200)
	}
}
