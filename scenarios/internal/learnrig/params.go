// Package learnrig adds co-simulated training to a host-synchronisation
// or INA experiment: the learning parameters and metrics (With), the
// dataset and the learner of one run (New), adapters that turn the
// simulated schemes' schedules into the learner's operations
// (recorders.go), and the metrics and the learning series at the end
// (Fill). learn_model=none, the default, adds nothing to a run: its
// results stay as they were.
package learnrig

import (
	"fmt"
	"math"
	"strings"

	"syncsim/experiments"
	"syncsim/workloads/learn"
)

// Options are what an experiment's learning parameters differ in.
type Options struct {
	// Target is target_acc's default.
	Target float64
	// SWA declares swa_factor (DS-Sync's ensemble, Sec. III).
	SWA bool
	// ASP declares asp_lr (schemes with a parameter server).
	ASP bool
	// Weights declares pr_weights with this default ("staleness" or
	// "uniform"; "" leaves it out): the weights of a partial reduce.
	Weights string
	// EvalModel is eval_model's default (learn.EvalModelNames): the model
	// the experiment's paper scores, cited where the experiment sets it.
	EvalModel string
	// Workers is the number of workers of a job at a point (nil or 0:
	// unknown), so that validation can refuse a data set with fewer
	// training rows than workers before any run.
	Workers func(ps experiments.Params) int
}

// None is learn_model's value that turns learning off.
const None = "none"

// active is the relevance condition of the learning parameters: every
// model.
var active = learn.ModelNames

// hiddenModels are the models with hidden units.
var hiddenModels = []string{learn.ModelMLP, learn.ModelMLP3, learn.ModelCNN}

