package crew

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"syncsim/netsim"
)

// uniformNet is n workers with every b_ij = rate and no latency, FL.
func uniformNet(t testing.TB, n int, rate float64, pol Policy) *Net {
	t.Helper()
	bw := NewMatrix(n)
	for i := range bw {
		for j := range bw[i] {
			if i != j {
				bw[i][j] = rate
			}
		}
	}
	nt, err := NewNet(netsim.New(1), bw, ConstLatency(n, 0), Flow, pol)
	if err != nil {
		t.Fatal(err)
	}
	return nt
}

// TestOPREqualsCREWWhenPIsN: with p = n, OPR's p blocks over P are CREW's
// n blocks over N, so both give identical results, for one partial reduce
// and for training, network-aware or even.
func TestOPREqualsCREWWhenPIsN(t *testing.T) {
	for _, split := range []SplitMode{NetworkAware, Even} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("split%d/seed%d", split, seed), func(t *testing.T) {
				const n = 6
				var single [2]SingleResult
				var train [2]Metrics
				for k, sch := range []Scheme{CREW, OPR} {
					nt := testNet(t, seed, n, 5*netsim.Millisecond, Flow, FL)
					P := nt.Sim.Rand("P").Perm(n)
					opt := testConfig(sch, n).Options
					opt.Split = split
					res, err := RunSingle(nt, opt, nil, P, nt.Sim.Rand("x"))
					if err != nil {
						t.Fatal(err)
					}
					single[k] = res
					cfg := testConfig(sch, n)
					cfg.Split = split
					cfg.Duration = 5 * netsim.Second
					_, train[k] = runCluster(t, testNet(t, seed, n, 5*netsim.Millisecond, Flow, FL), cfg)
				}
				if !reflect.DeepEqual(single[0], single[1]) {
					t.Errorf("single: crew %+v, opr %+v", single[0], single[1])
				}
				if !reflect.DeepEqual(train[0], train[1]) {
					t.Errorf("training: crew %+v, opr %+v", train[0], train[1])
				}
				if train[0].PRs == 0 {
					t.Error("no partial reduce completed: the comparison is empty")
				}
			})
		}
	}
}

// TestDeterminism: the same seed and configuration give identical metrics,
// with outages and non-blocking scatter too.
func TestDeterminism(t *testing.T) {
	cases := []struct {
		name string
		mod  func(*Config)
	}{
		{"crew", func(*Config) {}},
		{"crew non-blocking tl", func(c *Config) { c.Scatter = NonBlocking }},
		{"opr faults", func(c *Config) {
			c.Scheme = OPR
			c.Faults = []Fault{{Kind: FaultLink, A: 0, B: 3, At: netsim.Second}, {Kind: FaultNode, A: 5, At: 2 * netsim.Second, Duration: netsim.Second}}
		}},
		{"a2a", func(c *Config) { c.Scheme = A2A }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := func() Metrics {
				cfg := testConfig(CREW, 3)
				cfg.Duration = 8 * netsim.Second
				tc.mod(&cfg)
				_, m := runCluster(t, testNet(t, 4, 8, 20*netsim.Millisecond, Flow, TL), cfg)
				return m
			}
			a, b := run(), run()
			if fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) { // NaN-safe
				t.Errorf("same seed, different metrics:\n%+v\n%+v", a, b)
			}
		})
	}
}

