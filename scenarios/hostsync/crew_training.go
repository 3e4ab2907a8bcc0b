package hostsync

import (
	"fmt"
	"slices"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/learnrig"
	"syncsim/workloads/crew"
)

// CrewTraining is the crew-training experiment: n workers train for
// duration_s and synchronise p at a time (CREW paper, Figs. 5-11).
func CrewTraining() *experiments.Experiment {
	params := append([]experiments.Param{
		experiments.EnumParam("scheme", "crew", []string{"crew", "opr", "a2a"},
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
	}, crewNetParams()...)
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
			{Name: "abandoned_rounds", Unit: "rounds", Help: "partial reduces abandoned (no replacement aggregator, lost initiator, controller unreachable, budget)"},
			{Name: "discarded_chunks", Unit: "chunks", Help: "chunks that reached an aggregator they no longer belonged to (non-blocking adjustments, failover)"},
			{Name: "failovers", Unit: "", Help: "blocks moved to a replacement aggregator by Eq. 3"},
			{Name: "standalone_iterations", Unit: "", Help: "local iterations done while the controller was unreachable"},
			{Name: "queue_wait_s", Unit: "s", Help: "mean time from a worker's readiness to the formation of its P (what non-blocking scatter can overlap)"},
		},
		Run:      runCrewTraining,
		Validate: validateCrewTraining,
	}, learnrig.Options{Target: 0.95, Weights: "uniform"})
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
	learning, err := learnrig.New(r, s.sim, learnrig.Job{Workers: n})
	if err != nil {
		return nil, fmt.Errorf("crew-training: %w", err)
	}
	cl, err := crew.NewCluster(s.net, crew.Config{
		Options: opt, Estimate: s.est, Compute: dist, ComputeScale: ps.Float("compute_scale"),
		Duration: dur, Faults: faults, Recorder: learning.Crew(),
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
	out.Metrics["abandoned_rounds"] = float64(m.Abandoned)
	out.Metrics["discarded_chunks"] = float64(m.Discarded)
	out.Metrics["failovers"] = float64(m.Failovers)
	out.Metrics["standalone_iterations"] = float64(m.Standalone)
	out.Metrics["queue_wait_s"] = m.QueueWait.Seconds()
	learning.Fill(r, out)
	return out, nil
}

// validateCrewTraining checks a point beyond the declarations: the
// network's files, the trace file, the outage schedule and its count, and
// what packet fidelity cannot do.
func validateCrewTraining(ps experiments.Params) error {
	if err := validateCrewNet(ps); err != nil {
		return err
	}
	if _, err := crewTrace(ps); err != nil {
		return err
	}
	n := ps.Int("n")
	if _, err := crew.ParseFaults(ps.Str("faults"), n); err != nil {
		return fmt.Errorf("faults: %w", err)
	}
	if k := ps.Int("faulty_links"); k > n*(n-1)/2 {
		return fmt.Errorf("faulty_links = %d: %d workers have %d connections", k, n, n*(n-1)/2)
	}
	if ps.String("fidelity") == "packet" && (ps.Int("faulty_links") > 0 || ps.Str("faults") != "") {
		return fmt.Errorf("outages need fidelity=flow")
	}
	return nil
}
