package ina

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"syncsim/experiments"
	"syncsim/experiments/exptest"
	"syncsim/inagg"
	"syncsim/netsim"
	"syncsim/scenarios/internal/inarig"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// tierRig is one or more ATP jobs on a k = 4 fat-tree of 2 hosts per
// edge (16 hosts: pod p has edges 2p, 2p+1, aggregation switches 2p, 2p+1
// and hosts 4p..4p+3; core c joins aggregation switch c / 2 of every
// pod), with an aggregator on every switch.
type tierRig struct {
	net  *netsim.Network
	fab  *topologies.Fabric
	aggs map[*switchmodel.Switch]*inagg.Aggregator
	all  []*inagg.Aggregator
	jobs []*inagg.Job
}

func newTierRig(t *testing.T, seed uint64, buffer netsim.Bytes) *tierRig {
	t.Helper()
	net := netsim.NewNetwork(netsim.New(seed))
	fab, err := topologies.FatTree(net, topologies.FatTreeConfig{K: 4, HostsPerEdge: 2, HostRate: 100 * netsim.Gbps,
		FabricRate: 100 * netsim.Gbps, Delay: 2 * netsim.Microsecond, Queue: switchmodel.QueueConfig{Buffer: buffer}})
	if err != nil {
		t.Fatal(err)
	}
	r := &tierRig{net: net, fab: fab, aggs: map[*switchmodel.Switch]*inagg.Aggregator{}}
	for _, sw := range fab.Switches {
		a, err := inagg.NewAggregator(sw, inagg.DefaultAggregatorConfig())
		if err != nil {
			t.Fatal(err)
		}
		r.aggs[sw] = a
		r.all = append(r.all, a)
	}
	return r
}

