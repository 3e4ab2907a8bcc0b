package hostsync

import (
	"fmt"
	"math"
	"syncsim/topologies"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/netsim/fluid"
	"syncsim/scenarios/internal/learnrig"
	"syncsim/scenarios/internal/setup"
	"syncsim/scenarios/internal/workers"
	"syncsim/transport"
	"syncsim/workloads/background"
	"syncsim/workloads/learn"
	"syncsim/workloads/syncctl"
	"syncsim/workloads/training"
)

// sr-cluster: one point of the selective-reduce evaluation (Sec. IV,
// Figs. 5-14). The figures are sweeps of this experiment:
//
//	Figs. 5/6   --vary n=40,80,120,160,200, trace cnn / transformer, each scheme
//	Fig. 7      wasted_wait_s of selective-reduce over n
//	Fig. 8      --vary p_frac=0.1,0.2,0.3,0.4,0.5
//	Fig. 9      --vary bag_eta=0.1,...,0.8
//	Fig. 10     --vary theta=1,...,20
//	Fig. 11     --vary start=warm,cold (over n)
//	Fig. 12     --vary bw_error=0,0.1,...  (warm and cold)
//	Fig. 13     --vary lambda=0.05,0.1,0.2
//	Fig. 14     --vary alpha_ms=0,1,5,50
//
// SRCluster is the sr-cluster experiment.
func SRCluster() *experiments.Experiment {
	return learnrig.With(&experiments.Experiment{
		Name:    "sr-cluster",
		Summary: "selective reduce vs partial reduce vs all reduce on a heterogeneous cluster (Sec. IV)",
		Doc:     doc("sr-cluster"),
		Params: append([]experiments.Param{
			experiments.EnumParam("scheme", "selective-reduce", srSchemeNames(), "synchronisation scheme"),
			experiments.IntParam("n", 40, 2, 100000, "number of workers (paper: 40..200 step 40)"),
			experiments.FloatParam("p_frac", 0.3, 0, 1, "p/n: minimum group size p = max(1, round(p_frac*n)) (paper default 0.3)"),
			experiments.FloatParam("bag_eta", 0.3, 0, 0.99, "BAG bandwidth relaxation eta (paper default 0.3)").OnlyWhen("scheme", "selective-reduce").Was("eta"),
			experiments.FloatParam("theta", 1, 0, 1e6, "BPAWR waiting threshold factor theta (paper default 1)").OnlyWhen("scheme", "selective-reduce"),
			experiments.FloatParam("dt_ms", 10, 0.001, 1e7, "waiting slot Delta t in ms (not stated in the paper; 10 ms matches its theta-insensitivity (Fig. 10), 100 ms does not: docs/selective-reduce-fidelity.md)").OnlyWhen("scheme", "selective-reduce"),
			experiments.IntParam("c", 0, 0, 1000000000, "full all reduce every c rounds; 0 never (not stated in the paper)").Means("0", "never").OnlyWhen("scheme", "selective-reduce"),
			experiments.EnumParam("trace", "cnn", []string{"cnn", "transformer", "constant", "uniform", "lognormal", "file"},
				"per-iteration compute-time distribution: the CNN or Transformer trace approximation, constant compute_ms, "+
					"uniform in compute_ms x [1 - compute_spread, 1 + compute_spread], lognormal with median compute_ms and "+
					"log-sd compute_spread, or the measured times in trace_file"),
			experiments.FloatParam("compute_ms", 300, 0.001, 1e7, "centre of the constant, uniform and lognormal compute times, ms").OnlyWhen("trace", "constant", "uniform", "lognormal"),
			experiments.FloatParam("compute_spread", 0.2, 0, 5, "relative half-width (uniform, below 1) or log-sd (lognormal) of the compute times").OnlyWhen("trace", "uniform", "lognormal"),
			experiments.TextParam("trace_file", "", "trace=file: a file of measured compute times, one number of seconds per line ('#' comments)").OnlyWhen("trace", "file"),
			experiments.EnumParam("start", "warm", []string{"warm", "cold"}, "warm: distribution known in advance; cold: learnt online").OnlyWhen("scheme", "selective-reduce"),
			experiments.EnumParam("predict", "eq4", []string{"eq4", "conditional"}, "ready-within-dt probability: Eq. 4's F(t+dt) or the exact conditional").OnlyWhen("scheme", "selective-reduce"),
			experiments.FloatParam("bw_error", 0, 0, 0.99, "bandwidth estimation error e: estimate b(1 + e x), x ~ U[-1, 1]").OnlyWhen("scheme", "selective-reduce"),
			experiments.FloatParam("lambda", 0.05, 0.001, 1, "bandwidth skew: u ~ U[lambda, 1] (paper default 0.05)"),
			experiments.FloatParam("alpha_ms", 1, 0, 1e5, "one-way latency between workers in ms (paper default 1)"),
			experiments.FloatParam("model_mb", 500, 0.001, 1e7, "model size v in MB (paper 500)"),
			experiments.FloatParam("duration_s", 100, 0.001, 1e6, "simulated training time in seconds (paper 100)"),
			experiments.EnumParam("fidelity", "analytic", []string{"analytic", "flow", "packet"}, "analytic (Eq. 2), flow (fluid ring all-reduce on the topology) or packet (DCTCP ring all-reduce on the topology; small models only)"),
			setup.DCTCPCWRParam().OnlyWhen("fidelity", "packet"),
			experiments.EnumParam("sync_cost", "ring", []string{"ring", "approx"}, "analytic cost: ring (Eq. 2 first line) or approx (2|g|alpha + 2v/b)").OnlyWhen("fidelity", "analytic"),
			experiments.EnumParam("bw_model", "static", training.BWModelNames,
				"how b_i changes: static (drawn once), redraw (every bw_period_s from the same law) or walk (a bounded random walk "+
					"that keeps the law, steps of up to bw_walk_step of its range every bw_period_s) or trace (the measured series in bw_trace_file); "+
					"the controller reads the values in force every pass (Alg. 3 line 9)"),
			experiments.TextParam("bw_trace_file", "", "bw_model=trace: CSV rows time_s,worker,gbps (workers from 0; a header line allowed): "+
				"from time_s on the worker's bandwidth is gbps; workers and times not listed keep the law's draw").OnlyWhen("bw_model", "trace"),
			experiments.FloatParam("bw_period_s", 1, 0.001, 1e6, "bw_model=redraw or walk: time between bandwidth changes, s (1 s with walk steps of 0.2 gives the paper's headline gains: docs/selective-reduce-fidelity.md)").OnlyWhen("bw_model", "redraw", "walk"),
			experiments.FloatParam("bw_walk_step", 0.2, 0.001, 1, "bw_model=walk: largest step per period as a fraction of the law's range").OnlyWhen("bw_model", "walk"),
			experiments.EnumParam("bag_seed", "p+1", syncctl.BAGSeedNames,
				"workers BAG admits to a group unconditionally: p+1 (Alg. 1 line 6 as printed) or p (the text of Sec. III-C)").OnlyWhen("scheme", "selective-reduce"),
			experiments.EnumParam("k_round", "floor", syncctl.KRoundingNames,
				"virtual workers of Alg. 2 line 8 from the expected count: floor or round").OnlyWhen("scheme", "selective-reduce"),
			experiments.EnumParam("topology", "star", []string{"star", "racks", "leaf-spine", "fattree"},
				"fabric at flow and packet fidelity: star (the paper's non-blocking switch), racks (ToRs behind one core), leaf-spine or "+
					"fattree (a k-ary fat-tree whose k^2/2 edge switches are the racks); "+
					"worker cables run at b_i, rack uplinks at ceil(n/racks) x 20 Gbps / oversub; topology_file replaces it").OnlyWhen("fidelity", "flow", "packet").Alias("leafspine", "leaf-spine"),
			experiments.IntParam("racks", 4, 1, 4096, "topology=racks or leaf-spine: racks (leaves); workers fill them in order, ceil(n/racks) each").OnlyWhen("topology", "racks", "leaf-spine"),
			experiments.IntParam("spines", 2, 1, 1024, "topology=leaf-spine: spine switches (ECMP by flow hash)").OnlyWhen("topology", "leaf-spine"),
			experiments.IntParam("k", 4, 2, topologies.MaxFatTreeK, "topology=fattree: ports per switch, even; its k^2/2 edge switches are the racks, "+
				"workers fill them in order, ceil(n/(k^2/2)) each, and every cable has alpha/6 of propagation (6 cables between pods)").OnlyWhen("topology", "fattree"),
			experiments.FloatParam("oversub", 1, 0.01, 1000, "topology=racks, leaf-spine or fattree: oversubscription of each rack's uplink(s) against its workers' 20 Gbps NICs (1: non-blocking; a topology_file's cables have its rates)").OnlyWhen("topology", "racks", "leaf-spine", "fattree"),
			experiments.TextParam("topology_file", "", "build the fabric from this file in the HPCC ns-3 topology.txt format (node_num switch_num link_num; "+
				"the switch ids; src dst rate delay error_rate per link) instead of topology: its edge switches are the racks, filled in order, "+
				"ceil(n/edge switches) workers each (their other hosts are background hosts); rates and delays from the file, "+
				"worker cables at b_i, alpha half the file's round-trip bound instead of alpha_ms (empty: none)").OnlyWhen("fidelity", "flow", "packet"),
			experiments.EnumParam("ring_order", "rack", []string{"rack", "listed"},
				"topology=racks, leaf-spine, fattree or a topology_file: ring order of a group, rack by rack (topology-aware, each uplink crossed once each way) or as the controller lists it").OnlyWhen("topology", "racks", "leaf-spine", "fattree").OrWhenSet("topology_file"),
			experiments.FloatParam("bg_load", 0, 0, 1, "topology=racks, leaf-spine, fattree or a topology_file: background load over the background hosts' 20 Gbps NICs (a file's: their cables' rate) (0: none)").Means("0", "no background traffic").OnlyWhen("topology", "racks", "leaf-spine", "fattree").OrWhenSet("topology_file"),
			experiments.EnumParam("bg_workload", "hadoop", background.Names(), "background flow-size distribution").OnlyWhenPositive("bg_load"),
			experiments.IntParam("bg_hosts_per_rack", 2, 1, 1024, "background hosts per rack (bg_load > 0), sending to each other across the core").OnlyWhenPositive("bg_load").Was("bg_hosts"),
			experiments.TextParam("flows_file", "", setup.FlowsFileHelp+"; replaces bg_load's flows, between any hosts of the fabric, workers' included").OnlyWhen("fidelity", "flow", "packet"),
			experiments.TextParam("fct_out", "", setup.FCTOutHelp).OnlyWhen("fidelity", "packet"),
		}, append(srOverlapParams(), workers.Params()...)...),
		Metrics: []experiments.Metric{
			{Name: "avg_sync_time_s", Unit: "s", Help: "average time of a completed synchronisation (with overlap=layer from its launch at the members' first bucket to its last bucket)"},
			{Name: "avg_sync_scale", Unit: "workers", Help: "average number of workers per completed synchronisation"},
			{Name: "total_sync", Unit: "", Help: "number of completed synchronisations"},
			{Name: "total_iteration", Unit: "", Help: "computations completed by all workers"},
			{Name: "wasted_wait_s", Unit: "s", Help: "wasted wait time per worker (BPAWR waits that no newly ready worker joined)"},
			{Name: "idle_s", Unit: "s", Help: "mean time per worker spent in the ready queue"},
			{Name: "p_workers", Unit: "workers", Help: "the resolved minimum group size p"},
			{Name: "bpawr_waits", Unit: "", Help: "selective reduce: BPAWR wait-and-replace decisions (0 for other schemes)"},
			{Name: "eq2_ratio", Unit: "", Help: "mean over completed syncs (with overlap=layer, bucket reduces) of measured time / Eq. 2 time at the group's bandwidths at launch (1 at analytic fidelity with static bandwidths)"},
			{Name: "bg_flows_done", Unit: "flows", Help: "background flows completed (NaN without background)"},
			{Name: "bg_fct_slowdown_p99", Unit: "", Help: "99th-percentile slowdown of completed background flows (NaN without background)"},
		},
		Common:   []string{"scheme", "n", "p_frac", "trace", "compute_ms", "model_mb", "duration_s", "fidelity", "topology", "stragglers"},
		Headline: []string{"avg_sync_time_s", "avg_sync_scale", "total_sync", "total_iteration", "wasted_wait_s", "idle_s", "final_acc", "tta_s"},
		Run:      runSRCluster,
		Validate: validateSRCluster,
		Cost:     srClusterCost(),
	}, learnrig.Options{Target: 0.9, Weights: "staleness",
		// The paper measures no accuracy (Sec. IV-A: "system-related
		// metrics"); it only says, citing P-Reduce and CREW, that the
		// training workers take fewer rounds to reach a target accuracy
		// at larger sync scales. Silent on the model, so ours is the
		// reading a reviewer would take: no worker holds the average of
		// the others under partial reduce, so the score is the workers'
		// own models, their mean (the expected accuracy of the model a
		// worker holds), the worst reported beside it (docs/tta.md).
		EvalModel: learn.EvalWorkerMean,
		Workers:   func(ps experiments.Params) int { return ps.Int("n") }})
}

