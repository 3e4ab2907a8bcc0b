package syncctl

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"syncsim/netsim"
	"syncsim/workloads/training"
)

// liar computes for Actual seconds but tells the controller (through its
// CDF) that it finishes at Believed: it makes predictions fail on purpose.
type liar struct{ Actual, Believed float64 }

func (l liar) Sample(*rand.Rand) float64 { return l.Actual }
func (l liar) CDF(x float64) float64 {
	if x >= l.Believed {
		return 1
	}
	return 0
}
func (l liar) Mean() float64 { return l.Actual }
func (l liar) Name() string  { return "liar" }

// recorder wraps Analytic and records the launched groups.
type recorder struct{ groups [][]int }

func (r *recorder) Start(c *Cluster, g []int, bytes float64, done func()) {
	r.groups = append(r.groups, append([]int(nil), g...))
	Analytic{}.Start(c, g, bytes, done)
}

// With v = 0.5 byte and alpha = 0 under CostApprox a group's sync time is
// 8/min b seconds (b in bits/s).
func smallCluster(t *testing.T, bw []float64, compute []training.Dist, ctl Controller, rec *recorder) *Cluster {
	t.Helper()
	cl, err := NewCluster(netsim.New(1), Config{BW: bw, ModelBytes: 0.5, Compute: compute, MaxIters: 1, Cost: CostApprox, Exec: rec}, ctl)
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// TestSelectiveReduceMovesDelta walks Alg. 3 by hand. p = 1, eta = 0,
// dt = 0.25 s. w0 (8), w1 (4), w2 (1) are ready at 1 s; w3 (8) is believed
// ready at 1 s but finishes at 1.5 s.
//
//	t=1, w1 arrives: Q={w0,w1} > p. BAG -> [[w0,w1]]. BPAWR: C={w3}, k=1,
//	  g*={w0,V}, g_delta={w1}, t_X = 8/4-8/8 = 1 > 0.25: wait (last group,
//	  g_delta stays).
//	t=1, w2 arrives (not wasted): BAG -> [[w0,w1],[w2]]. g0 waits again and
//	  w1 moves to g1 = [w2,w1]; S is now empty, so g1 launches (8/1 = 8 s).
//	  w0 waits.
//	t=1.25: time-out, no arrival; w0 keeps waiting.
//	t=1.5: w3 arrives: [[w0,w3]] launches (8/8 = 1 s). w3 joined after
//	  w0 began waiting, so w0's wait is not wasted; w1's wait lasted 0 s.
func TestSelectiveReduceMovesDelta(t *testing.T) {
	sr, err := NewSelectiveReduce(SelectiveConfig{P: 1, Eta: 0, Theta: 1, Dt: 0.25}, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	cl := smallCluster(t, []float64{8, 4, 1, 8},
		[]training.Dist{training.Constant{T: 1}, training.Constant{T: 1}, training.Constant{T: 1}, liar{Actual: 1.5, Believed: 1}},
		sr, rec)
	m := cl.Run()
	if err := cl.Check(); err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{2, 1}, {0, 3}}; !reflect.DeepEqual(rec.groups, want) {
		t.Fatalf("groups %v, want %v", rec.groups, want)
	}
	if m.AvgSyncTime != 4.5 || m.AvgSyncScale != 2 || m.TotalSync != 2 || m.TotalIteration != 4 {
		t.Errorf("metrics %+v; want avg time 4.5, scale 2, 2 syncs, 4 iterations", m)
	}
	if m.WastedWait != 0 {
		t.Errorf("wasted wait per worker %v, want 0", m.WastedWait)
	}
	if sr.Rounds() != 2 || sr.Waits() != 2 {
		t.Errorf("k = %d, waits = %d; want 2, 2 (t=1 twice)", sr.Rounds(), sr.Waits())
	}
}

// TestSelectiveReduceWastedSlots: w2 is believed ready at 1 s but finishes
// at 2.5 s, so the group {w0,w1} waits from 1 s (two slots) until w2
// arrives and replaces w1: w0 launches with the newcomer w2 (its wait paid
// off), w1 launches alone at 2.5 s with no newcomer, so its 1.5 s wait is
// wasted.
func TestSelectiveReduceWastedSlots(t *testing.T) {
	sr, err := NewSelectiveReduce(SelectiveConfig{P: 1, Eta: 0, Theta: 1, Dt: 1}, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	cl := smallCluster(t, []float64{8, 1, 8, 8},
		[]training.Dist{training.Constant{T: 1}, training.Constant{T: 1}, liar{Actual: 2.5, Believed: 1}, training.Constant{T: 100}},
		sr, rec)
	m := cl.Run()
	if err := cl.Check(); err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{0, 2}, {1}}; !reflect.DeepEqual(rec.groups, want) {
		t.Fatalf("groups %v, want %v", rec.groups, want)
	}
	if m.WastedWait != 1.5/4 {
		t.Errorf("wasted wait per worker %v, want 0.375 (1.5 s for w1)", m.WastedWait)
	}
	if m.AvgSyncTime != 0.5 || m.AvgSyncScale != 1.5 {
		t.Errorf("avg time %v scale %v, want 0.5, 1.5", m.AvgSyncTime, m.AvgSyncScale)
	}
}

// TestSelectiveReduceFullEveryC: with c = 2 the first synchronisation is a
// full all reduce (k = 0), then one partial round, then full again.
func TestSelectiveReduceFullEveryC(t *testing.T) {
	sr, err := NewSelectiveReduce(SelectiveConfig{P: 1, Eta: 0, Theta: 1, Dt: 0.5, C: 2}, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	cl, err := NewCluster(netsim.New(1), Config{
		BW: []float64{8, 8, 8, 8}, ModelBytes: 0.5, Cost: CostApprox, Exec: rec, MaxIters: 3,
		Compute: []training.Dist{training.Constant{T: 1}, training.Constant{T: 1}, training.Constant{T: 2}, training.Constant{T: 3}},
	}, sr)
	if err != nil {
		t.Fatal(err)
	}
	cl.Run()
	if err := cl.Check(); err != nil {
		t.Fatal(err)
	}
	// t=3: full {0,1,2,3} (1 s). t=5: w0,w1 ready -> partial {0,1};
	// t=6: w2; t=7: w3 and w0,w1 (back at 5+1+1=7): k=2 -> full once all 4
	// are ready.
	if len(rec.groups) < 3 || len(rec.groups[0]) != 4 || len(rec.groups[2]) != 4 {
		t.Fatalf("groups %v: want full, partial, full", rec.groups)
	}
	if len(rec.groups[1]) == 4 {
		t.Errorf("second sync %v should be partial", rec.groups[1])
	}
}

// TestPartialReducePopsP checks every group is exactly the first p ready
// workers, on a random heterogeneous cluster.
func TestPartialReducePopsP(t *testing.T) {
	const n, p = 20, 6
	bw, _ := training.Bandwidths(netsim.Stream(3, "training/bandwidth"), n, 0.05)
	for i := range bw {
		bw[i] *= 1e9
	}
	rec := &recorder{}
	pr, _ := NewPartialReduce(p)
	order := &headCheck{inner: pr, rec: rec}
	cl, err := NewCluster(netsim.New(3), Config{BW: bw, ModelBytes: 500e6, Alpha: 1e-3, Compute: []training.Dist{training.CNN()}, Duration: 30 * netsim.Second, Exec: rec}, order)
	if err != nil {
		t.Fatal(err)
	}
	m := cl.Run()
	if err := cl.Check(); err != nil {
		t.Fatal(err)
	}
	if len(rec.groups) < 10 {
		t.Fatalf("only %d groups launched", len(rec.groups))
	}
	for _, g := range rec.groups {
		if len(g) != p {
			t.Fatalf("group %v has %d workers, want %d", g, len(g), p)
		}
	}
	if m.AvgSyncScale != p || order.bad != "" {
		t.Errorf("avg scale %v (want %d); %s", m.AvgSyncScale, p, order.bad)
	}
}

// headCheck wraps a controller and verifies that the groups it launches in
// one step are the head of the ready queue, in order.
type headCheck struct {
	inner Controller
	rec   *recorder
	bad   string
}

func (h *headCheck) Name() string { return h.inner.Name() }

func (h *headCheck) Step(c *Cluster, w int) netsim.Time {
	q0 := append([]int(nil), c.Queue()...)
	before := len(h.rec.groups)
	d := h.inner.Step(c, w)
	var popped []int
	for _, g := range h.rec.groups[before:] {
		popped = append(popped, g...)
	}
	if len(popped) > 0 && (!reflect.DeepEqual(popped, q0[:len(popped)]) || !reflect.DeepEqual(c.Queue(), q0[len(popped):])) {
		h.bad = "launched workers are not the head of the queue"
	}
	if len(c.Queue()) >= 6 {
		h.bad = "left p or more workers ready"
	}
	return d
}

// TestAllReduceRing: constant 1 s compute, BSP, ring cost: every round
// takes 1 + T(n) and every worker iterates the same number of times.
func TestAllReduceRing(t *testing.T) {
	bw := []float64{10e9, 5e9, 20e9, 8e9}
	cl, err := NewCluster(netsim.New(1), Config{BW: bw, ModelBytes: 500e6, Alpha: 1e-3, Compute: []training.Dist{training.Constant{T: 1}}, Duration: 20 * netsim.Second}, AllReduce{})
	if err != nil {
		t.Fatal(err)
	}
	m := cl.Run()
	if err := cl.Check(); err != nil {
		t.Fatal(err)
	}
	T := CostRing.Time(4, 500e6, 5e9, 1e-3) // 0.006 + 1.2 = 1.206 s
	rounds := int(20 / (1 + T))             // 9
	if m.TotalSync != rounds || m.AvgSyncScale != 4 || abs(m.AvgSyncTime-T) > 1e-9 {
		t.Errorf("%+v; want %d syncs of 4 taking %v", m, rounds, T)
	}
	// the 10th computation would end at 9*(1+T)+1 = 20.85 s > 20 s.
	if m.TotalIteration != 4*rounds {
		t.Errorf("total iteration %d, want %d", m.TotalIteration, 4*rounds)
	}
}

func clusterRun(t testing.TB, seed uint64, cold bool) Metrics {
	const n = 40
	sim := netsim.New(seed)
	bw, _ := training.Bandwidths(sim.Rand("training/bandwidth"), n, 0.05)
	for i := range bw {
		bw[i] *= 1e9
	}
	sr, err := NewSelectiveReduce(SelectiveConfig{P: 12, Eta: 0.3, Theta: 1, Dt: 0.1, BWError: 0.1, Cold: cold}, 500e6, sim.Rand("syncctl/bw-estimate"))
	if err != nil {
		t.Fatal(err)
	}
	cl, err := NewCluster(sim, Config{BW: bw, ModelBytes: 500e6, Alpha: 1e-3, Compute: []training.Dist{training.Transformer()}, Duration: 30 * netsim.Second}, sr)
	if err != nil {
		t.Fatal(err)
	}
	m := cl.Run()
	if err := cl.Check(); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSelectiveReduceDeterministic(t *testing.T) {
	for _, cold := range []bool{false, true} {
		a, b, c := clusterRun(t, 5, cold), clusterRun(t, 5, cold), clusterRun(t, 6, cold)
		if a != b {
			t.Errorf("cold=%v: same seed, different metrics:\n%+v\n%+v", cold, a, b)
		}
		if a == c {
			t.Errorf("cold=%v: seeds 5 and 6 gave identical metrics", cold)
		}
		if a.TotalSync == 0 || a.AvgSyncScale <= 12 {
			t.Errorf("cold=%v: %+v: want syncs with scale > p (groups seed p+1)", cold, a)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	good := Config{BW: []float64{1, 2}, ModelBytes: 1, Compute: []training.Dist{training.Constant{T: 1}}}
	cases := map[string]func(c *Config){
		"no workers":    func(c *Config) { c.BW = nil },
		"zero bw":       func(c *Config) { c.BW = []float64{1, 0} },
		"model":         func(c *Config) { c.ModelBytes = 0 },
		"alpha":         func(c *Config) { c.Alpha = -1 },
		"compute count": func(c *Config) { c.Compute = make([]training.Dist, 3) },
	}
	for _, name := range []string{"no workers", "zero bw", "model", "alpha", "compute count"} {
		c := good
		cases[name](&c)
		if _, err := NewCluster(netsim.New(1), c, AllReduce{}); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
	bad := []SelectiveConfig{
		{P: 0, Dt: 1}, {P: 1, Eta: 1, Dt: 1}, {P: 1, Dt: 0}, {P: 1, Dt: 1, C: -1}, {P: 1, Dt: 1, BWError: 1}, {P: 1, Dt: 1, Theta: -1},
		{P: 1, Dt: 1, Seed: BAGSeed(2)}, {P: 1, Dt: 1, KRound: KRounding(5)},
	}
	for i, sc := range bad {
		if _, err := NewSelectiveReduce(sc, 1, netsim.Stream(1, "x")); err == nil {
			t.Errorf("selective config %d: want an error", i)
		}
	}
}

// TestCheckCatchesCorruption: Check must notice broken books.
func TestCheckCatchesCorruption(t *testing.T) {
	build := func() *Cluster {
		cl, err := NewCluster(netsim.New(1), Config{BW: []float64{8, 8, 8}, ModelBytes: 0.5, Compute: []training.Dist{training.Constant{T: 1}}, Duration: 5 * netsim.Second}, &PartialReduce{P: 2})
		if err != nil {
			t.Fatal(err)
		}
		cl.Run()
		if err := cl.Check(); err != nil {
			t.Fatal(err)
		}
		return cl
	}
	corrupt := map[string]func(c *Cluster){
		"duplicate in queue": func(c *Cluster) { c.queue = append(c.queue, c.queue...) },
		"lost round":         func(c *Cluster) { c.w[0].rounds-- },
		"phantom iteration":  func(c *Cluster) { c.w[1].iters += 2 },
		"ready not queued":   func(c *Cluster) { c.w[c.queue[0]].state = computing },
	}
	for _, name := range []string{"duplicate in queue", "lost round", "phantom iteration", "ready not queued"} {
		cl := build()
		if len(cl.queue) == 0 {
			t.Fatal("setup: want a worker left in the queue")
		}
		corrupt[name](cl)
		if cl.Check() == nil {
			t.Errorf("%s: Check passed", name)
		}
	}
}