// Params are the learning parameters.
func Params(o Options) []experiments.Param {
	ps := []experiments.Param{
		experiments.EnumParam("learn_model", None, append([]string{None}, learn.ModelNames...),
			"co-simulated training under the run's synchronisation schedule: none (network only), softmax (multinomial logistic regression), mlp (two-layer ReLU network, hidden units), mlp3 (three layers, two hidden layers of hidden units) or cnn (LeNet-5-like: two 5x5 convolution and max-pool stages of 6 and 16 maps, a dense layer of hidden units; square one-channel images such as MNIST)"),
		experiments.IntParam("hidden", 128, 1, 100000, "hidden units of mlp and mlp3's hidden layers and of cnn's dense layer").OnlyWhen("learn_model", hiddenModels...),
		experiments.EnumParam("dataset", "mnist", []string{"mnist", "synthetic", "file"},
			"training data: mnist (the real MNIST, 60,000 train and 10,000 test images, from the GoMNIST module), synthetic (a seeded Gaussian mixture: synth_*), file (data_file)").OnlyWhen("learn_model", active...),
		experiments.TextParam("data_file", "", "dataset=file: a CSV of label,feature1,feature2,... (labels integers 0 to K-1, each with a row; '#' comments; an optional header line starting with label; enough rows for a test set and a training row per worker)").OnlyWhen("dataset", "file"),
		experiments.FloatParam("test_frac", 0.2, 0.001, 0.999, "dataset=synthetic or file: share of the rows held out as the test set (a seeded split)").OnlyWhen("dataset", "synthetic", "file"),
		experiments.IntParam("synth_classes", learn.DefaultSynthetic.Classes, 2, 1000, "dataset=synthetic: classes").OnlyWhen("dataset", "synthetic"),
		experiments.IntParam("synth_clusters", learn.DefaultSynthetic.Clusters, 1, 1000, "dataset=synthetic: Gaussian clusters per class, scattered at random (1: one per class, nearly linearly separable, learnt in a few iterations; "+
			"the default 4 with synth_sep 5 takes an MLP hundreds of iterations to 0.90, and softmax stops near 0.63)").OnlyWhen("dataset", "synthetic"),
		experiments.IntParam("synth_dim", learn.DefaultSynthetic.Dim, 1, 100000, "dataset=synthetic: features").OnlyWhen("dataset", "synthetic"),
		experiments.FloatParam("synth_sep", learn.DefaultSynthetic.Separation, 0, 1000, "dataset=synthetic: distance of each cluster centre from the origin in units of the noise's standard deviation").OnlyWhen("dataset", "synthetic"),
		experiments.IntParam("synth_samples", learn.DefaultSynthetic.Samples, 4, 10000000, "dataset=synthetic: rows (train and test)").OnlyWhen("dataset", "synthetic"),
		experiments.EnumParam("partition", learn.PartitionIID, learn.PartitionNames,
			"how the training set is divided among the workers: iid (random equal shards) or dirichlet (label skew, Dir(dirichlet_alpha) per class)").OnlyWhen("learn_model", active...),
		experiments.FloatParam("dirichlet_alpha", 0.5, 0.001, 1e6, "partition=dirichlet: concentration (small: each worker sees few classes)").OnlyWhen("partition", learn.PartitionDirichlet),
		experiments.FloatParam("lr", 0.1, 1e-9, 1e6, "SGD learning rate of every local step (BSP: of the averaged gradient)").OnlyWhen("learn_model", active...),
		experiments.FloatParam("momentum", 0, 0, 0.999999, "SGD momentum of every worker's optimiser (and the parameter server's), PyTorch's SGD without dampening; a worker's velocity stays its own when models are averaged").Means("0", "plain SGD").OnlyWhen("learn_model", active...),
		experiments.BoolParam("nesterov", false, "Nesterov momentum instead of heavy ball").OnlyWhenPositive("momentum"),
		experiments.FloatParam("weight_decay", 0, 0, 1e6, "L2 weight decay added to every gradient (weight_decay x the parameters)").Means("0", "none").OnlyWhen("learn_model", active...),
		experiments.EnumParam("lr_schedule", learn.ScheduleConstant, learn.ScheduleNames,
			"learning rate over a worker's steps: constant (lr), step (x lr_step_factor every lr_step_iters steps) or cosine (from lr after the warm-up to lr_min at step lr_cosine_iters)").OnlyWhen("learn_model", active...),
		experiments.IntParam("lr_warmup_iters", 0, 0, 100000000, "linear learning-rate warm-up: step k < lr_warmup_iters uses (k + 1) / lr_warmup_iters of the scheduled rate (Goyal et al. 2017)").Means("0", "no warm-up").OnlyWhen("learn_model", active...),
		experiments.IntParam("lr_step_iters", 1000, 1, 100000000, "lr_schedule=step: steps between decays").OnlyWhen("lr_schedule", learn.ScheduleStep),
		experiments.FloatParam("lr_step_factor", 0.1, 1e-9, 1, "lr_schedule=step: factor of each decay").OnlyWhen("lr_schedule", learn.ScheduleStep),
		experiments.IntParam("lr_cosine_iters", 1000, 1, 100000000, "lr_schedule=cosine: the step at which the rate reaches lr_min (and stays)").OnlyWhen("lr_schedule", learn.ScheduleCosine),
		experiments.FloatParam("lr_min", 0, 0, 1e6, "lr_schedule=cosine: the final learning rate (at most lr)").OnlyWhen("lr_schedule", learn.ScheduleCosine),
		experiments.IntParam("batch", 32, 1, 1000000, "mini-batch per worker per iteration").OnlyWhen("learn_model", active...),
		experiments.FloatParam("target_acc", o.Target, 0, 1, "test accuracy that counts as trained: tta_s and iters_to_target are taken at the first evaluation at or above it (0 < target_acc <= 1)").OnlyWhen("learn_model", active...),
		experiments.FloatParam("eval_every", 10, 0.001, 1e9, "evaluate the learnt model every this many iterations (mean completed rounds per worker)").OnlyWhen("learn_model", active...),
		experiments.EnumParam("eval_model", o.EvalModel, learn.EvalModelNames,
			"the model whose accuracy is the score (final_acc, tta_s, test_acc): average (of the workers' models; asp: the server's), worker0 (worker 0's own), worker-mean (the mean over the workers' own models), worker-min (the worst worker's own: every worker at the target); "+
				"every evaluation also reports avg_acc, worker_acc_mean and worker_acc_min, on the same rows").OnlyWhen("learn_model", active...),
		experiments.IntParam("eval_samples", 2000, 0, 100000000, "test rows each evaluation uses (0: the whole test set; the final evaluation always uses all)").Means("0", "the whole test set").OnlyWhen("learn_model", active...),
	}
	if o.SWA {
		ps = append(ps, experiments.FloatParam("swa_factor", 0.99, 0, 0.999999,
			"every worker's SWA model = f SWA + (1 - f) model after each iteration, averaged at the end into swa_acc (DS-Sync Sec. III-A step 5; 0: off)").Means("0", "no SWA ensemble").OnlyWhen("learn_model", active...))
	}
	if o.ASP {
		// DS-Sync Sec. V-A3: "For DS-sync and all baselines, all
		// hyper-parameters are the same as the original ML model papers":
		// the server steps with the workers' lr (docs/tta.md).
		ps = append(ps, experiments.EnumParam("asp_lr", "same", []string{"same", "scaled"},
			"scheme=asp: the server applies each pushed gradient with lr (same: every scheme's hyper-parameters the same, DS-Sync Sec. V-A3) or lr / workers (scaled: one round of pushes moves the model as far as one BSP step)").OnlyWhen("scheme", "asp"))
	}
	if o.Weights != "" {
		ps = append(ps, experiments.EnumParam("pr_weights", o.Weights, []string{"staleness", "uniform"},
			"weights of a partial reduce's average: staleness (1 / (1 + s), s = the member's model version behind the freshest member's; the weighted all-reduce of selective reduce Sec. II-C) or uniform (the plain average)").OnlyWhen("learn_model", active...))
	}
	return ps
}