// srClusterSetup is one sr-cluster point built on a Sim, ready to run.
type srClusterSetup struct {
	sim     *netsim.Sim
	cluster *syncctl.Cluster
	fluid   *fluid.Engine    // flow fidelity only
	stack   *transport.Stack // packet fidelity only
	net     *srNet           // flow and packet fidelity
	bg      *srBackground    // background traffic, if any
	ratio   *srEq2Ratio
	p       int
	learn   *learnrig.Rig             // nil with learn_model=none
	syncs   *experiments.SeriesWriter // the syncs series, with r.Series
}

func buildSRCluster(r *experiments.Run) (*srClusterSetup, error) {
	ps := r.Params
	n := ps.Int("n")
	p := srP(ps)
	sim := setup.NewSim(r)
	gbps, sched, err := srBandwidths(sim, ps, n)
	if err != nil {
		return nil, fmt.Errorf("sr-cluster: %w", err)
	}
	bw := make([]float64, n)
	for i, g := range gbps {
		bw[i] = g * 1e9
	}
	dist, err := srComputeDist(ps)
	if err != nil {
		return nil, fmt.Errorf("sr-cluster: %w", err)
	}
	mult, err := workers.Multipliers(ps, sim, n)
	if err != nil {
		return nil, fmt.Errorf("sr-cluster: %w", err)
	}
	cost, err := syncctl.ParseCostModel(ps.String("sync_cost"))
	if err != nil {
		return nil, err
	}
	alpha := ps.Float("alpha_ms") / 1e3
	if setup.UsesFile(ps) {
		if alpha, err = srFileAlpha(ps.Str("topology_file")); err != nil {
			return nil, fmt.Errorf("sr-cluster: %w", err)
		}
	}
	cfg := syncctl.Config{
		BW:         bw,
		ModelBytes: ps.Float("model_mb") * 1e6,
		Alpha:      alpha,
		Compute:    training.PerWorker(dist, mult),
		Duration:   netsim.FromSeconds(ps.Float("duration_s")),
		Cost:       cost,
	}
	cfg.Schedule = sched
	if cfg.Buckets, err = layerBuckets(ps, cfg.ModelBytes); err != nil {
		return nil, fmt.Errorf("sr-cluster: %w", err)
	}
	setup := &srClusterSetup{sim: sim, p: p}
	if r.Series {
		// Each synchronisation is written as it completes, not kept (to
		// the file with a series directory).
		w := r.OpenSeries("syncs", "start_s", "end_s", "scale", "duration_s")
		cfg.OnSync = func(x syncctl.SyncRecord) {
			w.Row(x.Start.Seconds(), x.End.Seconds(), float64(x.Scale), (x.End - x.Start).Seconds())
		}
		setup.syncs = w
	}
	if err := srCheckTopology(ps); err != nil {
		return nil, fmt.Errorf("sr-cluster: %w", err)
	}
	fid := ps.String("fidelity")
	var bulk netsim.Bulk
	switch fid {
	case "analytic":
	case "flow":
		exec, eng, net, err := srFlowExecutor(sim, ps, gbps, &cfg)
		if err != nil {
			return nil, err
		}
		cfg.Exec, setup.fluid, setup.net, bulk = exec, eng, net, eng
	case "packet":
		exec, stack, net, err := srPacketExecutor(sim, ps, gbps, &cfg)
		if err != nil {
			return nil, err
		}
		cfg.Exec, setup.stack, setup.net, bulk = exec, stack, net, stack
	}
	if ps.Float("bg_load") > 0 || ps.Str("flows_file") != "" {
		if setup.bg, err = newSRBackground(r, sim, bulk, setup.net, cfg.Duration); err != nil {
			return nil, fmt.Errorf("sr-cluster: %w", err)
		}
	}
	ratio := &srEq2Ratio{cost: cost, alpha: cfg.Alpha}
	if cfg.Exec == nil {
		cfg.Exec = syncctl.Analytic{}
	}
	ratio.inner = cfg.Exec
	cfg.Exec = ratio
	setup.ratio = ratio
	ctl, err := srController(ps.String("scheme"), srSchemeArgs{ps: ps, p: p, modelBytes: cfg.ModelBytes, sim: sim})
	if err != nil {
		return nil, fmt.Errorf("sr-cluster: %w", err)
	}
	if setup.learn, err = learnrig.New(r, sim, learnrig.Job{Workers: n}); err != nil {
		return nil, fmt.Errorf("sr-cluster: %w", err)
	}
	cfg.Recorder = setup.learn.SyncCtl()
	setup.cluster, err = syncctl.NewCluster(sim, cfg, ctl)
	if err != nil {
		return nil, fmt.Errorf("sr-cluster: %w", err)
	}
	return setup, nil
}

