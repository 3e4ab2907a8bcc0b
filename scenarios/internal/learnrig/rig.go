package learnrig

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"math/rand/v2"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/workloads/learn"
)

// Rig is the learning of one run: one Fleet per job, trained on the
// run's dataset under the schedule the recorders report.
type Rig struct {
	sim    *netsim.Sim
	ps     experiments.Params
	Fleets []*learn.Fleet
	start  []netsim.Time // when each job's training began (t_s = 0)
	// Weights is the partial-reduce weighting ("staleness" or "uniform").
	Weights string
	// out is the learning series when it is written as it is evaluated
	// (one job); with several jobs the rows are kept, the series
	// listing them job by job.
	out *experiments.SeriesWriter
}

// Job describes one job to train: its workers, the relative sizes of the
// pieces it synchronises separately (nil: one), and when it starts.
type Job struct {
	Workers int
	Pieces  []float64
	Start   netsim.Time
	// Record keeps the fleet's schedule (tests).
	Record bool
}

// New returns the learning of run r on sim for jobs, or nil when
// learn_model=none. Job k's streams are named "learn/..." for a single
// job and "learn/job<k>/..." for several, so jobs draw independently.
func New(r *experiments.Run, sim *netsim.Sim, jobs ...Job) (*Rig, error) {
	ps := r.Params
	if !Enabled(ps) {
		return nil, nil
	}
	workers := 0
	for _, j := range jobs {
		workers = max(workers, j.Workers)
	}
	if err := Validate(ps, workers); err != nil {
		return nil, err
	}
	split, err := Data(ps, sim)
	if err != nil {
		return nil, err
	}
	g := &Rig{sim: sim, ps: ps}
	if r.Series && len(jobs) == 1 {
		g.out = r.OpenSeries("learning", SeriesColumns...)
	}
	if ps.Has("pr_weights") {
		g.Weights = ps.String("pr_weights")
	}
	for k, j := range jobs {
		prefix := ""
		if len(jobs) > 1 {
			prefix = "job" + strconv.Itoa(k) + "/"
		}
		cfg := Config(ps, j.Workers)
		cfg.Pieces, cfg.Record = j.Pieces, j.Record
		streams := func(name string) *rand.Rand {
			return sim.Rand(strings.Replace(name, "learn/", "learn/"+prefix, 1))
		}
		f, err := learn.NewFleet(cfg, split, streams)
		if err != nil {
			return nil, err
		}
		switch {
		case g.out != nil:
			row := make([]float64, 0, len(SeriesColumns))
			f.SetSeries(func(x []float64) {
				row = append(append(row[:0], float64(k)), x...)
				g.out.Row(row...)
			})
		case !r.Series:
			f.SetSeries(func([]float64) {}) // nobody reads the rows
		}
		f.Start(0)
		g.Fleets = append(g.Fleets, f)
		g.start = append(g.start, j.Start)
	}
	return g, nil
}

// Config is the learn.Config of ps for workers workers.
func Config(ps experiments.Params, workers int) learn.Config {
	c := learn.Config{
		Model: ps.String("learn_model"), Hidden: ps.Int("hidden"), LR: ps.Float("lr"), Batch: ps.Int("batch"),
		Workers: workers, Partition: ps.String("partition"), DirichletAlpha: ps.Float("dirichlet_alpha"),
		TargetAcc: ps.Float("target_acc"), EvalEvery: ps.Float("eval_every"), EvalSamples: ps.Int("eval_samples"),
		Opt: learn.Optimizer{Momentum: ps.Float("momentum"), Nesterov: ps.Bool("nesterov"), WeightDecay: ps.Float("weight_decay")},
		Schedule: learn.Schedule{Kind: ps.String("lr_schedule"), WarmupIters: ps.Int("lr_warmup_iters"),
			StepIters: ps.Int("lr_step_iters"), StepFactor: ps.Float("lr_step_factor"),
			CosineIters: ps.Int("lr_cosine_iters"), MinLR: ps.Float("lr_min")},
		EvalModel: ps.String("eval_model"),
	}
	if ps.Has("swa_factor") {
		c.SWAFactor = ps.Float("swa_factor")
	}
	if ps.Has("asp_lr") && ps.String("asp_lr") == "same" {
		c.ASPLR = c.LR
	}
	return c
}

// Data builds the run's dataset and train/test split: MNIST's own split,
// or a seeded split of the synthetic mixture or the file.
func Data(ps experiments.Params, sim *netsim.Sim) (*learn.Split, error) {
	switch ps.String("dataset") {
	case "mnist":
		return learn.MNISTSplit()
	case "synthetic":
		d, err := learn.Synthetic(synthetic(ps), sim.Rand("learn/data"))
		if err != nil {
			return nil, err
		}
		return learn.RandomSplit(d, ps.Float("test_frac"), sim.Rand("learn/split"))
	case "file":
		d, err := learn.ReadCSVFile(strings.TrimSpace(ps.Str("data_file")))
		if err != nil {
			return nil, err
		}
		return learn.RandomSplit(d, ps.Float("test_frac"), sim.Rand("learn/split"))
	}
	return nil, fmt.Errorf("unknown dataset %q", ps.String("dataset"))
}

// now is the simulated time of job k's clock in seconds since its
// training began.
func (g *Rig) now(k int) float64 { return (g.sim.Now() - g.start[k]).Seconds() }

// Fill writes the learning metrics into res at the end of the run and,
// when the run collects series, appends the learning series.
func (g *Rig) Fill(r *experiments.Run, res *experiments.Result) {
	m := res.Metrics
	if g == nil {
		return
	}
	var ttaMax float64
	mean := map[string]float64{}
	n := float64(len(g.Fleets))
	var rows [][]float64
	for k, f := range g.Fleets {
		out := f.Finish(g.now(k))
		for name, v := range map[string]float64{"final_acc": out.FinalAcc, "final_loss": out.FinalLoss, "tta_s": out.TTA,
			"iters_to_target": out.ItersToTarget, "consensus_dist": out.ConsensusDist, "swa_acc": out.SWAAcc,
			"avg_acc": out.AvgAcc, "worker_acc_mean": out.WorkerAccMean, "worker_acc_min": out.WorkerAccMin,
			"tta_avg_s": out.TTAAvg, "tta_worker_mean_s": out.TTAWorkerMean, "tta_worker_min_s": out.TTAWorkerMin} {
			mean[name] += v / n
		}
		ttaMax = math.Max(ttaMax, out.TTA)
		if math.IsNaN(out.TTA) {
			ttaMax = math.NaN()
		}
		for _, row := range out.Series {
			rows = append(rows, append([]float64{float64(k)}, row...))
		}
	}
	for name, v := range mean {
		m[name] = v
	}
	m["tta_max_s"] = ttaMax
	switch {
	case g.out != nil:
		res.Series = append(res.Series, g.out.Series())
	case r.Series:
		res.Series = append(res.Series, experiments.Series{Name: "learning", Columns: SeriesColumns, Rows: rows})
	}
}
