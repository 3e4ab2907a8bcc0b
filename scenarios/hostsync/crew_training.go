package hostsync

import (
	"fmt"
	"slices"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/learnrig"
	"syncsim/scenarios/internal/workers"
	"syncsim/workloads/crew"
	"syncsim/workloads/learn"
	"syncsim/workloads/training"
)

// CrewTraining is the crew-training experiment: n workers train for
// duration_s and synchronise p at a time (CREW paper, Figs. 5-11).
func CrewTraining() *experiments.Experiment {
	params := append([]experiments.Param{
		experiments.EnumParam("scheme", "crew", crew.TrainingSchemeNames,
			"crew (n blocks over all n workers), opr (the original partial reduce: p blocks over P), a2a (all-to-all direct delivery)"),
		experiments.EnumParam("scatter", "blocking", []string{"blocking", "non-blocking"},
			"crew: blocking (scatter once P's plan is known, the paper's default) or non-blocking (scatter by the default plan for "+
				"P = N at once, adjusted by Alg. 2 when P is known; misplaced chunks discarded); opr and a2a always block; flow fidelity only").OnlyWhen("scheme", "crew"),
		experiments.EnumParam("trace", "t1", []string{"t1", "t2", "lstm", "cnn", "transformer", "file"},
			"compute time per local iteration: t1 (LSTM on UCF101) or t2 (Transformer on WMT16) approximations rescaled to [0.05, 0.2] s "+
				"as in the paper, the unscaled lstm, cnn or transformer approximations, or the measured times in trace_file"),
		experiments.TextParam("trace_file", "", "trace=file: one compute time in seconds per line ('#' comments)").OnlyWhen("trace", "file"),
		experiments.FloatParam("compute_scale", 1, 0.001, 1e4, "multiplies every compute time (Fig. 9: 2-6)"),
		experiments.FloatParam("duration_s", 50, 0.001, 1e6, "simulated training time (paper 50 s; 100 s for Figs. 9-10)"),
		experiments.IntParam("faulty_links", 0, 0, 10000000, "connections that fail, drawn at random (Fig. 8)"),
		experiments.FloatParam("fault_from_s", 0, 0, 1e6, "faulty links fail at times uniform in [fault_from_s, fault_to_s)").OnlyWhenPositive("faulty_links"),
		experiments.FloatParam("fault_to_s", -1, 0, 1e6, "end of the failure window").Auto("-1", "duration_s").OnlyWhenPositive("faulty_links"),
		experiments.FloatParam("outage_s", 0, 0, 1e6, "how long each faulty link stays down").Means("0", "to the end of the run").OnlyWhenPositive("faulty_links"),
		experiments.TextParam("faults", "", "an outage schedule, items separated by ';': link:A-B@START[+DUR], node:A@START[+DUR], ctrl@START[+DUR] (workers from 0, seconds)"),
		experiments.FloatParam("detect_ms", 1000, 0, 1e7, "time for a connection's or worker's outage to be noticed (heartbeat timeout)"),
		experiments.FloatParam("budget_s", 0, 0, 1e6, "abandon a partial reduce not done this long after P formed").Means("0", "no budget"),
		experiments.EnumParam("eq3", "candidate", []string{"candidate", "literal"},
			"Eq. 3's load term: the candidate's own load (our reading) or l_i of each initiator, as printed"),
		experiments.EnumParam("eq3_scope", "task", []string{"task", "running"},
			"Eq. 3's load l: the blocks a worker reduces in the partial reduce being repaired, or in every partial reduce under way"),
		experiments.EnumParam("failover", "move", []string{"move", "split"},
			"move: the replacement takes over every chunk of the block some member lacks (the paper's 'aggregator role' for x_j); "+
				"split: the old aggregator keeps the chunks it reduced whose result already crossed the broken connection"),
		experiments.EnumParam("bw_model", "static", crew.BWModelNames,
			"how the WAN's b_ij change: static (drawn once, Sec. V), redraw (from the network's law every bw_period_s), "+
				"walk (a reflected random walk of each b_ij's quantile that keeps the law, steps up to bw_walk_step every bw_period_s) "+
				"or trace (the per-pair series in bw_trace_file); flow fidelity"),
		experiments.FloatParam("bw_period_s", 5, 0.001, 1e6, "bw_model=redraw or walk: time between changes, s").OnlyWhen("bw_model", "redraw", "walk"),
		experiments.FloatParam("bw_walk_step", 0.1, 0.001, 1, "bw_model=walk: largest step of a b_ij's quantile per period").OnlyWhen("bw_model", "walk"),
		experiments.TextParam("bw_trace_file", "", "bw_model=trace: CSV rows time_s,src,dst,mbps (workers from 0; a header line allowed): "+
			"from time_s on b_src,dst is mbps; pairs and times not listed keep the network's value").OnlyWhen("bw_model", "trace"),
		experiments.FloatParam("bw_probe_s", 1, -1, 1e6, "every worker measures its outgoing connections every bw_probe_s and reports them "+
			"to the controller (control_ms later), which plans every partial reduce with the latest reports "+
			"(0: it knows every change at once; -1: it never learns a change)").
			Means("0", "the controller knows every change at once").Means("-1", "the controller never learns a change").OnlyWhen("bw_model", "redraw", "walk", "trace"),
	}, crewNetParams()...)
	params = append(params, crewOverlapParams()...)
	params = append(params, workers.Params()...)
	return learnrig.With(&experiments.Experiment{
		Name:    "crew-training",
		Summary: "cross-cloud training with CREW vs OPR vs A2A partial reduce: rounds per worker (CREW Figs. 5-11)",
		Doc:     doc("crew-training"),
		Params:  params,
		Metrics: []experiments.Metric{
			{Name: "rounds_per_worker", Unit: "rounds", Help: "partial reduces a worker completed in duration_s, mean over workers (Figs. 5-10)"},
			{Name: "rounds_min", Unit: "rounds", Help: "fewest rounds of any worker"},
			{Name: "rounds_max", Unit: "rounds", Help: "most rounds of any worker"},
			{Name: "pr_time_s", Unit: "s", Help: "mean time from a P's formation until all of it holds the result (Fig. 11)"},
			{Name: "prs", Unit: "", Help: "partial reduces completed"},
			{Name: "lp_objective_s", Unit: "s", Help: "crew/opr: mean objective of the planned weights (NaN for a2a)"},
			{Name: "t_split_s", Unit: "s", Help: "crew/opr: mean T_scatter + T_multicast (Eq. 1a + 1b) of the splits in whole chunks the partial reduces ran, at the planning estimate (NaN for a2a)"},
			{Name: "abandoned_rounds", Unit: "rounds", Help: "partial reduces abandoned (no replacement aggregator, lost initiator, controller unreachable, budget)"},
			{Name: "discarded_chunks", Unit: "chunks", Help: "chunks that reached an aggregator they no longer belonged to (non-blocking adjustments, failover)"},
			{Name: "failovers", Unit: "", Help: "blocks moved to a replacement aggregator by Eq. 3"},
			{Name: "standalone_iterations", Unit: "", Help: "local iterations done while the controller was unreachable"},
			{Name: "queue_wait_s", Unit: "s", Help: "mean time from a worker's readiness to the formation of its P (what non-blocking scatter can overlap)"},
			{Name: "group_pairs_frac", Unit: "", Help: "fraction of the n(n-1)/2 worker pairs that were in one P together among the partial reduces formed in the run's second half: " +
				"1 when the groups mix, (p-1)/(n-1) when the same n/p sets keep forming (NaN: none formed)"},
			{Name: "distinct_groups", Unit: "", Help: "distinct sets P formed in the run's second half (2 at n = 8, p = 4 when the same two sets keep forming)"},
		},
		Common:   []string{"scheme", "n", "p", "network", "trace", "duration_s", "split", "scheduling", "bw_model", "faulty_links"},
		Headline: []string{"rounds_per_worker", "rounds_min", "rounds_max", "pr_time_s", "prs", "failovers", "final_acc", "tta_s"},
		Run:      runCrewTraining,
		Validate: validateCrewTraining,
		Cost:     crewTrainingCost(),
	}, learnrig.Options{Target: 0.95, Weights: "uniform",
		// CREW Sec. V, Fig. 3: "all workers take similar rounds of
		// synchronization to reach the targeted accuracy of 0.95" and
		// "all workers require consistent rounds of partial reduce
		// operations to reach the same target model accuracy": each
		// worker's own model is scored, and the target counts as reached
		// when every worker's is at it (our reading of "all workers").
		EvalModel: learn.EvalWorkerMin,
		Workers:   func(ps experiments.Params) int { return ps.Int("n") }})
}