func runSRCluster(r *experiments.Run) (*experiments.Result, error) {
	s, err := buildSRCluster(r)
	if err != nil {
		return nil, err
	}
	if s.bg != nil {
		s.bg.gen.Start()
	}
	r.Watch(experiments.Watch{Until: r.Params.Float("duration_s")})
	m := s.cluster.Run()
	res := r.Exp.NewResult()
	res.Events = m.Events
	srSyncMetrics(res, m)
	res.Metrics["total_iteration"] = float64(m.TotalIteration)
	res.Metrics["wasted_wait_s"] = m.WastedWait
	res.Metrics["idle_s"] = m.Idle
	res.Metrics["p_workers"] = float64(s.p)
	res.Metrics["bpawr_waits"] = 0
	if sr, ok := s.cluster.Controller().(*syncctl.SelectiveReduce); ok {
		res.Metrics["bpawr_waits"] = float64(sr.Waits())
	}
	res.Metrics["eq2_ratio"] = s.ratio.mean()
	res.Metrics["bg_flows_done"], res.Metrics["bg_fct_slowdown_p99"] = math.NaN(), math.NaN()
	if s.bg != nil {
		if err := s.bg.metrics(res.Metrics); err != nil {
			return nil, fmt.Errorf("sr-cluster: %w", err)
		}
	}
	if setup.FCTFile(r) != "" {
		if s.bg == nil || s.stack == nil {
			return nil, fmt.Errorf("sr-cluster: fct_out=%q writes the background flows, and there are none (bg_load=0, no flows_file)", r.Params.Str("fct_out"))
		}
		if err := setup.WriteFCT(r, s.stack.Network(), s.stack.Config(), s.bg.hosts, s.bg.gen); err != nil {
			return nil, err
		}
	}
	if r.Check {
		if err := s.cluster.Check(); err != nil {
			return nil, fmt.Errorf("sr-cluster: books do not balance: %w", err)
		}
		if s.fluid != nil {
			if err := s.fluid.Check(); err != nil {
				return nil, fmt.Errorf("sr-cluster: fluid engine: %w", err)
			}
		}
		if s.stack != nil {
			if err := s.stack.Network().CheckConservation(); err != nil {
				return nil, fmt.Errorf("sr-cluster: packet books: %w", err)
			}
			r.Book(setup.PacketBook(s.stack.Network()))
		}
		r.Book(experiments.Book{Name: "synchronisations", Rule: "worker rounds = sum of group sizes; computations = rounds (+1 per waiting worker)",
			Terms: []experiments.Term{{Name: "syncs", Value: float64(m.TotalSync)}, {Name: "group_sizes", Value: m.AvgSyncScale * float64(m.TotalSync)},
				{Name: "computations", Value: float64(m.TotalIteration)}}})
	}
	if r.Series {
		res.Series = append(res.Series, s.syncs.Series())
	}
	s.learn.Fill(r, res)
	return res, nil
}