// job adds ATP job id with its PS on host ps and workers on hosts ws,
// aggregating at every tier (every = true, jobTree's tree) or at the PS's
// edge only.
func (r *tierRig) job(t *testing.T, id, ps int, ws []int, grad netsim.Bytes, every bool) (*inagg.Job, tierTree) {
	t.Helper()
	workers := make([]*netsim.Host, len(ws))
	for i, w := range ws {
		workers[i] = r.fab.Hosts[w]
	}
	psHost := r.fab.Hosts[ps]
	cfg := inagg.JobConfig{ID: id, Protocol: inagg.ATP, Workers: workers, PS: psHost, Switch: r.aggs[r.fab.EdgeOf(psHost.ID())],
		Gradient: grad, Iterations: 2}
	var tt tierTree
	if every {
		var err error
		if tt, err = jobTree(r.fab, id, psHost, workers); err != nil {
			t.Fatal(err)
		}
		cfg.Flows = tt.flows
		cfg.Tree = make([][]*inagg.Aggregator, len(ws))
		for i, chain := range tt.chains {
			for _, sw := range chain {
				cfg.Tree[i] = append(cfg.Tree[i], r.aggs[sw])
			}
		}
	}
	j, err := inagg.NewJob(r.net, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Start(); err != nil {
		t.Fatal(err)
	}
	r.jobs = append(r.jobs, j)
	return j, tt
}

// run runs to the end and checks the books: every job done with every
// worker holding the exact sum of every sequence once, switch + PS
// contributions = workers x packets x iterations, every sequence
// completed once at the PS, no aggregator left held at any switch,
// packets conserved (sent = delivered + dropped + in flight).
func (r *tierRig) run(t *testing.T) {
	t.Helper()
	r.net.Sim.Run(10 * netsim.Second)
	for _, j := range r.jobs {
		if err := j.Check(); err != nil {
			t.Fatal(err)
		}
		if got, want := j.PSStats().Completions, uint64(j.PacketsPerIteration())*2; got != want {
			t.Fatalf("job %d: the PS completed %d sequences, want %d", j.ID(), got, want)
		}
	}
	for _, a := range r.all {
		if err := a.CheckLeaks(); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.net.CheckConservation(); err != nil {
		t.Fatal(err)
	}
	if live, fl := r.net.Sim.Packets().Live(), r.net.InFlight(); live != int64(fl) {
		t.Fatalf("packet pool: %d live packets but %d in flight", live, fl)
	}
}

// sw names switches of the k = 4 fat-tree.
func (r *tierRig) sw(name string) *switchmodel.Switch {
	for _, s := range r.fab.Switches {
		if s.Name() == name {
			return s
		}
	}
	panic("no switch " + name)
}

// topBytes is what the cables to and from the core switches carried.
func (r *tierRig) topBytes() uint64 {
	top := inarig.TopTier(r.fab)
	return top.Bytes()
}

// TestEveryTierHandWorked: job 0 on the k = 4 fat-tree, its PS on h0
// (edge0, pod 0) and six workers: w0 = h1 beside it, w1 = h2 (edge1, pod
// 0), w2, w3 = h4, h5 (edge2, pod 1), w4 = h6 (edge3, pod 1), w5 = h8
// (edge4, pod 2). Job 0's core is core0 (a = 0, c = 0), which joins agg0
// (pod 0), agg2 (pod 1) and agg4 (pod 2). Streams of the job meeting at
// each switch (a worker, or the switch below it on the tree):
//
//	edge2: w2, w3           -> sums 2, one rack aggregate up
//	edge3: w4 alone         -> forwards (left out of the tree)
//	agg2:  edge2, edge3     -> sums 2 (the rack aggregate and w4's gradient)
//	edge4, agg4: w5 alone   -> forward
//	core0: agg2, agg4       -> sums 2 (pod 1's aggregate and w5's gradient)
//	agg0:  edge1 (w1), core0 -> sums 2
//	edge0 (root): w0, agg0  -> sums 2, one aggregate to the PS
//
// so per sequence every aggregating switch absorbs exactly 2
// contributions and sends 1 up, the PS receives exactly 1 packet, and on
// the way back each of them sends one copy per child (2): every worker
// gets its result once. The core's cables carry per sequence agg2 ->
// core0, agg4 -> core0, core0 -> agg0 up and the reverse down, 6 packets,
// where aggregation at the PS's edge alone sends the 4 workers outside
// pod 0 their gradients up and their results down through a core, 2
// cables each way, 16 packets: the top tier carries 16/6 = 8/3 as many
// bytes (every packet of one sequence is the same size either way).
// Each seed salts the ECMP hash, so the labels that pin the tree are
// drawn anew: the counts hold at every seed.
func TestEveryTierHandWorked(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		everyTierHandWorked(t, seed)
	}
}

func everyTierHandWorked(t *testing.T, seed uint64) {
	const grad = 100 * inagg.INAPayloadBytes
	ws := []int{1, 2, 4, 5, 6, 8}
	var bytes [2]uint64
	for k, every := range []bool{true, false} {
		r := newTierRig(t, seed, netsim.MiB)
		j, tt := r.job(t, 0, 0, ws, grad, every)
		r.run(t)
		if r.net.Stats().Dropped != 0 || j.TotalWorkerStats().Retransmits != 0 {
			t.Fatalf("every-tier %v: %d drops, %d resends with 1 MiB buffers", every, r.net.Stats().Dropped, j.TotalWorkerStats().Retransmits)
		}
		bytes[k] = r.topBytes()
		if !every {
			continue
		}
		want := [][]string{{}, {"agg0"}, {"edge2", "agg2", "core0", "agg0"}, {"edge2", "agg2", "core0", "agg0"},
			{"agg2", "core0", "agg0"}, {"core0", "agg0"}}
		for i, chain := range tt.chains {
			var got []string
			for _, s := range chain {
				got = append(got, s.Name())
			}
			if strings.Join(got, " ") != strings.Join(want[i], " ") {
				t.Fatalf("worker %d's chain %v, want %v", i, got, want[i])
			}
		}
		p := uint64(j.PacketsPerIteration()) * 2
		for _, name := range []string{"edge2", "agg2", "core0", "agg0", "edge0"} {
			st := r.aggs[r.sw(name)].Stats
			if st.Absorbed != 2*p || st.Completions != p || st.Level1Passed != 0 || st.Collisions != 0 || st.Flushes != 0 {
				t.Fatalf("%s: absorbed %d, completed %d, passed %d, collided %d, flushed %d; want 2 x %d absorbed and %d completed",
					name, st.Absorbed, st.Completions, st.Level1Passed, st.Collisions, st.Flushes, p, p)
			}
		}
		for _, name := range []string{"edge1", "edge3", "edge4", "agg4", "agg1", "core1"} {
			if st := r.aggs[r.sw(name)].Stats; st.Gradients+st.Absorbed+st.Results != 0 {
				t.Fatalf("%s is not in the tree but saw %d gradients and %d results", name, st.Gradients, st.Results)
			}
		}
		link := func(a, b string) uint64 { return r.fab.PortBetween(r.sw(a).ID(), r.sw(b).ID()).TxPackets }
		for _, c := range [][2]string{{"edge2", "agg2"}, {"edge3", "agg2"}, {"agg2", "core0"}, {"agg4", "core0"}, {"core0", "agg0"},
			{"agg0", "edge0"}, {"edge0", "agg0"}, {"agg0", "core0"}, {"core0", "agg2"}, {"core0", "agg4"}, {"agg2", "edge2"}} {
			if got := link(c[0], c[1]); got != p {
				t.Fatalf("%s -> %s carried %d packets, want one per sequence, %d", c[0], c[1], got, p)
			}
		}
		if ps := j.PSStats(); ps.Aggregates != p || ps.Gradients != 0 || ps.Duplicates != 0 {
			t.Fatalf("the PS received %d aggregates and %d gradients (%d duplicates), want exactly %d aggregates", ps.Aggregates, ps.Gradients, ps.Duplicates, p)
		}
		for i := range ws {
			if st := j.WorkerStats(i); st.Results != p || st.DupResults != 0 {
				t.Fatalf("worker %d got %d results (%d duplicates), want %d", i, st.Results, st.DupResults, p)
			}
		}
	}
	if bytes[1]*6 != bytes[0]*16 || bytes[0] == 0 {
		t.Fatalf("core cables carried %d B every-tier, %d B at the PS's edge: ratio %.4f, want 16/6 = %.4f",
			bytes[0], bytes[1], float64(bytes[1])/float64(bytes[0]), 16.0/6)
	}
}

// TestEveryTierLossy: three jobs whose trees share switches, on 12 KB
// buffers: gradients, aggregates and results are dropped, resends flush
// partial aggregates at the tree's levels, and the books still balance
// (every job's every sequence completed once with the exact sum at every
// worker, no aggregator left held anywhere, drops + delivered + in
// flight = sent).
func TestEveryTierLossy(t *testing.T) {
	r := newTierRig(t, 7, 12*netsim.Kilobyte)
	r.job(t, 0, 0, []int{1, 2, 4, 5, 6, 8, 12, 13}, netsim.Megabyte, true)
	r.job(t, 1, 9, []int{3, 7, 10, 11, 14}, netsim.Megabyte, true)
	r.job(t, 4, 15, []int{0, 12, 5, 2}, netsim.Megabyte, true) // core0 again (4 mod 2 = 0, 4 / 2 mod 2 = 0)
	r.run(t)
	var flushes, passed uint64
	for _, a := range r.all {
		if a.Switch() != r.fab.Edge[0] && a.Switch() != r.fab.Edge[4] && a.Switch() != r.fab.Edge[7] {
			flushes += a.Stats.Flushes
			passed += a.Stats.Level1Passed
		}
	}
	var retx uint64
	for _, j := range r.jobs {
		retx += j.TotalWorkerStats().Retransmits
	}
	if r.net.Stats().Dropped == 0 || retx == 0 || flushes == 0 {
		t.Fatalf("%d drops, %d resends, %d flushes below the roots (%d passed on): the lossy case lost nothing",
			r.net.Stats().Dropped, retx, flushes, passed)
	}
}

// TestEveryTierRefusals: every-tier runs on the fat-tree and the
// leaf-spine only; with a topology file it is refused in one line.
func TestEveryTierRefusals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ft4.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	c := topologies.DefaultFatTree()
	c.K, c.HostsPerEdge = 4, 2
	if err := topologies.WriteFatTree(f, c); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	e := lookup(t, "ina-leafspine")
	ps, err := e.Resolve(with(tinyLeafSpine, "protocol=atp", "agg_placement=every-tier", "topology_file="+path))
	if err == nil {
		err = e.Validate(ps)
	}
	if err == nil || !strings.Contains(err.Error(), "agg_placement=every-tier needs a fabric whose tiers are known") {
		t.Fatalf("every-tier on a topology file: %v", err)
	}
	net := netsim.NewNetwork(netsim.New(1))
	fab, err := topologies.Star(net, 3, netsim.Gbps, netsim.Microsecond, switchmodel.QueueConfig{Buffer: netsim.MiB})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jobTree(fab, 0, fab.Hosts[0], fab.Hosts[1:]); err == nil || !strings.Contains(err.Error(), "a star's are not derived") {
		t.Fatalf("every-tier on a star: %v", err)
	}
}

