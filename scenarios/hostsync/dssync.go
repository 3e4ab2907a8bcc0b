package hostsync

import (
	"fmt"
	"math"
	"strings"

	"syncsim/experiments"
	"syncsim/internal/timeline"
	"syncsim/netsim"
	"syncsim/scenarios/internal/layerfile"
	"syncsim/scenarios/internal/learnrig"
	"syncsim/scenarios/internal/setup"
	"syncsim/scenarios/internal/workers"
	"syncsim/workloads/collective"
	"syncsim/workloads/dssync"
	"syncsim/workloads/layers"
	"syncsim/workloads/learn"
	"syncsim/workloads/training"
)

// DSSync is the dssync experiment.
func DSSync() *experiments.Experiment {
	return learnrig.With(&experiments.Experiment{
		Name:    "dssync",
		Summary: "DS-Sync vs ring/tree/hierarchical all-reduce, ASP and gossip on racks with contention (Tables III-V)",
		Doc:     doc("dssync"),
		Params: append(append(append([]experiments.Param{
			experiments.EnumParam("scheme", "dssync", dssync.Schemes, "synchronisation scheme"),
			experiments.EnumParam("scenario", "both", dssync.ScenarioNames,
				"network bottleneck (Sec. V-A5): static, inter-rack (Table IV), end-host, both (Table III)"),
			experiments.TextParam("layout", "paper", "workers per rack: paper (5+3 for end-host and both, 4+4 otherwise), "+
				"even (workers spread over racks), or rack sizes such as 4+4 or 3+3+3+3"),
			experiments.IntParam("racks", 2, 1, 1024, "racks for layout=even"),
			experiments.IntParam("workers", 8, 1, 65536, "workers for layout=even"),
			experiments.IntParam("delayed_worker", -1, -1, 65535, "worker sharing its NIC in end-host and both (-1: last of rack 0, the paper's worker 4)"),
			experiments.EnumParam("model", "wrn-28-10", dssync.ModelNames, "model (Sec. V-A3): wrn-28-10 (CIFAR), wrn-50-2 (ImageNet), bert (BERT-large, SQuAD), bert-base, custom"),
			experiments.FloatParam("model_mb", 100, 0.001, 1e7, "size of the custom model, MB"),
			experiments.TextParam("model_file", "", "CSV layer table (header layer,params|bytes,forward_ms,backward_ms; one row per layer, input side first) "+
				"replacing model: its bytes, and its compute unless compute_ms is set"),
			layerfile.File("the model's own"),
			layerfile.GHz(),
			experiments.EnumParam("overlap", "layer", layers.OverlapNames,
				"layer: each bucket synchronised as soon as backprop produces it, each layer's next forward waiting for its bucket (Sec. V-A1); none: the whole model after the whole compute"),
			experiments.FloatParam("bucket_mib", 0, 0, 1e7, "gradient bucket cap, MiB as DDP's bucket_cap_mb (25 in DDP, the first bucket 1); 0: a bucket per layer, the paper's per-layer hooks"),
			experiments.IntParam("layers", -1, -1, 10000, "-1: the model's layer table in buckets; N >= 1: the earlier model, N equal pieces with the compute spread evenly (0: 25 MB equal pieces)").Auto("-1", "the layer table"),
			experiments.FloatParam("compute_ms", -1, 0.001, 1e7, "forward + backward per iteration, ms (-1: the model's estimate, or compute_trace's mean)").Auto("-1", "the model's estimate"),
			experiments.FloatParam("backward_frac", -1, 0, 1, "share of the compute in the backward pass (-1: the layer table's, 2/3 in the built-in tables; 0.667 for equal pieces)").Auto("-1", "the layer table's"),
			experiments.FloatParam("compute_spread", 0.05, 0, 0.99, "each iteration's compute uniform in [1-s, 1+s] x nominal, per worker and for the competing job "+
				"(0.05 is ours: the paper states no compute variation; 0: constant)"),
			experiments.TextParam("compute_trace", "", "file of measured per-iteration compute times, seconds, one per line ('#' comments): "+
				"each worker's iterations draw from it instead of compute_ms and compute_spread"),
			experiments.EnumParam("topology", "racks", []string{"racks", "fattree"}, "fabric: racks (DS-Sync's testbed: a ToR per rack of the layout, each with spare hosts, "+
				"behind one spine) or fattree (a k-ary fat-tree whose edge switches are the racks, in pod-major order); topology_file replaces it"),
		}, setup.FatTreeParams()...), []experiments.Param{
			experiments.TextParam("topology_file", "", "build the fabric from this file in the HPCC ns-3 topology.txt format (node_num switch_num link_num; "+
				"the switch ids; src dst rate delay error_rate per link) instead of topology: its edge switches, by id, are the racks; "+
				"rates and delays from the file (one host rate), not link_gbps, oversubscription and delay_us (empty: none)"),
			experiments.FloatParam("link_gbps", 20, 0.001, 1e5, "every host link, Gbps (paper 20)"),
			experiments.FloatParam("oversubscription", 1, 0.01, 1000, "host link rate / rack uplink rate (paper 1: every link 20 Gbps; "+
				"on a fat-tree host link rate / each switch-to-switch cable's rate)"),
			experiments.FloatParam("delay_us", 1, 0, 1e6, "propagation delay of every cable, us"),
			experiments.FloatParam("alpha_us", 10, 0, 1e6, "per-message start latency (software overhead), us"),
			experiments.EnumParam("background", "job", []string{"job", "flows"}, "competing task: a two-worker job training bg_model, or bg_flows long flows each way"),
			experiments.EnumParam("bg_model", "bert", dssync.ModelNames[:len(dssync.ModelNames)-1], "model the background job trains (paper: BERT)"),
			experiments.IntParam("bg_flows", 1, 1, 1000, "background=flows: long-lived transfers in each direction"),
			experiments.FloatParam("bg_compute_ms", 0, 0, 1e7, "background=job: its compute per iteration, ms (0: bg_model's; longer competes less often)"),
			experiments.IntParam("iterations", 300, 1, 10000000, "training iterations of the job"),
			experiments.IntParam("warmup_iters", -1, -1, 10000000, "iterations left out of the statistics (-1: min(adjust_every, iterations/2))"),
			experiments.EnumParam("fidelity", "flow", []string{"flow", "packet"}, "flow (max-min fluid) or packet (DCTCP; short runs)"),
			experiments.IntParam("adjust_every", 100, 1, 10000000, "DS-Sync: iterations between detections (paper 100)"),
			experiments.EnumParam("detect", "measure", []string{"measure", "given", "off"}, "DS-Sync: contention from measured throughput, known up front, or never adjusted"),
			experiments.FloatParam("detect_threshold", dssync.DefaultThreshold, 0.01, 1, "DS-Sync: throughput below this fraction of the best pair's is contended"),
			experiments.EnumParam("group_allreduce", "ring", []string{"ring", "tree"}, "DS-Sync: all-reduce inside a group"),
			experiments.IntParam("tree_chunks", 32, 1, 100000, "pipeline chunks per piece of the tree and leader-mode hierarchical all-reduce"),
			experiments.EnumParam("hier_mode", "shard", collective.HierModeNames, "hierarchical all-reduce: shard (BlueConnect) or leader"),
			experiments.FloatParam("consensus_tol", 1e-3, 1e-12, 0.999, "worst-case distance to the average that counts as consensus"),
		}...), workers.Params()...),
		Metrics: []experiments.Metric{
			{Name: "comm_time_ms", Unit: "ms", Help: "communication time per iteration (first invocation to last completion), mean over workers (asp: the fastest worker)"},
			{Name: "comm_time_max_ms", Unit: "ms", Help: "the slowest worker's mean communication time per iteration"},
			{Name: "iter_time_ms", Unit: "ms", Help: "time per iteration, mean over workers (asp: the worker with the shortest communication)"},
			{Name: "iter_time_min_ms", Unit: "ms", Help: "the mean iteration time of the worker that iterates fastest"},
			{Name: "inter_rack_gb", Unit: "GB", Help: "the job's bytes between racks per iteration"},
			{Name: "bg_gbps", Unit: "Gbit/s", Help: "the competing task's throughput (both directions) while the job ran"},
			{Name: "rho", Unit: "", Help: "second largest eigenvalue modulus of the period product of W_k (0: exact average; NaN for asp)"},
			{Name: "consensus_iters", Unit: "iterations", Help: "iterations until the worst-case distance to the average is within consensus_tol (NaN for asp)"},
			{Name: "period", Unit: "iterations", Help: "DS-Sync: period B of the final pattern (NaN for the baselines)"},
			{Name: "adjustments", Unit: "", Help: "DS-Sync: pattern changes after detection (NaN for the baselines)"},
			{Name: "detected_racks", Unit: "racks", Help: "DS-Sync: racks with inter-rack contention in force at the end (NaN for the baselines)"},
			{Name: "detected_workers", Unit: "workers", Help: "DS-Sync: workers with end-host contention in force at the end (NaN for the baselines)"},
		},
		Common:   []string{"scheme", "scenario", "layout", "model", "fidelity", "iterations", "link_gbps", "oversubscription", "background", "stragglers"},
		Headline: []string{"comm_time_ms", "comm_time_max_ms", "iter_time_ms", "inter_rack_gb", "rho", "consensus_iters", "final_acc", "tta_s"},
		Run:      runDSSync,
		Validate: validateDSSync,
		Cost:     dssyncCost(),
	}, learnrig.Options{Target: 0.95, SWA: true, ASP: true,
		// DS-Sync tests the average of the workers' models: Pseudo Code 1
		// ends "Final_model = AverageAllreduce(model, world)", "all
		// trajectories as the final model to test" (Sec. III-A step 5
		// averages the SWA models likewise), and Theorem IV.2 bounds the
		// gradient at the average X_k 1_N / N. The paper does not say
		// which model its TTA evaluates during training; the average is
		// read from the final test. ASP's average is the server's model.
		EvalModel: learn.EvalAverage,
		Workers:   dssyncWorkers})
}