// TestFailoverHandWorked: n = 4, P = {0, 1}, even split of a 4 MB model
// into k = 400 chunks of 10 KB (block j = chunks 100j+1..100j+100, 1 MB,
// 80 ms at 100 Mbit/s). Worker 3's connections run at 200 Mbit/s, the
// rest at 100; no latency; FL. The connection 0-2 fails at 40 ms and is
// noticed at 50 ms.
//
// By then worker 0's copy of block 2 had sent 50 chunks (40 ms) and worker
// 1's 62 (5 Mbit of 8 at 50 ms: 62.5 chunks): 112 chunks are discarded.
// Eq. 3 picks worker 3 for block 2 (load 0.25 + 0.25 over 200 Mbit/s
// against 100 for workers 0 and 1). Both copies go to 3 at 200 Mbit/s,
// 50-90 ms; 3 multicasts block 2 over 90-130 ms. Blocks 0 and 1 finish
// as without the outage: scatter 0-80 ms, multicast 80-160 ms. The partial
// reduce takes 160 ms with one failover.
func TestFailoverHandWorked(t *testing.T) {
	const n = 4
	bw := NewMatrix(n)
	for i := range bw {
		for j := range bw[i] {
			switch {
			case i == j:
			case i == 3 || j == 3:
				bw[i][j] = 200e6
			default:
				bw[i][j] = 100e6
			}
		}
	}
	sim := netsim.New(1)
	nt, err := NewNet(sim, bw, ConstLatency(n, 0), Flow, FL)
	if err != nil {
		t.Fatal(err)
	}
	ms := netsim.Millisecond
	cfg := Config{Options: Options{Scheme: CREW, P: 2, Split: Even, Model: 4 * netsim.Megabyte, Chunks: 400, Detect: 10 * ms, Pipeline: PipelineBlock},
		ComputeScale: 1, Faults: []Fault{{Kind: FaultLink, A: 0, B: 2, At: 40 * ms}}}
	c, err := NewCluster(nt, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var took netsim.Time = -1
	c.onTaskEnd = func(_ int, ok bool, d netsim.Time) {
		if ok {
			took = d
		}
	}
	c.scheduleFaults()
	c.wstate[0], c.wstate[1] = wReady, wReady
	c.enqueue(0)
	c.enqueue(1)
	task := c.tasks[0].(*crewTask)
	sim.At(0, func() {}) // keep the queue non-empty at 0
	sim.Run(netsim.Never)
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	for mi := range task.P {
		if task.held[mi].Len() != 400 {
			t.Fatalf("member %d holds %v", mi, task.held[mi])
		}
	}
	if d := took - 160*ms; d < 0 || d > 10 {
		t.Errorf("partial reduce took %v, want 160ms", took)
	}
	if len(task.split) != 5 || task.owner[4] != 3 || !task.split[4].Equal(Block{{201, 300}}) || task.split[2].Len() != 0 ||
		c.failovers != 1 || c.discarded != 112 {
		t.Errorf("blocks %v owned by %v (want block 2's chunks 201-300 moved to a fifth block at worker 3), %d failovers (want 1), %d chunks discarded (want 112)",
			task.split, task.owner, c.failovers, c.discarded)
	}
	if c.accepted != 2*400 {
		t.Errorf("%d chunk copies reduced, want 800", c.accepted)
	}
}

// TestEq3Replacement checks the replacement rule on hand-made loads. P =
// {0, 1}; block 2 (share 0.2) loses its aggregator 2. Candidates 0, 1, 3
// and 4 have working connections to both members; worker 5 has none to
// worker 0 (a known outage).
//
// Connections of 3 run at 200 Mbit/s, of 4 at 400, the rest at 100.
// Loads: l_0 = 0.1, l_1 = 0.1, l_3 = 0.7, l_4 = 1.5.
//
// Candidate reading, max over i in P (i != k) of (l_k + 0.2)/c_ik:
// k=0: 0.3/100 = 3e-3; k=1: 3e-3; k=3: 0.9/200 = 4.5e-3; k=4: 1.7/400 =
// 4.25e-3: worker 0 (ties to the lower index).
// Literal reading, (l_i + 0.2)/c_ik with l_i of the members (0.1): k=0:
// 0.3/100; k=3: 0.3/200; k=4: 0.3/400 = 7.5e-4: worker 4.
func TestEq3Replacement(t *testing.T) {
	const n = 6
	bw := NewMatrix(n)
	for i := range bw {
		for j := range bw[i] {
			switch {
			case i == j:
			case i == 4 || j == 4:
				bw[i][j] = 400e6
			case i == 3 || j == 3:
				bw[i][j] = 200e6
			default:
				bw[i][j] = 100e6
			}
		}
	}
	for _, tc := range []struct {
		eq3  Eq3Load
		want int
	}{{Eq3Candidate, 0}, {Eq3Literal, 4}} {
		t.Run(fmt.Sprint(tc.eq3), func(t *testing.T) {
			nt, err := NewNet(netsim.New(1), bw, ConstLatency(n, 0), Flow, FL)
			if err != nil {
				t.Fatal(err)
			}
			c, err := NewCluster(nt, Config{Options: Options{Scheme: CREW, P: 2, Model: netsim.Megabyte, Chunks: 10, Eq3: tc.eq3}, ComputeScale: 1})
			if err != nil {
				t.Fatal(err)
			}
			c.knownDown[0][5]++
			c.knownDown[5][0]++
			task := newCrewTask(c, 0, []int{0, 1}, nil)
			task.owner = []int{0, 1, 2, 3, 4, 5}
			task.share = []float64{0, 0, 0.2, 0, 0, 0}
			task.load = []float64{0.1, 0.1, 0.2, 0.7, 1.5, 0}
			if got := task.replacement(2, 0.2); got != tc.want {
				t.Errorf("replacement %d, want %d", got, tc.want)
			}
		})
	}
}

// TestNonBlockingHandWorked: n = 4, uniform 100 Mbit/s, no latency, FL, a
// 4 MB model in k = 400 chunks of 10 KB. The default plan is forced to
// blocks {1-50}, {51-100}, {101-300}, {301-400}. Worker 0 becomes ready at
// 0 and scatters by it; worker 1 becomes ready at 120 ms and completes P =
// {0, 1}, whose even weights (1/4 each) turn the plan by Alg. 2 into
// {1-50, 201-250}, {51-100, 251-300}, {101-200}, {301-400}.
//
// At 120 ms worker 0 had sent chunks 101-250 to worker 2: 201-250 are
// discarded (50 chunks) and nothing more goes to 2; its copy of block 1
// lacks 251-300 (0.5 MB, 120-160 ms); block 3 arrived at 80 ms. Worker 1
// scatters its three 1 MB blocks over 120-200 ms. Block 1's multicast
// from 1 to 0 waits (FL) behind 1's scatter to 0 until 200 ms; all
// multicasts run 200-280 ms. The partial reduce takes 160 ms from P's
// formation.
func TestNonBlockingHandWorked(t *testing.T) {
	nt := uniformNet(t, 4, 100e6, FL)
	ms := netsim.Millisecond
	c, err := NewCluster(nt, Config{Options: Options{Scheme: CREW, P: 2, Split: Even, Scatter: NonBlocking,
		Model: 4 * netsim.Megabyte, Chunks: 400, Pipeline: PipelineBlock}, ComputeScale: 1})
	if err != nil {
		t.Fatal(err)
	}
	c.defSplit = Split{{{1, 50}}, {{51, 100}}, {{101, 300}}, {{301, 400}}}
	var took netsim.Time = -1
	c.onTaskEnd = func(_ int, ok bool, d netsim.Time) { took = d }
	nt.Sim.At(0, func() { c.computeDone(0) })
	nt.Sim.At(120*ms, func() { c.computeDone(1) })
	nt.Sim.Run(netsim.Never)
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	if d := took - 160*ms; d < 0 || d > 10 {
		t.Errorf("partial reduce took %v, want 160ms", took)
	}
	if c.discarded != 50 {
		t.Errorf("%d chunks discarded, want 50", c.discarded)
	}
	if c.accepted != 800 {
		t.Errorf("%d chunk copies reduced, want 800", c.accepted)
	}
}

// randomFaults draws a mixed outage schedule.
func randomFaults(r *rand.Rand, n int, dur netsim.Time) []Fault {
	var fs []Fault
	for k := 0; k < 1+r.IntN(8); k++ {
		at := netsim.Time(r.Int64N(int64(dur)))
		d := netsim.Time(0)
		if r.IntN(2) == 0 {
			d = netsim.Time(1 + r.Int64N(int64(3*netsim.Second)))
		}
		switch r.IntN(6) {
		case 0:
			fs = append(fs, Fault{Kind: FaultNode, A: r.IntN(n), At: at, Duration: d})
		case 1:
			fs = append(fs, Fault{Kind: FaultController, At: at, Duration: max(d, netsim.Second)})
		default:
			a, b := r.IntN(n), r.IntN(n-1)
			if b >= a {
				b++
			}
			fs = append(fs, Fault{Kind: FaultLink, A: a, B: b, At: at, Duration: d})
		}
	}
	return fs
}

// TestFailoverBooks: under random outages (connections, workers, the
// controller), with every scheme, blocking and non-blocking scatter, both
// failover modes and Eq. 3 scopes, chunk and block pipelines, and
// bandwidths that walk, no
// chunk is lost or duplicated: every completed partial reduce's
// aggregators got each chunk of their block from each initiator exactly
// once and every member got every block once (Cluster.Check), the engine's
// books balance, and the reduced chunk copies are exactly p k per
// completed partial reduce.
func TestFailoverBooks(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	var failovers, abandoned, discarded, prs int
	for trial := 0; trial < 60; trial++ {
		sch := []Scheme{CREW, OPR, A2A}[trial%3]
		scatter := []ScatterMode{Blocking, NonBlocking}[(trial/3)%2]
		pol := Policy(trial % 5)
		t.Run(fmt.Sprintf("%d/%v/%d/%v", trial, sch, scatter, pol), func(t *testing.T) {
			const n = 8
			cfg := testConfig(sch, 2+trial%4)
			cfg.Scatter = scatter
			cfg.Failover = FailoverMode((trial / 2) % 2)
			cfg.Eq3Scope = Eq3Scope((trial / 4) % 2)
			if trial%7 == 6 {
				cfg.Pipeline = PipelineBlock
			}
			if trial%5 == 2 {
				cfg.Vary = Variation{Model: BWWalk, Period: 700 * netsim.Millisecond, Step: 0.5, Law: N2Law()}
				cfg.Probe = netsim.Time(r.Int64N(int64(2 * netsim.Second)))
			}
			cfg.Duration = 10 * netsim.Second
			cfg.Detect = netsim.Time(r.Int64N(int64(netsim.Second)))
			if trial%4 == 3 {
				cfg.Budget = 3 * netsim.Second
			}
			cfg.Faults = randomFaults(r, n, cfg.Duration)
			c, m := runCluster(t, testNet(t, uint64(trial), n, 10*netsim.Millisecond, Flow, pol), cfg)
			if sch != A2A {
				if want := int64(m.PRs * cfg.P * cfg.Chunks); c.accepted != want {
					t.Errorf("%d chunk copies reduced, want %d (%d partial reduces)", c.accepted, want, m.PRs)
				}
			}
			failovers += m.Failovers
			abandoned += m.Abandoned
			discarded += int(m.Discarded)
			prs += m.PRs
		})
	}
	t.Logf("%d failovers, %d abandoned, %d discarded, %d completed", failovers, abandoned, discarded, prs)
	if failovers == 0 || abandoned == 0 || discarded == 0 || prs == 0 {
		t.Errorf("the trials exercised too little: %d failovers, %d abandoned, %d discarded, %d completed", failovers, abandoned, discarded, prs)
	}
}

// TestNoFaultNoLoss: without outages nothing is abandoned, blocking
// scatter discards nothing, and every scheme completes partial reduces;
// CREW beats OPR beats A2A on rounds (n = 8, p = 4, N2).
func TestNoFaultNoLoss(t *testing.T) {
	rounds := map[Scheme]float64{}
	for _, sch := range []Scheme{CREW, OPR, A2A} {
		_, m := runCluster(t, testNet(t, 2, 8, 10*netsim.Millisecond, Flow, FL), testConfig(sch, 4))
		if m.Abandoned != 0 || m.Discarded != 0 || m.Failovers != 0 || m.PRs == 0 {
			t.Errorf("%v: %+v", sch, m)
		}
		rounds[sch] = m.RoundsPerWorker
	}
	if !(rounds[CREW] > rounds[OPR] && rounds[OPR] > rounds[A2A]) {
		t.Errorf("rounds: crew %.2f, opr %.2f, a2a %.2f", rounds[CREW], rounds[OPR], rounds[A2A])
	}
}
