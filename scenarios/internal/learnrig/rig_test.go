package learnrig

import (
	"math"
	"slices"
	"testing"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/workloads/crew"
	"syncsim/workloads/dssync"
	"syncsim/workloads/learn"
	"syncsim/workloads/syncctl"
	"syncsim/workloads/training"
)

// testRun resolves sets over the learning parameters of a bare
// experiment: a small synthetic mixture and softmax by default.
func testRun(t *testing.T, o Options, sets ...string) *experiments.Run {
	t.Helper()
	e := With(&experiments.Experiment{Name: "t", Params: []experiments.Param{
		experiments.EnumParam("scheme", "x", []string{"x", "asp"}, "")}}, o)
	base := []string{"learn_model=softmax", "dataset=synthetic", "synth_samples=2000", "synth_dim=8", "synth_classes=4", "synth_clusters=1", "synth_sep=2", "eval_every=2", "eval_samples=0"}
	ps, err := e.Resolve(append(base, sets...))
	if err != nil {
		t.Fatal(err)
	}
	return &experiments.Run{Exp: e, Params: ps, Seed: 1}
}

// ops returns the schedule's ops of one kind.
func ops(sched []learn.Op, k learn.OpKind) []learn.Op {
	var out []learn.Op
	for _, op := range sched {
		if op.Kind == k {
			out = append(out, op)
		}
	}
	return out
}

// TestSyncCtlScheduleIsTheControllers: the averages the learner applies
// are the controller's synchronisations, one for one, at their completion
// times and with their sizes; each member stepped once since its last
// average; the staleness weights follow from the versions the schedule
// itself implies.
func TestSyncCtlScheduleIsTheControllers(t *testing.T) {
	for _, scheme := range []string{"partial-reduce", "selective-reduce"} {
		t.Run(scheme, func(t *testing.T) {
			const n = 8
			sim := netsim.New(5)
			r := testRun(t, Options{Target: 0.9, Weights: "staleness"})
			g, err := New(r, sim, Job{Workers: n, Record: true})
			if err != nil {
				t.Fatal(err)
			}
			bw := make([]float64, n)
			for i := range bw {
				bw[i] = float64(2+i) * 1e9
			}
			dist, _ := training.ParseDist("uniform", 0.05, 0.3)
			var ctl syncctl.Controller = &syncctl.PartialReduce{P: 3}
			if scheme == "selective-reduce" {
				ctl, err = syncctl.NewSelectiveReduce(syncctl.SelectiveConfig{P: 3, Eta: 0.3, Theta: 1, Dt: 0.01}, 1e7, sim.Rand("est"))
				if err != nil {
					t.Fatal(err)
				}
			}
			cl, err := syncctl.NewCluster(sim, syncctl.Config{BW: bw, ModelBytes: 1e7, Alpha: 1e-3, Compute: []training.Dist{dist},
				Duration: netsim.FromSeconds(5), Record: true, Recorder: g.SyncCtl()}, ctl)
			if err != nil {
				t.Fatal(err)
			}
			m := cl.Run()
			sched := g.Fleets[0].Schedule()
			avgs, log := ops(sched, learn.OpAverage), cl.Syncs()
			if len(avgs) != len(log) || len(avgs) != m.TotalSync || len(avgs) < 10 {
				t.Fatalf("%d averages, %d logged synchronisations, %d counted", len(avgs), len(log), m.TotalSync)
			}
			for i, a := range avgs {
				if a.T != log[i].End.Seconds() || len(a.Group) != log[i].Scale {
					t.Fatalf("average %d: %d workers at %g s; the controller: %d at %g s", i, len(a.Group), a.T, log[i].Scale, log[i].End.Seconds())
				}
			}
			// Replay the versions: a step adds one, an average takes the max.
			v := make([]int, n)
			stepped := make([]bool, n)
			prev := 0.0
			for _, op := range sched {
				if op.T < prev {
					t.Fatalf("op %v at %g s after %g s", op.Kind, op.T, prev)
				}
				prev = op.T
				switch op.Kind {
				case learn.OpStep:
					if stepped[op.W] {
						t.Fatalf("worker %d stepped twice without synchronising", op.W)
					}
					stepped[op.W] = true
					v[op.W]++
				case learn.OpAverage:
					top := 0
					for _, w := range op.Group {
						if !stepped[w] {
							t.Fatalf("worker %d synchronised without a step", w)
						}
						stepped[w] = false
						top = max(top, v[w])
					}
					var sum float64
					for i, w := range op.Group {
						want := 1 / float64(1+top-v[w])
						sum += want
						_ = i
					}
					for i, w := range op.Group {
						if want := 1 / float64(1+top-v[w]) / sum; math.Abs(op.Weights[i]-want) > 1e-12 {
							t.Fatalf("weight of worker %d (version %d of %d) is %g, want %g", w, v[w], top, op.Weights[i], want)
						}
					}
					for _, w := range op.Group {
						v[w] = top
					}
				}
			}
		})
	}
}