// dssyncWorkers is the number of workers of the point's layout (0 if the
// layout does not parse; validateDSSync says why).
func dssyncWorkers(ps experiments.Params) int {
	cfg, err := dssyncParams(ps, nil)
	if err != nil {
		return 0
	}
	if cfg.Layout == nil {
		return dssync.PaperLayout(cfg.Scenario).Workers()
	}
	return cfg.Layout.Workers()
}

// dssyncConfig maps the experiment's parameters to a dssync.Config
// (dssyncParams), telling r what compute_ms resolved to.
func dssyncConfig(r *experiments.Run) (dssync.Config, error) {
	cfg, err := dssyncParams(r.Params, r.Resolved)
	cfg.Check = r.Check
	return cfg, err
}

// dssyncParams maps parameters to a dssync.Config: it parses the layout,
// reads compute_trace and model_file or workload_file, and calls resolved (when not nil)
// with what an automatic compute_ms resolved to. Validation and the run
// share it, so --dry-run refuses what the run would.
func dssyncParams(ps experiments.Params, resolved func(name string, value float64)) (dssync.Config, error) {
	sc, err := dssync.ParseScenario(ps.String("scenario"))
	if err != nil {
		return dssync.Config{}, err
	}
	var layout dssync.Layout
	switch l := strings.TrimSpace(ps.Str("layout")); l {
	case "paper":
	case "even":
		racks, workers := ps.Int("racks"), ps.Int("workers")
		if workers < racks {
			return dssync.Config{}, fmt.Errorf("layout=even: %d workers cannot fill %d racks", workers, racks)
		}
		sizes := make([]int, racks)
		for i := range sizes {
			sizes[i] = workers / racks
			if i < workers%racks {
				sizes[i]++
			}
		}
		layout = dssync.LayoutOf(sizes...)
	default:
		layout, err = dssync.ParseLayout(l)
		if err != nil {
			return dssync.Config{}, err
		}
	}
	var trace training.Dist
	if name := strings.TrimSpace(ps.Str("compute_trace")); name != "" {
		e, err := training.ReadTraceFile(name)
		if err != nil {
			return dssync.Config{}, fmt.Errorf("compute_trace: %w", err)
		}
		trace = e
	}
	var compute netsim.Time // 0: the model's estimate
	if c := ps.Float("compute_ms"); c > 0 {
		compute = netsim.FromMillis(c)
	}
	if compute == 0 && trace != nil {
		compute = netsim.FromSeconds(trace.Mean())
	}
	model, err := dssync.LookupModel(ps.String("model"), ps.Float("model_mb"), compute)
	if err != nil {
		return dssync.Config{}, err
	}
	var table *layers.Model
	t, own, err := layerfile.Load(ps)
	if err != nil {
		return dssync.Config{}, err
	}
	if own {
		which := "model_file"
		if strings.TrimSpace(ps.Str("workload_file")) != "" {
			which = "workload_file"
		}
		table = &t
		model = dssync.Model{Name: "file", Params: float64(t.Bytes()) / 4, Compute: t.Compute()}
		if compute == 0 && t.Compute() == 0 {
			return dssync.Config{}, fmt.Errorf("%s %s: no compute in the table; set compute_ms", which, t.Name)
		}
		if ps.Int("layers") >= 0 {
			return dssync.Config{}, fmt.Errorf("%s cuts the model by its layers; it cannot be used with layers=%d", which, ps.Int("layers"))
		}
	}
	if model.Name == "custom" && compute == 0 {
		return dssync.Config{}, fmt.Errorf("model=custom needs compute_ms or compute_trace")
	}
	overlap, err := layers.ParseOverlap(ps.String("overlap"))
	if err != nil {
		return dssync.Config{}, err
	}
	if ps.Float("compute_ms") < 0 && resolved != nil {
		used := compute
		if used == 0 {
			used = model.Compute
		}
		resolved("compute_ms", used.Milliseconds())
	}
	bg, err := dssync.LookupModel(ps.String("bg_model"), 0, 0)
	if err != nil {
		return dssync.Config{}, err
	}
	hier, err := collective.ParseHierMode(ps.String("hier_mode"))
	if err != nil {
		return dssync.Config{}, err
	}
	iters, warm := ps.Int("iterations"), ps.Int("warmup_iters")
	if warm < 0 {
		warm = min(ps.Int("adjust_every"), iters/2)
	}
	cfg := dssync.Config{
		Scheme: ps.String("scheme"), Scenario: sc, Layout: layout, Delayed: ps.Int("delayed_worker"),
		Model: model, Layers: ps.Int("layers"), Table: table, Overlap: overlap,
		Bucket:       layers.Bucketing{CapMB: ps.Float("bucket_mib"), FirstCapMB: layers.DefaultFirstBucketMB},
		Compute:      compute,
		BackwardFrac: ps.Float("backward_frac"), Spread: ps.Float("compute_spread"), Trace: trace,
		LinkRate: netsim.Rate(math.Round(ps.Float("link_gbps") * float64(netsim.Gbps))), Oversub: ps.Float("oversubscription"),
		Delay: netsim.FromSeconds(ps.Float("delay_us") / 1e6), Alpha: netsim.FromSeconds(ps.Float("alpha_us") / 1e6),
		Background: ps.String("background"), BGModel: bg, BGFlows: ps.Int("bg_flows"),
		BGCompute:  netsim.FromMillis(ps.Float("bg_compute_ms")),
		Iterations: iters, Warmup: warm, Fidelity: ps.String("fidelity"),
		AdjustEvery: ps.Int("adjust_every"), Detect: ps.String("detect"), Threshold: ps.Float("detect_threshold"),
		GroupAlgo: ps.String("group_allreduce"), TreeChunks: ps.Int("tree_chunks"), HierMode: hier,
		ConsensusTol: ps.Float("consensus_tol"),
	}
	if err := dssyncFabric(ps, &cfg); err != nil {
		return dssync.Config{}, err
	}
	return cfg, nil
}

