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
		Doc: "Five workers w1..w5 finish computing at 1, 2, 3, 3 and 13 s and synchronise a " +
			"5-unit model once; a group's all-reduce takes 2v/b (Eq. 2 with alpha << 1), b the " +
			"group's minimum bandwidth. Bandwidths (units/s) are w1=1, w2=5, w3=1, w4=5, w5=5: the " +
			"paper draws them without values, and these reproduce every number it states. " +
			"Expected (paper): allreduce avg CT 10 / scale 5; partial-reduce p=2: 10 / 2; " +
			"progress-aware: 10 / 4; bandwidth-aware: 6 / 2. progress-aware and bandwidth-aware know " +
			"when computing workers finish and wait while one finishes within horizon_s; " +
			"selective-reduce runs Alg. 3 (eta 0.3, theta 1, dt = horizon_s) for comparison.",
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
		Run: runSRExample,
	}
}

func runSRExample(r *experiments.Run) (*experiments.Result, error) {
	ps := r.Params
	cfg, ctl, err := syncctl.Fig3(ps.String("scheme"), ps.Int("p"), ps.Float("horizon_s"))
	if err != nil {
		return nil, err
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