func runCrewTraining(r *experiments.Run) (*experiments.Result, error) {
	s, err := buildCrewNet("crew-training", r)
	if err != nil {
		return nil, err
	}
	ps := r.Params
	n := ps.Int("n")
	opt := s.opt
	if opt.Scheme, err = crew.ParseScheme(ps.String("scheme")); err != nil {
		return nil, err
	}
	if opt.Scatter, err = crew.ParseScatter(ps.String("scatter")); err != nil {
		return nil, err
	}
	if opt.Eq3, err = crew.ParseEq3(ps.String("eq3")); err != nil {
		return nil, err
	}
	if opt.Eq3Scope, err = crew.ParseEq3Scope(ps.String("eq3_scope")); err != nil {
		return nil, err
	}
	if opt.Failover, err = crew.ParseFailover(ps.String("failover")); err != nil {
		return nil, err
	}
	vary, err := crewVariation(ps, s.law)
	if err != nil {
		return nil, fmt.Errorf("crew-training: %w", err)
	}
	opt.Detect = netsim.FromMillis(ps.Float("detect_ms"))
	opt.Budget = netsim.FromSeconds(ps.Float("budget_s"))
	dist, err := crewTrace(ps)
	if err != nil {
		return nil, fmt.Errorf("crew-training: %w", err)
	}
	dur := netsim.FromSeconds(ps.Float("duration_s"))
	faults, err := crew.ParseFaults(ps.Str("faults"), n)
	if err != nil {
		return nil, fmt.Errorf("crew-training: faults: %w", err)
	}
	if k := ps.Int("faulty_links"); k > 0 {
		to := dur
		if v := ps.Float("fault_to_s"); v >= 0 {
			to = netsim.FromSeconds(v)
		} else {
			r.Resolved("fault_to_s", dur.Seconds())
		}
		rnd, err := crew.RandomLinkFaults(s.sim.Rand("crew/faults"), n, k, netsim.FromSeconds(ps.Float("fault_from_s")), to,
			netsim.FromSeconds(ps.Float("outage_s")))
		if err != nil {
			return nil, fmt.Errorf("crew-training: %w", err)
		}
		faults = append(faults, rnd...)
	}
	mult, err := workers.Multipliers(ps, s.sim, n)
	if err != nil {
		return nil, fmt.Errorf("crew-training: %w", err)
	}
	buckets, err := layerBuckets(ps, float64(s.model))
	if err != nil {
		return nil, fmt.Errorf("crew-training: %w", err)
	}
	learning, err := learnrig.New(r, s.sim, learnrig.Job{Workers: n})
	if err != nil {
		return nil, fmt.Errorf("crew-training: %w", err)
	}
	var groups *experiments.SeriesWriter
	var onFormed func(crew.Formation)
	if r.Series {
		groups, onFormed = crewGroupsSeries(r)
	}
	cl, err := crew.NewCluster(s.net, crew.Config{
		Options: opt, Estimate: s.est, Compute: dist, ComputeScale: ps.Float("compute_scale"), ComputeMult: mult,
		Duration: dur, Faults: faults, Vary: vary, Probe: crewProbe(ps.Float("bw_probe_s")), Recorder: learning.Crew(),
		Buckets: buckets, OnFormed: onFormed,
	})
	if err != nil {
		return nil, fmt.Errorf("crew-training: %w", err)
	}
	r.Watch(experiments.Watch{Until: dur.Seconds()})
	m := cl.Run()
	if r.Check {
		if err := cl.Check(); err != nil {
			return nil, fmt.Errorf("crew-training: books do not balance: %w", err)
		}
	}
	out := r.Exp.NewResult()
	out.Events = m.Events
	out.Metrics["rounds_per_worker"] = m.RoundsPerWorker
	out.Metrics["rounds_min"] = float64(slices.Min(m.Rounds))
	out.Metrics["rounds_max"] = float64(slices.Max(m.Rounds))
	if m.PRs > 0 {
		out.Metrics["pr_time_s"] = m.PRTime.Seconds()
	}
	out.Metrics["prs"] = float64(m.PRs)
	out.Metrics["lp_objective_s"] = m.LPObjective
	out.Metrics["t_split_s"] = m.SplitT
	out.Metrics["abandoned_rounds"] = float64(m.Abandoned)
	out.Metrics["discarded_chunks"] = float64(m.Discarded)
	out.Metrics["failovers"] = float64(m.Failovers)
	out.Metrics["standalone_iterations"] = float64(m.Standalone)
	out.Metrics["queue_wait_s"] = m.QueueWait.Seconds()
	out.Metrics["group_pairs_frac"] = m.GroupPairsFrac
	out.Metrics["distinct_groups"] = float64(m.DistinctGroups)
	if groups != nil {
		out.Series = append(out.Series, groups.Series())
	}
	learning.Fill(r, out)
	return out, nil
}