// TestEveryTierExperiment: ina-leafspine with agg_placement=every-tier
// on a k = 4 fat-tree and on the leaf-spine, with background: every job
// finishes with its books balanced (runINA checks them), and the
// partitioned engine gives the same metrics at 1 and 2 threads.
func TestEveryTierExperiment(t *testing.T) {
	base := with(tinyLeafSpine, "protocol=atp", "agg_placement=every-tier", "workers=5", "jobs=3")
	for _, fabric := range [][]string{{"topology=fattree", "k=4"}, {"spines=2", "leaves=3"}} {
		m := runINA(t, "ina-leafspine", 2, with(base, fabric...)...)
		if m["jobs_done"] != 3 || m["switch_agg_frac"] < 0.5 || !(m["core_mb"] > 0) {
			t.Fatalf("%v: %v jobs done, switch_agg_frac %v, core_mb %v", fabric, m["jobs_done"], m["switch_agg_frac"], m["core_mb"])
		}
	}
	e := lookup(t, "ina-leafspine")
	ps, err := e.Resolve(with(base, "topology=fattree", "k=4", "engine=partitioned"))
	if err != nil {
		t.Fatal(err)
	}
	var got [2]map[string]float64
	for i, threads := range []int{1, 2} {
		res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 2, Check: true, Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		got[i] = res.Metrics
	}
	if got[0]["jobs_done"] != 3 {
		t.Fatalf("partitioned: %v jobs done", got[0]["jobs_done"])
	}
	exptest.SameMetrics(t, [2]string{"1 thread", "2 threads"}, got[0], got[1])
}