// Metrics are the learning metrics (NaN when learn_model=none).
func Metrics() []experiments.Metric {
	return []experiments.Metric{
		{Name: "final_acc", Unit: "", Help: "learning: test accuracy of the scored model (eval_model) on the whole test set at the end (mean over jobs)"},
		{Name: "final_loss", Unit: "", Help: "learning: its mean test cross-entropy (worker-mean: the workers' mean; worker-min: the worst worker's; mean over jobs)"},
		{Name: "tta_s", Unit: "s", Help: "learning: simulated seconds from the start of training to the first evaluation at which the scored model (eval_model) is at or above target_acc (mean over jobs; NaN if a job never got there)"},
		{Name: "tta_max_s", Unit: "s", Help: "learning: the slowest job's tta_s (NaN if a job never got there)"},
		{Name: "iters_to_target", Unit: "iterations", Help: "learning: mean completed rounds per worker at that evaluation (mean over jobs)"},
		{Name: "avg_acc", Unit: "", Help: "learning: final test accuracy of the average of the workers' models (asp: the server's model), whatever eval_model (mean over jobs)"},
		{Name: "worker_acc_mean", Unit: "", Help: "learning: final test accuracy of each worker's own model, mean over the workers (and jobs)"},
		{Name: "worker_acc_min", Unit: "", Help: "learning: final test accuracy of the worst worker's own model (mean over jobs)"},
		{Name: "tta_avg_s", Unit: "s", Help: "learning: tta_s of the average model (eval_model=average)"},
		{Name: "tta_worker_mean_s", Unit: "s", Help: "learning: tta_s of the workers' mean accuracy (eval_model=worker-mean)"},
		{Name: "tta_worker_min_s", Unit: "s", Help: "learning: tta_s of the worst worker's accuracy, when every worker holds a model at the target (eval_model=worker-min)"},
		{Name: "consensus_dist", Unit: "", Help: "learning: mean squared distance of the workers' models from their average at the end"},
		{Name: "swa_acc", Unit: "", Help: "learning: test accuracy of the average of the workers' SWA models (NaN without swa_factor)"},
	}
}

