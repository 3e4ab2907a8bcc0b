package background

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"syncsim/netsim"
)

// queuedBulk completes a transfer after its bytes at rate plus a random
// queueing delay (up to 200 us), so flows finish out of start order, as on
// a loaded network.
type queuedBulk struct {
	sim  *netsim.Sim
	rate netsim.Rate
	rng  *rand.Rand
}

func (b *queuedBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	d := netsim.TxTime(size, b.rate) + netsim.Time(b.rng.Int64N(int64(200*netsim.Microsecond)))
	b.sim.Schedule(b.sim.Now()+d, netsim.HandlerFunc(func(netsim.Event) { done() }), 0, nil, 0)
}

// measureRun runs a Hadoop generator on 16 hosts at 10 Gbps for horizon,
// either recording flows and summarising them afterwards (online false) or
// measuring them online, and returns the summary.
func measureRun(t testing.TB, online bool, horizon netsim.Time, limit int) *Summary {
	t.Helper()
	sim := netsim.New(4)
	cfg := Config{CDF: workload(t, "hadoop"), Load: 0.6, Hosts: hostIDs(16), HostRate: 10 * netsim.Gbps, Stop: horizon}
	g, err := New(sim, &queuedBulk{sim: sim, rate: cfg.HostRate, rng: rand.New(rand.NewPCG(1, 2))}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sc := StatsConfig{Warmup: horizon / 10, Latency: ConstLatency(3 * netsim.Microsecond), ExactLimit: limit}
	if online {
		if err := g.Measure(sc); err != nil {
			t.Fatal(err)
		}
	}
	g.Start()
	sim.Run(horizon + netsim.Millisecond/10) // the last flows are left running
	var s *Summary
	if online {
		s, err = g.Summary()
	} else {
		s, err = g.Stats(sc)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sameBits compares two metric lists value for value, NaN equal to NaN.
func sameBits(a, b []Metric) (string, bool) {
	for i := range a {
		if a[i].Name != b[i].Name || math.Float64bits(a[i].Value) != math.Float64bits(b[i].Value) {
			return a[i].Name, false
		}
	}
	return "", len(a) == len(b)
}

// TestMeasureMatchesStats: below the exact-sample limit, the online
// summary (flows counted at start, sampled at completion, in completion
// order) equals the summary of the recorded flows bit for bit, including
// flows left running at the end.
func TestMeasureMatchesStats(t *testing.T) {
	h := 20 * netsim.Millisecond
	off, on := measureRun(t, false, h, 0), measureRun(t, true, h, 0)
	t.Logf("%d flows started in the window, %d done", off.All.Started, off.All.Done)
	if off.All.Started < 1000 || off.All.Done == off.All.Started {
		t.Fatalf("started %d done %d: want many flows, some unfinished", off.All.Started, off.All.Done)
	}
	if name, ok := sameBits(off.Metrics(""), on.Metrics("")); !ok || off.Excluded != on.Excluded || off.OfferedBytes != on.OfferedBytes {
		t.Fatalf("online and recorded summaries differ (first at %q; excluded %d/%d, offered %d/%d)",
			name, off.Excluded, on.Excluded, off.OfferedBytes, on.OfferedBytes)
	}
}

// TestSketchAboveLimit: with an exact-sample limit far below the number
// of flows, every percentile is within SketchAccuracy (relative) of the
// exact one, means agree to rounding, and counts are unchanged.
func TestSketchAboveLimit(t *testing.T) {
	h := 20 * netsim.Millisecond
	exact, sk := measureRun(t, true, h, 0), measureRun(t, true, h, 50)
	groups := append([]Group{exact.All}, exact.Buckets...)
	sgroups := append([]Group{sk.All}, sk.Buckets...)
	checked := 0
	for i, g := range groups {
		s := sgroups[i]
		if g.Started != s.Started || g.Done != s.Done {
			t.Fatalf("%s: counts %d/%d vs %d/%d", g.Name, g.Started, g.Done, s.Started, s.Done)
		}
		for _, d := range []struct {
			name string
			a, b Dist
		}{{"fct", g.FCT, s.FCT}, {"slowdown", g.Slowdown, s.Slowdown}} {
			if d.a.N <= 50 {
				continue // still exact
			}
			checked++
			if math.Abs(d.a.Mean-d.b.Mean) > 1e-9*d.a.Mean {
				t.Errorf("%s %s mean %v, exact %v", g.Name, d.name, d.b.Mean, d.a.Mean)
			}
			for _, p := range [][2]float64{{d.a.P50, d.b.P50}, {d.a.P95, d.b.P95}, {d.a.P99, d.b.P99}} {
				if math.Abs(p[1]-p[0]) > SketchAccuracy*p[0]*(1+1e-9) {
					t.Errorf("%s %s percentile %v, exact %v: beyond %.1f%%", g.Name, d.name, p[1], p[0], 100*SketchAccuracy)
				}
			}
		}
	}
	if checked < 4 {
		t.Fatalf("only %d statistics went past the limit", checked)
	}
}

// TestLogSketchRankError checks the sketch's guarantee on its own: every
// order statistic of 20 000 lognormal samples spanning six decades, and the
// interpolated percentiles, come back within SketchAccuracy.
func TestLogSketchRankError(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	s := newLogSketch()
	xs := make([]float64, 20000)
	for i := range xs {
		xs[i] = math.Exp(rng.NormFloat64()*3 - 9)
		s.add(xs[i])
	}
	slices.Sort(xs)
	for k, x := range xs {
		if got := s.rank(uint64(k)); math.Abs(got-x) > SketchAccuracy*x*(1+1e-9) {
			t.Fatalf("rank %d: %v, exact %v", k, got, x)
		}
	}
	if s.rank(0) != xs[0] || s.rank(uint64(len(xs)-1)) != xs[len(xs)-1] {
		t.Fatal("extreme ranks are not the exact minimum and maximum")
	}
	d := NewDist(xs)
	for _, p := range []struct{ p, want float64 }{{50, d.P50}, {95, d.P95}, {99, d.P99}} {
		if got := s.percentile(p.p); math.Abs(got-p.want) > SketchAccuracy*p.want {
			t.Errorf("p%.0f %v, exact %v", p.p, got, p.want)
		}
	}
}

// TestMeasureMemoryFlat: under Measure, and under Discard, the heap after
// 10x more flows is no larger (within 256 KB) than after the first tenth;
// recording every flow, as Stats needs, grows by tens of bytes per flow.
// Discard sends the same flows: the simulation's event count is the
// recording generator's.
func TestMeasureMemoryFlat(t *testing.T) {
	events := map[string]uint64{}
	heapAfter := func(mode string, flows int) uint64 {
		sim := netsim.New(5)
		cfg := Config{CDF: workload(t, "hadoop"), Load: 0.6, Hosts: hostIDs(16), HostRate: 10 * netsim.Gbps, MaxFlows: flows}
		g, err := New(sim, &queuedBulk{sim: sim, rate: cfg.HostRate, rng: rand.New(rand.NewPCG(1, 2))}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		switch mode {
		case "measure":
			if err := g.Measure(StatsConfig{Stop: netsim.Second * 1000, ExactLimit: 1000}); err != nil {
				t.Fatal(err)
			}
		case "discard":
			if err := g.Discard(); err != nil {
				t.Fatal(err)
			}
		}
		g.Start()
		sim.Run(netsim.Never)
		events[fmt.Sprint(mode, flows)] = sim.Events()
		if mode == "discard" && len(g.Flows()) != 0 {
			t.Fatalf("Discard kept %d flows", len(g.Flows()))
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if g.Started() != flows {
			t.Fatalf("started %d of %d flows", g.Started(), flows)
		}
		runtime.KeepAlive(g)
		return ms.HeapAlloc
	}
	for _, mode := range []string{"measure", "discard", "record"} {
		t.Run(mode, func(t *testing.T) {
			small, large := heapAfter(mode, 20000), heapAfter(mode, 200000)
			grow := int64(large) - int64(small)
			t.Logf("heap %d B after 20000 flows, %d B after 200000 (%+d B)", small, large, grow)
			if mode != "record" && grow > 256<<10 {
				t.Errorf("heap grew by %d B over 180000 more flows", grow)
			}
			if mode == "record" && grow < 180000*32 {
				t.Errorf("recording 180000 more flows grew the heap by only %d B: the check cannot see growth", grow)
			}
		})
	}
	for _, n := range []int{20000, 200000} {
		if d, r := events[fmt.Sprint("discard", n)], events[fmt.Sprint("record", n)]; d != r {
			t.Errorf("%d flows: %d events discarding, %d recording", n, d, r)
		}
	}
}