// crewGroupsSeries opens the groups series: one row per member of every
// partial reduce as the controller forms it (pid, the formation's time,
// the worker, when its local iteration ended and the partial reduces it
// had completed), members in the order they joined the controller's
// queue. It is written as the run goes (to the file with a series
// directory).
func crewGroupsSeries(r *experiments.Run) (*experiments.SeriesWriter, func(crew.Formation)) {
	w := r.OpenSeries("groups", "time_s", "pid", "worker", "ready_s", "rounds")
	return w, func(f crew.Formation) {
		for i, m := range f.Members {
			w.Row(f.At.Seconds(), float64(f.Pid), float64(m), f.Ready[i].Seconds(), float64(f.Rounds[i]))
		}
	}
}

// validateCrewTraining checks a point beyond the declarations: the
// network's files, the trace file and that the compute times fit the
// simulated clock (workers.CheckCompute), the outage schedule and its count,
// what packet fidelity cannot do, and what overlap=layer does not run with.
func validateCrewTraining(ps experiments.Params) error {
	if err := validateCrewNet(ps); err != nil {
		return err
	}
	trace, err := crewTrace(ps)
	if err != nil {
		return err
	}
	what := "trace=" + ps.String("trace")
	if ps.String("trace") == "file" {
		what = "trace_file " + ps.Str("trace_file")
	}
	if sc := ps.Float("compute_scale"); sc != 1 {
		trace, what = training.Scaled{D: trace, M: sc}, fmt.Sprintf("%s scaled by compute_scale = %g", what, sc)
	}
	if err := workers.CheckCompute(ps, trace, what); err != nil {
		return err
	}
	n := ps.Int("n")
	if _, err := crew.ParseFaults(ps.Str("faults"), n); err != nil {
		return fmt.Errorf("faults: %w", err)
	}
	if k := ps.Int("faulty_links"); k > n*(n-1)/2 {
		return fmt.Errorf("faulty_links = %d: %d workers have %d connections", k, n, n*(n-1)/2)
	}
	if ps.Int("faulty_links") > 0 {
		from, to, what := ps.Float("fault_from_s"), ps.Float("fault_to_s"), "fault_to_s"
		if to < 0 {
			to, what = ps.Float("duration_s"), "duration_s (fault_to_s = -1)"
		}
		if to < from {
			return fmt.Errorf("fault_from_s = %g is after %s = %g: the failure window is empty", from, what, to)
		}
	}
	if ps.String("fidelity") == "packet" && (ps.Int("faulty_links") > 0 || ps.Str("faults") != "") {
		return fmt.Errorf("outages need fidelity=flow")
	}
	if err := workers.Validate(ps, n); err != nil {
		return err
	}
	if err := validateCrewOverlap(ps); err != nil {
		return err
	}
	if m := ps.String("bw_model"); m != "static" {
		if ps.String("fidelity") == "packet" {
			return fmt.Errorf("bw_model=%s needs fidelity=flow", m)
		}
		if m != "trace" && ps.String("network") == "file" {
			return fmt.Errorf("bw_model=%s draws from the network's law, which network=file has none of: use bw_model=trace", m)
		}
		if m == "trace" {
			if _, err := crewTraceRows(ps); err != nil {
				return err
			}
		}
	}
	return nil
}