// TestDSSyncScheduleIsThePattern: under DS-Sync (contention given) the
// groups the learner averages in iteration t are the pattern's groups of
// t, piece by piece; under ring all-reduce one group of everybody;
// gossip sends follow the exponential graph.
func TestDSSyncScheduleIsThePattern(t *testing.T) {
	for _, scheme := range []string{"dssync", "allreduce", "gossip", "asp"} {
		t.Run(scheme, func(t *testing.T) {
			sim := netsim.New(3)
			model, _ := dssync.LookupModel("custom", 16, netsim.FromMillis(20))
			cfg := dssync.Config{Scheme: scheme, Scenario: dssync.Both, Delayed: -1, Model: model, Layers: 2,
				Compute: netsim.FromMillis(20), BackwardFrac: 0.667, LinkRate: 20 * netsim.Gbps, Oversub: 1,
				Delay: netsim.Microsecond, Alpha: 10 * netsim.Microsecond, Background: "flows", BGFlows: 1,
				Iterations: 24, Warmup: 4, Fidelity: "flow", AdjustEvery: 8, Detect: "given", Threshold: dssync.DefaultThreshold,
				GroupAlgo: "ring", TreeChunks: 4, ConsensusTol: 1e-3}
			layout := dssync.PaperLayout(cfg.Scenario)
			r := testRun(t, Options{Target: 0.9, SWA: true, ASP: true}, "scheme="+map[bool]string{true: "asp", false: "x"}[scheme == "asp"])
			g, err := New(r, sim, Job{Workers: layout.Workers(), Pieces: []float64{1, 1}, Record: true})
			if err != nil {
				t.Fatal(err)
			}
			cfg.Recorder = g.DSSync(scheme)
			if _, err := dssync.Run(sim, cfg); err != nil {
				t.Fatal(err)
			}
			f := g.Fleets[0]
			sched := f.Schedule()
			n := layout.Workers()
			for w := range n {
				if f.Rounds(w) != 24 || f.Steps(w) != 24 {
					t.Errorf("worker %d: %d rounds and %d gradients, want 24", w, f.Rounds(w), f.Steps(w))
				}
			}
			switch scheme {
			case "dssync", "allreduce":
				var want *dssync.Adaptive
				if scheme == "dssync" {
					p, err := dssync.Place(cfg.Scenario, layout, -1)
					if err != nil {
						t.Fatal(err)
					}
					if want, err = dssync.NewAdaptive(layout, p.Truth, cfg.AdjustEvery, nil); err != nil {
						t.Fatal(err)
					}
				}
				got := map[[2]int][][]int{}
				for _, op := range ops(sched, learn.OpAverage) {
					k := [2]int{op.Iter, op.Piece}
					got[k] = append(got[k], slices.Sorted(slices.Values(op.Group)))
				}
				for it := range 24 {
					var groups [][]int
					if want != nil {
						for _, grp := range want.GroupsAt(it) {
							if len(grp) > 1 {
								groups = append(groups, slices.Sorted(slices.Values([]int(grp))))
							}
						}
					} else {
						groups = [][]int{{0, 1, 2, 3, 4, 5, 6, 7}}
					}
					slices.SortFunc(groups, slices.Compare)
					for l := range 2 {
						have := got[[2]int{it, l}]
						slices.SortFunc(have, slices.Compare)
						var multi [][]int
						for _, h := range have {
							if len(h) > 1 {
								multi = append(multi, h)
							}
						}
						if !slices.EqualFunc(multi, groups, slices.Equal) {
							t.Fatalf("iteration %d piece %d: averaged %v, the pattern has %v", it, l, multi, groups)
						}
					}
				}
			case "gossip":
				offs := []int{1, 7, 2, 6, 4} // SGP's exponential graph on 8 workers (collective.ExponentialPeers)
				sends := ops(sched, learn.OpSend)
				if len(sends) != 24*8*2 || len(ops(sched, learn.OpRecv)) != len(sends) {
					t.Fatalf("%d sends, %d receives", len(sends), len(ops(sched, learn.OpRecv)))
				}
				for _, s := range sends {
					if s.Peer != (s.W+offs[s.Iter%len(offs)])%8 {
						t.Fatalf("worker %d sent to %d in iteration %d", s.W, s.Peer, s.Iter)
					}
				}
			case "asp":
				if p := len(ops(sched, learn.OpPush)); p != 24*8*2 || len(ops(sched, learn.OpPull)) != p {
					t.Fatalf("%d pushes, %d pulls", p, len(ops(sched, learn.OpPull)))
				}
				if len(ops(sched, learn.OpAverage))+len(ops(sched, learn.OpStep)) != 0 {
					t.Fatal("ASP averaged or stepped a worker's own model")
				}
			}
		})
	}
}

