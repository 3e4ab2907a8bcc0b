package hostsync

import (
	"errors"
	"fmt"

	"syncsim/experiments"
	"syncsim/workloads/crew"
)

// CrewSingle is the crew-single experiment: one partial reduce of a random
// P on an idle WAN, by each scheme of the CREW paper's Fig. 4.
func CrewSingle() *experiments.Experiment {
	params := append([]experiments.Param{
		experiments.EnumParam("scheme", "crew", crew.SchemeNames,
			"crew (n blocks over all n workers), opr (p blocks over P, its own LP), a2a (all-to-all), ps (one global server), "+
				"ring (greedy ring over P), blink (BLINK-like packing of up to 5 spanning trees, LP rates), toa (TopoAdopt-like annealed tree)"),
		experiments.EnumParam("scatter", "blocking", []string{"blocking", "non-blocking"},
			"CREW's scatter; all of P is ready at once here, so non-blocking only gains when control_ms > 0").OnlyWhen("scheme", "crew"),
		experiments.IntParam("tree_segments", 16, 1, 100000, "blink/toa: pipelined segments per tree").OnlyWhen("scheme", "blink", "toa"),
		experiments.IntParam("anneal_steps", 2000, 0, 10000000, "toa: simulated-annealing moves").OnlyWhen("scheme", "toa"),
	}, crewNetParams()...)
	return &experiments.Experiment{
		Name:    "crew-single",
		Summary: "one cross-cloud partial reduce: CREW vs OPR, A2A, PS, Ring, BLINK-like, TopoAdopt-like (CREW Fig. 4)",
		Doc:     doc("crew-single"),
		Params:  params,
		Metrics: []experiments.Metric{
			{Name: "pr_time_s", Unit: "s", Help: "completion time of the partial reduce (Fig. 4)"},
			{Name: "lp_objective_s", Unit: "s", Help: "crew/opr: objective of the planned weights (Eq. 1a + 1b for eq2 and e-d); NaN for other schemes"},
			{Name: "t_split_s", Unit: "s", Help: "crew/opr: T_scatter + T_multicast (Eq. 1a + 1b) of the split in whole chunks that ran (the LP's x rounded by Alg. 1); NaN for other schemes"},
			{Name: "traffic_mb", Unit: "MB", Help: "bytes handed to the network"},
			{Name: "transfers", Unit: "", Help: "bulk transfers handed to the network"},
		},
		Common:   []string{"scheme", "n", "p", "network", "model_mb", "split", "scheduling", "chunks", "bw_noise", "fidelity"},
		Headline: []string{"pr_time_s", "t_split_s", "lp_objective_s", "traffic_mb"},
		Run:      runCrewSingle,
		Validate: validateCrewNet,
		Cost:     crewSingleCost(),
	}
}

func runCrewSingle(r *experiments.Run) (*experiments.Result, error) {
	s, err := buildCrewNet("crew-single", r)
	if err != nil {
		return nil, err
	}
	ps := r.Params
	scheme, err := crew.ParseScheme(ps.String("scheme"))
	if err != nil {
		return nil, err
	}
	scatter, err := crew.ParseScatter(ps.String("scatter"))
	if err != nil {
		return nil, err
	}
	opt := s.opt
	opt.Scheme, opt.Scatter = scheme, scatter
	opt.TreeSegments, opt.AnnealSteps = ps.Int("tree_segments"), ps.Int("anneal_steps")
	if scatter == crew.NonBlocking && scheme == crew.CREW && !s.net.CanCancel() { // as validateCrewNet: other schemes block
		return nil, fmt.Errorf("crew-single: non-blocking scatter needs fidelity=flow")
	}
	n := ps.Int("n")
	P := s.sim.Rand("crew/single/P").Perm(n)[:opt.P]
	res, err := crew.RunSingle(s.net, opt, s.est, P, s.sim.Rand("crew/single/scheme"))
	if errors.Is(err, crew.ErrIncomplete) {
		return nil, fmt.Errorf("crew-single: %w (model_mb x model_scale = %g MB, bw_scale = %g)", err, ps.Float("model_mb")*ps.Float("model_scale"), ps.Float("bw_scale"))
	}
	if err != nil {
		return nil, fmt.Errorf("crew-single: %w", err)
	}
	if r.Check {
		if err := s.net.Check(); err != nil {
			return nil, fmt.Errorf("crew-single: engine books: %w", err)
		}
	}
	out := r.Exp.NewResult()
	out.Events = s.sim.Events()
	out.Metrics["pr_time_s"] = res.Time.Seconds()
	out.Metrics["lp_objective_s"] = res.LPObjective
	out.Metrics["t_split_s"] = res.SplitT
	out.Metrics["traffic_mb"] = float64(res.Bytes) / 1e6
	out.Metrics["transfers"] = float64(res.Transfers)
	return out, nil
}