// srComputeDist is the compute-time distribution of the run's trace
// parameters.
func srComputeDist(ps experiments.Params) (training.Dist, error) {
	c, spread := ps.Float("compute_ms")/1e3, ps.Float("compute_spread")
	switch tr := ps.String("trace"); tr {
	case "uniform":
		if spread >= 1 {
			return nil, fmt.Errorf("trace=uniform needs compute_spread below 1, got %g", spread)
		}
		if spread == 0 {
			return training.ParseDist("constant", c)
		}
		return training.ParseDist(tr, c*(1-spread), c*(1+spread))
	case "constant":
		return training.ParseDist(tr, c)
	case "lognormal":
		return training.ParseDist(tr, c, spread)
	case "file":
		return traceFile(ps)
	default:
		return training.ParseDist(tr)
	}
}

// srCheckTopology checks the fabric's parameters together: a topology
// other than the star needs flow or packet fidelity, background traffic a
// shared link, and racks a worker each; a topology file must read and
// hold the workers (srFilePer).
func srCheckTopology(ps experiments.Params) error {
	fid, topo := ps.String("fidelity"), ps.String("topology")
	if setup.UsesFile(ps) {
		path := ps.Str("topology_file")
		if fid == "analytic" {
			return fmt.Errorf("topology_file needs fidelity=flow or packet (analytic fidelity is Eq. 2 on the paper's non-blocking switch)")
		}
		tf, err := topologies.ReadTopologyFile(path)
		if err != nil {
			return err
		}
		sizes := tf.GroupSizes()
		per, err := srFilePer(path, sizes, ps.Int("n"))
		if err != nil {
			return err
		}
		if ps.Float("bg_load") > 0 && ps.Str("flows_file") == "" {
			bg := 0
			for _, h := range sizes {
				bg += max(0, h-per)
			}
			if bg < 2 {
				return fmt.Errorf("bg_load needs at least 2 background hosts, and topology_file %s has %d (the hosts of an edge switch past its first %d)", path, bg, per)
			}
		}
		return nil
	}
	if fid == "analytic" && topo != "star" {
		return fmt.Errorf("topology=%s needs fidelity=flow or packet (analytic fidelity is Eq. 2 on the paper's non-blocking switch)", topo)
	}
	if ps.Float("bg_load") > 0 && topo == "star" {
		return fmt.Errorf("bg_load needs topology=racks or leafspine (a star has no shared link for background traffic)")
	}
	if topo == "fattree" {
		return topologies.CheckFatTreeK(ps.Int("k"))
	}
	if racks, n := ps.Int("racks"), ps.Int("n"); topo != "star" && racks > n {
		return fmt.Errorf("racks=%d exceeds n=%d workers: every rack needs a worker", racks, n)
	}
	return nil
}

