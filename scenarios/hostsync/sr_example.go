package hostsync

import (
	"fmt"
	"math"

	"syncsim/experiments"
	"syncsim/scenarios/internal/setup"
	"syncsim/workloads/syncctl"
)

// sr-example: the motivating example of the selective-reduce paper
// (Sec. II-D, Fig. 3).
// SRExample is the sr-example experiment.
func SRExample() *experiments.Experiment {
	return &experiments.Experiment{
		Name:    "sr-example",
		Summary: "selective-reduce motivating example (Fig. 3): five workers, one round, five schemes",
		Doc:     doc("sr-example"),
		Params: []experiments.Param{
			experiments.EnumParam("scheme", "bandwidth-aware", syncctl.Fig3Schemes, "synchronisation scheme"),
			experiments.IntParam("p", 2, 1, 5, "minimum group size (partial reduce pops p)"),
			experiments.FloatParam("horizon_s", 2, 0, 1000, "look-ahead of progress-/bandwidth-aware selection and dt of selective reduce, seconds"),
		},
		Metrics: []experiments.Metric{
			{Name: "avg_sync_time_s", Unit: "s", Help: "average completion time of a synchronisation (avg CT)"},
			{Name: "avg_sync_scale", Unit: "workers", Help: "average number of workers per synchronisation (avg p)"},
			{Name: "total_sync", Unit: "", Help: "number of completed synchronisations"},
			{Name: "idle_s", Unit: "s", Help: "mean time a worker spent ready but not synchronising"},
		},
		Common:   []string{"scheme", "p", "horizon_s"},
		Headline: []string{"avg_sync_time_s", "avg_sync_scale", "total_sync", "idle_s"},
		Run:      runSRExample,
		Validate: validateSRExample,
		Cost:     srExampleCost(),
	}
}

// validateSRExample checks that the scheme can be built on Fig. 3's five
// workers (selective reduce with p = 5 would never launch a group).
func validateSRExample(ps experiments.Params) error {
	_, _, err := syncctl.Fig3(ps.String("scheme"), ps.Int("p"), ps.Float("horizon_s"))
	return err
}

func runSRExample(r *experiments.Run) (*experiments.Result, error) {
	ps := r.Params
	cfg, ctl, err := syncctl.Fig3(ps.String("scheme"), ps.Int("p"), ps.Float("horizon_s"))
	if err != nil {
		return nil, fmt.Errorf("sr-example: %w", err)
	}
	sim := setup.NewSim(r)
	cl, err := syncctl.NewCluster(sim, cfg, ctl)
	if err != nil {
		return nil, fmt.Errorf("sr-example: %w", err)
	}
	m := cl.Run()
	res := r.Exp.NewResult()
	res.Events = m.Events
	srSyncMetrics(res, m)
	res.Metrics["idle_s"] = m.Idle
	return res, nil
}

// srSyncMetrics fills the synchronisation metrics shared by the
// selective-reduce experiments; averages are NaN when nothing completed.
func srSyncMetrics(res *experiments.Result, m syncctl.Metrics) {
	res.Metrics["total_sync"] = float64(m.TotalSync)
	if m.TotalSync > 0 {
		res.Metrics["avg_sync_time_s"] = m.AvgSyncTime
		res.Metrics["avg_sync_scale"] = m.AvgSyncScale
	} else {
		res.Metrics["avg_sync_time_s"] = math.NaN()
		res.Metrics["avg_sync_scale"] = math.NaN()
	}
}