// validateDSSync checks a point as the run would before simulating: the
// layout, compute_trace and model_file (dssyncParams), what dssync.Run
// refuses (dssync.Check: the cut of the model into pieces, the warm-up,
// the placement of the delayed worker), the workers' heterogeneity for
// the layout's worker count, and that the compute fits the simulated
// clock (checkDSSyncClock).
func validateDSSync(ps experiments.Params) error {
	cfg, err := dssyncParams(ps, nil)
	if err != nil {
		return err
	}
	if cfg.Warmup >= cfg.Iterations {
		return fmt.Errorf("warmup_iters = %d leaves nothing of iterations = %d to measure", cfg.Warmup, cfg.Iterations)
	}
	if err := dssync.Check(cfg); err != nil {
		return err
	}
	layout := cfg.Layout
	if layout == nil {
		layout = dssync.PaperLayout(cfg.Scenario)
	}
	if err := workers.Validate(ps, layout.Workers()); err != nil {
		return err
	}
	if err := checkDSSyncFabric(ps, cfg, layout); err != nil {
		return err
	}
	return checkDSSyncClock(ps, cfg)
}

// checkDSSyncClock checks that the job's compute fits the simulated clock:
// every iteration's compute (compute_trace's longest time, or the nominal
// compute times 1 + compute_spread) on the slowest worker
// (workers.CheckCompute), and the iterations on that worker one after
// another, which the run takes at least (a dssync run has no duration: it
// ends when every worker has done its iterations).
func checkDSSyncClock(ps experiments.Params, cfg dssync.Config) error {
	nominal := cfg.Compute
	if nominal == 0 {
		nominal = cfg.Model.Compute
	}
	what := fmt.Sprintf("compute_ms = %g", nominal.Milliseconds())
	if ps.Float("compute_ms") < 0 {
		what = fmt.Sprintf("model=%s's compute of %g ms", cfg.Model.Name, nominal.Milliseconds())
	}
	var d training.Dist = training.Uniform{Lo: nominal.Seconds() * (1 - cfg.Spread), Hi: nominal.Seconds() * (1 + cfg.Spread)}
	if cfg.Trace != nil {
		d, what = cfg.Trace, "compute_trace "+strings.TrimSpace(ps.Str("compute_trace"))
	}
	if err := workers.CheckCompute(ps, d, what); err != nil {
		return err
	}
	mult, _, err := workers.Slowest(ps)
	if err != nil {
		return err
	}
	it := cfg.Iterations
	if err := netsim.CheckSeconds(float64(it) * d.Mean() * mult); err != nil {
		return fmt.Errorf("iterations = %d of %s on the slowest worker (multiplier %g): %w", it, what, mult, err)
	}
	return nil
}