// SeriesDoc describes the learning series for an experiment's Doc.
const SeriesDoc = "With learn_model set, the run trains a real model under the schedule the network produces " +
	"(docs/tta.md), and --series-dir adds \"learning\", one row per evaluation: job, t_s (simulated seconds " +
	"since training began), iteration (mean completed rounds per worker), test_acc and test_loss of the scored " +
	"model (eval_model) on eval_samples test rows, consensus_dist, and on the same rows avg_acc (the average model), " +
	"worker_acc_mean and worker_acc_min (the workers' own models). `syncsim plot DIR --from-series learning --x t_s --bin 10 --y test_acc --series scheme -o acc.png` draws it."

// SeriesColumns are the learning series' columns.
var SeriesColumns = append([]string{"job"}, learn.SeriesColumns...)

// With appends the learning parameters and metrics to e, and the series'
// description to its Doc, and returns e.
func With(e *experiments.Experiment, o Options) *experiments.Experiment {
	e.Params = append(e.Params, Params(o)...)
	e.Metrics = append(e.Metrics, Metrics()...)
	e.Doc += "\n\n" + SeriesDoc
	v := e.Validate
	e.Validate = func(ps experiments.Params) error {
		if v != nil {
			if err := v(ps); err != nil {
				return err
			}
		}
		w := 0
		if o.Workers != nil {
			w = o.Workers(ps)
		}
		return Validate(ps, w)
	}
	return e
}

// Enabled reports whether the point trains a model.
func Enabled(ps experiments.Params) bool { return ps.String("learn_model") != None }

// Validate checks what the ranges cannot: target_acc in (0, 1], a
// readable data_file whose labels leave no class empty, a model that fits
// the data, and enough rows for a test set and a training row for each of
// workers workers (0: not checked).
func Validate(ps experiments.Params, workers int) error {
	if !Enabled(ps) {
		return nil
	}
	if t := ps.Float("target_acc"); !(t > 0 && t <= 1) {
		return fmt.Errorf("target_acc %g: want 0 < target_acc <= 1", t)
	}
	c := Config(ps, 1)
	if err := c.Opt.Check(); err != nil {
		return err
	}
	if err := c.Schedule.Check(c.LR); err != nil {
		return err
	}
	switch ps.String("dataset") {
	case "file":
		path := strings.TrimSpace(ps.Str("data_file"))
		if path == "" {
			return fmt.Errorf("dataset=file needs data_file")
		}
		d, err := learn.ReadCSVFile(path)
		if err != nil {
			return err
		}
		if err := learn.CheckRows("data_file "+path, d.N(), ps.Float("test_frac"), workers); err != nil {
			return err
		}
		_, err = learn.NewModel(ps.String("learn_model"), d.Dim, d.Classes, ps.Int("hidden"))
		return err
	case "synthetic":
		if err := synthetic(ps).Check(); err != nil {
			return err
		}
		if err := learn.CheckRows(fmt.Sprintf("synth_samples=%d", ps.Int("synth_samples")), ps.Int("synth_samples"), ps.Float("test_frac"), workers); err != nil {
			return err
		}
		_, err := learn.NewModel(ps.String("learn_model"), ps.Int("synth_dim"), ps.Int("synth_classes"), ps.Int("hidden"))
		return err
	case "mnist":
		if _, err := learn.MNISTDir(); err != nil {
			return err
		}
		if err := learn.CheckRows("dataset=mnist", learn.MNISTTrainRows, 0, workers); err != nil {
			return err
		}
		_, err := learn.NewModel(ps.String("learn_model"), 784, 10, ps.Int("hidden"))
		return err
	}
	return nil
}

// nan is a NaN.
var nan = math.NaN()

// synthetic is the point's synthetic data set.
func synthetic(ps experiments.Params) learn.SyntheticConfig {
	return learn.SyntheticConfig{Classes: ps.Int("synth_classes"), Dim: ps.Int("synth_dim"), Samples: ps.Int("synth_samples"),
		Separation: ps.Float("synth_sep"), Clusters: ps.Int("synth_clusters")}
}