// srComputeWhat names the parameters of the compute distribution, for
// messages.
func srComputeWhat(ps experiments.Params) string {
	switch tr := ps.String("trace"); tr {
	case "constant", "uniform", "lognormal":
		return fmt.Sprintf("compute_ms = %g", ps.Float("compute_ms"))
	case "file":
		return "trace_file " + ps.Str("trace_file")
	default:
		return "trace=" + tr
	}
}

// srP is the minimum group size p = max(1, round(p_frac x n)), at most n.
func srP(ps experiments.Params) int {
	n := ps.Int("n")
	p := int(math.Round(ps.Float("p_frac") * float64(n)))
	return max(1, min(p, n))
}

// validateSRCluster checks what the parameter ranges cannot: the fabric's
// parameters together (srCheckTopology), the compute
// distribution can be built (a readable trace file, a uniform spread
// below 1) and the workers' compute times fit the simulated clock
// (workers.CheckCompute), the bandwidth epochs of bw_model=redraw or walk
// fit in memory (training.CheckEpochs), overlap=layer's table can be read
// and bucketed (layerBuckets), and selective reduce can launch a group (p below n, unless
// every round is a full all reduce, c = 1: syncctl.SelectiveConfig.CheckWorkers).
func validateSRCluster(ps experiments.Params) error {
	if err := setup.ValidateFlowsFile(ps); err != nil {
		return err
	}
	if err := srCheckTopology(ps); err != nil {
		return err
	}
	dist, err := srComputeDist(ps)
	if err != nil {
		return err
	}
	if err := workers.CheckCompute(ps, dist, srComputeWhat(ps)); err != nil {
		return err
	}
	if ps.String("scheme") == "selective-reduce" {
		n, p := ps.Int("n"), srP(ps)
		cfg := syncctl.SelectiveConfig{P: p, C: ps.Int("c")}
		if err := cfg.CheckWorkers(n); err != nil {
			// round(p_frac x n) <= n-1 exactly when p_frac x n < n - 1/2.
			return fmt.Errorf("p_frac = %g gives p = %d of n = %d workers, and selective reduce launches a group only "+
				"when more than p workers are ready (Alg. 3, line 8), so it would never launch one; want p_frac below %g (or c = 1)",
				ps.Float("p_frac"), p, n, (float64(n)-0.5)/float64(n))
		}
	}
	if err := workers.Validate(ps, ps.Int("n")); err != nil {
		return err
	}
	if _, err := layerBuckets(ps, ps.Float("model_mb")*1e6); err != nil {
		return err
	}
	model, err := training.ParseBWModel(ps.String("bw_model"))
	if err != nil {
		return err
	}
	if err := training.CheckEpochs(model, ps.Int("n"), ps.Float("bw_period_s"), ps.Float("duration_s")); err != nil {
		return err
	}
	if ps.String("bw_model") == "trace" {
		if _, err := srTraceRows(ps, ps.Int("n")); err != nil {
			return err
		}
	}
	return nil
}