func runDSSync(r *experiments.Run) (*experiments.Result, error) {
	cfg, err := dssyncConfig(r)
	if err != nil {
		return nil, fmt.Errorf("dssync: %w", err)
	}
	sim := setup.NewSim(r)
	layout := cfg.Layout
	if layout == nil {
		layout = dssync.PaperLayout(cfg.Scenario)
	}
	if cfg.Mult, err = workers.Multipliers(r.Params, sim, layout.Workers()); err != nil {
		return nil, fmt.Errorf("dssync: %w", err)
	}
	learning, err := dssyncLearning(r, sim, &cfg)
	if err != nil {
		return nil, fmt.Errorf("dssync: %w", err)
	}
	var comm *experiments.SeriesWriter
	if r.Series {
		// Written as each iteration closes, not kept (to the file with a
		// series directory).
		comm = r.OpenSeries("comm", "worker", "iteration", "start_ms", "end_ms", "comm_ms")
		cfg.OnComm = func(x dssync.CommRecord) {
			comm.Row(float64(x.Worker), float64(x.Iter), x.Start.Milliseconds(), x.End.Milliseconds(), (x.End - x.Start).Milliseconds())
		}
	}
	if r.Trace {
		cfg.Timeline = &timeline.Log{}
	}
	out, err := dssync.Run(sim, cfg)
	if err != nil {
		return nil, fmt.Errorf("dssync: %w", err)
	}
	res := r.Exp.NewResult()
	res.Trace = cfg.Timeline
	res.Events = out.Events
	m := res.Metrics
	m["comm_time_ms"], m["comm_time_max_ms"], m["iter_time_ms"] = out.CommMs, out.CommMaxMs, out.IterMs
	m["iter_time_min_ms"] = out.IterMinMs
	m["inter_rack_gb"], m["bg_gbps"] = out.InterRackGB, out.BGGbps
	m["rho"] = out.Rho
	if out.ConsensusIters >= 0 {
		m["consensus_iters"] = float64(out.ConsensusIters)
	}
	if cfg.Scheme == "dssync" {
		m["period"], m["adjustments"] = float64(out.Period), float64(out.Adjustments)
		m["detected_racks"], m["detected_workers"] = float64(len(out.Detected.Racks)), float64(len(out.Detected.Workers))
	}
	if comm != nil {
		res.Series = append(res.Series, comm.Series())
	}
	learning.Fill(r, res)
	return res, nil
}