// TestCrewScheduleIsTheControllers: every partial reduce the controller
// forms is reduced over its p members and adopted by each member that
// completes it; the rounds the learner counts are the cluster's. Under
// chunk pipelining and block store-and-forward, with persistent
// stragglers, a walking WAN re-planned from probes, and failing links
// whose blocks move or split to replacement aggregators.
func TestCrewScheduleIsTheControllers(t *testing.T) {
	const n, p = 8, 3
	mult := []float64{1, 4, 1, 1, 1, 1, 4, 1}
	var faults []crew.Fault
	for i := range 4 {
		faults = append(faults, crew.Fault{Kind: crew.FaultLink, A: i, B: i + 4,
			At: netsim.FromSeconds(float64(2 + 3*i)), Duration: netsim.FromSeconds(2)})
	}
	cases := []struct {
		name     string
		pipeline crew.Pipeline
		failover crew.FailoverMode
		mult     []float64
		vary     bool
		faults   []crew.Fault
	}{
		{name: "chunk", pipeline: crew.PipelineChunk},
		{name: "block", pipeline: crew.PipelineBlock},
		{name: "stragglers", pipeline: crew.PipelineChunk, mult: mult},
		{name: "walk", pipeline: crew.PipelineChunk, vary: true},
		{name: "faults-move", pipeline: crew.PipelineChunk, failover: crew.FailoverMove, faults: faults},
		{name: "faults-split", pipeline: crew.PipelineChunk, failover: crew.FailoverSplit, faults: faults, mult: mult},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sim := netsim.New(2)
			lat := make([][]netsim.Time, n)
			for i := range lat {
				lat[i] = make([]netsim.Time, n)
			}
			net, err := crew.NewNet(sim, crew.N2(sim.Rand("bw"), n), lat, crew.Flow, crew.FL)
			if err != nil {
				t.Fatal(err)
			}
			r := testRun(t, Options{Target: 0.9, Weights: "uniform"})
			g, err := New(r, sim, Job{Workers: n, Record: true})
			if err != nil {
				t.Fatal(err)
			}
			opt := crew.Options{Scheme: crew.CREW, P: p, Model: 2 * netsim.Megabyte, Chunks: 100,
				Pipeline: tc.pipeline, Failover: tc.failover, Detect: netsim.FromMillis(200)}
			dist, _ := training.ParseDist("uniform", 0.05, 0.2)
			cfg := crew.Config{Options: opt, Compute: dist, ComputeScale: 1, ComputeMult: tc.mult,
				Duration: netsim.FromSeconds(20), Faults: tc.faults, Recorder: g.Crew()}
			if tc.vary {
				cfg.Vary = crew.Variation{Model: crew.BWWalk, Period: netsim.FromSeconds(1), Step: 0.3, Law: crew.N2Law()}
				cfg.Probe = netsim.FromSeconds(1)
			}
			cl, err := crew.NewCluster(net, cfg)
			if err != nil {
				t.Fatal(err)
			}
			m := cl.Run()
			if tc.faults != nil && m.Failovers == 0 {
				t.Fatalf("no failover under %d link outages", len(tc.faults))
			}
			f := g.Fleets[0]
			sched := f.Schedule()
			red := ops(sched, learn.OpReduce)
			if len(red) < m.PRs || len(red) > m.PRs+n/p+1 {
				t.Fatalf("%d reductions for %d completed partial reduces", len(red), m.PRs)
			}
			for _, op := range red {
				if len(op.Group) != p {
					t.Fatalf("partial reduce of %d workers, p = %d", len(op.Group), p)
				}
			}
			for w := range n {
				if f.Rounds(w) != m.Rounds[w] {
					t.Errorf("worker %d: learner counts %d rounds, the cluster %d", w, f.Rounds(w), m.Rounds[w])
				}
			}
			if tc.mult != nil && !(m.Rounds[1] < m.Rounds[0] || m.Rounds[1] < m.Rounds[2]) {
				t.Errorf("the 4x straggler completed %d rounds, its neighbours %d and %d", m.Rounds[1], m.Rounds[0], m.Rounds[2])
			}
		})
	}
}