// crewVariation is the run's bandwidth variation.
func crewVariation(ps experiments.Params, law crew.Law) (crew.Variation, error) {
	model, err := crew.ParseBWModel(ps.String("bw_model"))
	if err != nil {
		return crew.Variation{}, err
	}
	v := crew.Variation{Model: model, Period: netsim.FromSeconds(ps.Float("bw_period_s")), Step: ps.Float("bw_walk_step"), Law: law}
	if model == crew.BWTrace {
		if v.Trace, err = crewTraceRows(ps); err != nil {
			return crew.Variation{}, err
		}
	}
	return v, nil
}

// crewTraceRows reads bw_trace_file (Mbit/s), scaled by bw_scale.
func crewTraceRows(ps experiments.Params) ([]training.SeriesRow, error) {
	name := ps.Str("bw_trace_file")
	if name == "" {
		return nil, fmt.Errorf("bw_model=trace needs bw_trace_file (CSV rows time_s,src,dst,mbps)")
	}
	rows, err := training.ReadSeriesFile(name, 2, ps.Int("n"))
	if err != nil {
		return nil, fmt.Errorf("bw_trace_file: %w", err)
	}
	if err := training.CheckRates(name, rows, ps.Float("bw_scale"), 1e6, "Mbps"); err != nil {
		return nil, fmt.Errorf("bw_trace_file: %w", err)
	}
	for i := range rows {
		if rows[i].Key[0] == rows[i].Key[1] {
			return nil, fmt.Errorf("bw_trace_file: row at %g s sets worker %d to itself", rows[i].At, rows[i].Key[0])
		}
		rows[i].Value *= ps.Float("bw_scale")
	}
	return rows, nil
}

// crewProbe maps bw_probe_s to Config.Probe: -1 never, 0 at once.
func crewProbe(s float64) netsim.Time {
	if s < 0 {
		return -1
	}
	return netsim.FromSeconds(s)
}
