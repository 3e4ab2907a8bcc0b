package hostsync

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"syncsim/experiments"
	"syncsim/experiments/exptest"
	"syncsim/scenarios/internal/learnrig"
)

// learnSets trains softmax on a small synthetic mixture.
var learnSets = []string{"learn_model=softmax", "dataset=synthetic", "synth_samples=3000", "synth_dim=10", "synth_classes=5", "synth_clusters=1", "synth_sep=2",
	"lr=0.3", "target_acc=0.8", "eval_every=2"}

// TestLearningLeavesTheNetworkAlone: training a model under the schedule
// changes none of a run's network metrics, and learns something.
func TestLearningLeavesTheNetworkAlone(t *testing.T) {
	cases := []struct {
		e    *experiments.Experiment
		sets []string
	}{
		{DSSync(), []string{"scheme=dssync", "model=custom", "model_mb=16", "compute_ms=20", "iterations=40", "adjust_every=8", "bg_model=bert-base"}},
		{DSSync(), []string{"scheme=gossip", "model=custom", "model_mb=16", "compute_ms=20", "iterations=40", "layers=2", "bg_model=bert-base"}},
		{DSSync(), []string{"scheme=asp", "model=custom", "model_mb=16", "compute_ms=20", "iterations=40", "bg_model=bert-base"}},
		{SRCluster(), []string{"scheme=partial-reduce", "n=8", "duration_s=20", "model_mb=20"}},
		{SRCluster(), []string{"scheme=selective-reduce", "n=8", "duration_s=20", "model_mb=20"}},
		{CrewTraining(), []string{"scheme=crew", "n=8", "p=3", "duration_s=10", "model_mb=2", "network=n2"}},
		// heterogeneous workers and changing bandwidths
		{DSSync(), []string{"stragglers=1", "scheme=dssync", "model=custom", "model_mb=16", "compute_ms=20", "iterations=40", "adjust_every=8", "bg_model=bert-base"}},
		{SRCluster(), []string{"stragglers=2", "worker_classes=v100:0.5+k80:0.5", "scheme=selective-reduce", "n=8", "duration_s=20", "model_mb=20", "bw_model=walk"}},
		{CrewTraining(), []string{"stragglers=2", "bw_model=walk", "bw_period_s=1", "faulty_links=2", "scheme=crew", "n=8", "p=3", "duration_s=10", "model_mb=2", "network=n2"}},
	}
	for _, tc := range cases {
		t.Run(tc.e.Name+"/"+tc.sets[0]+"/"+tc.sets[1], func(t *testing.T) {
			plain := exptest.Run(t, tc.e, 4, tc.sets...)
			learnt := exptest.Run(t, tc.e, 4, append(append([]string(nil), tc.sets...), learnSets...)...)
			learning := map[string]bool{}
			for _, m := range learnrig.Metrics() {
				learning[m.Name] = true
				if !math.IsNaN(plain.Metrics[m.Name]) {
					t.Errorf("learn_model=none reports %s = %g", m.Name, plain.Metrics[m.Name])
				}
			}
			for name, v := range plain.Metrics {
				if learning[name] {
					continue
				}
				if w := learnt.Metrics[name]; v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
					t.Errorf("%s: %g without learning, %g with", name, v, w)
				}
			}
			if plain.Events != learnt.Events {
				t.Errorf("events: %d without learning, %d with", plain.Events, learnt.Events)
			}
			if acc := learnt.Metrics["final_acc"]; !(acc > 0.6) {
				t.Errorf("final accuracy %g on a separable mixture", acc)
			}
		})
	}
}

// TestLearningBadInput: bad learning input ends in one clear error from
// validation, which --dry-run runs too, before any run: among them data
// too small for the split or the workers, and labels that leave a class
// empty.
func TestLearningBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, rows string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(rows), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("bad.csv", "0,1,2\n1,2,3\n2,x,1\n")
	neg := write("neg.csv", "0,1\n-2,2\n")
	few := write("few.csv", "0,1\n1,2\n0,3\n1,4\n")                           // 1 test and 3 training rows
	sparse := write("sparse.csv", "0,1\n2,2\n0,3\n2,4\n0,5\n2,6\n0,7\n2,8\n") // class 1 empty
	base := []string{"scheme=partial-reduce", "n=4", "duration_s=1"}
	for _, tc := range []struct {
		sets []string
		want string
	}{
		{[]string{"learn_model=softmax", "dataset=file"}, "dataset=file needs data_file"},
		{[]string{"learn_model=softmax", "dataset=file", "data_file=" + filepath.Join(dir, "missing.csv")}, "no such file"},
		{[]string{"learn_model=softmax", "dataset=file", "data_file=" + bad}, "line 3: feature 1 \"x\" is not a finite number"},
		{[]string{"learn_model=softmax", "dataset=file", "data_file=" + neg}, "line 2: label -2 is out of range"},
		{[]string{"learn_model=softmax", "target_acc=0"}, "target_acc 0: want 0 < target_acc <= 1"},
		{[]string{"learn_model=mlp", "hidden=100000"}, "more than"},
		{[]string{"learn_model=softmax", "dataset=file", "data_file=" + few}, "data_file " + few + ": 3 training rows cannot give each of 4 workers one"},
		{[]string{"learn_model=softmax", "dataset=file", "data_file=" + sparse}, "data_file " + sparse + ": labels run to 2 but no row has label 1"},
		{[]string{"learn_model=softmax", "dataset=synthetic", "synth_samples=4"}, "synth_samples=4: 3 training rows cannot give each of 4 workers one"},
		// A mixture too large to hold (an out-of-memory crash before).
		{[]string{"learn_model=softmax", "dataset=synthetic", "synth_classes=1000", "synth_clusters=1000", "synth_dim=1000"},
			"synthetic data: 1000 classes of 1000 clusters in 1000 dimensions are 1e+09 centre coordinates, more than 100000000"},
		{[]string{"learn_model=softmax", "dataset=synthetic", "synth_samples=10000000", "synth_dim=100"},
			"synthetic data: 10000000 samples of 100 features are 1e+09 numbers, more than 100000000"},
	} {
		e := SRCluster()
		sets := append(append([]string(nil), base...), tc.sets...)
		ps, err := e.Resolve(sets)
		if err == nil {
			if err = e.Validate(ps); err == nil {
				t.Errorf("%v: validation passed", tc.sets)
			}
		}
		if err == nil {
			_, err = exptest.Try(e, 1, sets...)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: got %v, want one line with %q", tc.sets, err, tc.want)
		}
	}
	if _, err := SRCluster().Resolve([]string{"target_acc=1.5"}); err == nil {
		t.Error("target_acc=1.5 accepted")
	}
}

// TestLearningScoresWhatTheWorkersHold: every training experiment
// reports the average model and the workers' own models beside the score
// its paper evaluates (eval_model), and the score is the view it names.
// Under all-reduce every worker holds the average, so all views agree;
// under partial reduce and CREW the worst worker is no better than the
// mean, and the target is reached by the worst no sooner than by the mean.
func TestLearningScoresWhatTheWorkersHold(t *testing.T) {
	cases := []struct {
		e      *experiments.Experiment
		sets   []string
		scored string // the metric eval_model's default names
		same   bool   // every worker holds the average
	}{
		{DSSync(), []string{"scheme=allreduce", "model=custom", "model_mb=16", "compute_ms=20", "iterations=40", "bg_model=bert-base"}, "avg_acc", true},
		{DSSync(), []string{"scheme=dssync", "model=custom", "model_mb=16", "compute_ms=20", "iterations=40", "adjust_every=8", "bg_model=bert-base"}, "avg_acc", false},
		{SRCluster(), []string{"scheme=partial-reduce", "n=8", "duration_s=20", "model_mb=20", "p_frac=0.25"}, "worker_acc_mean", false},
		{CrewTraining(), []string{"scheme=crew", "n=8", "p=3", "duration_s=10", "model_mb=2", "network=n2"}, "worker_acc_min", false},
	}
	tta := map[string]string{"avg_acc": "tta_avg_s", "worker_acc_mean": "tta_worker_mean_s", "worker_acc_min": "tta_worker_min_s"}
	for _, tc := range cases {
		t.Run(tc.e.Name+"/"+tc.sets[0], func(t *testing.T) {
			sets := append(append([]string(nil), tc.sets...), "learn_model=softmax", "dataset=synthetic", "synth_samples=3000",
				"synth_dim=10", "synth_classes=5", "synth_clusters=1", "synth_sep=2", "lr=0.3", "target_acc=0.7", "eval_every=2")
			m := exptest.Run(t, tc.e, 3, sets...).Metrics
			if math.IsNaN(m["tta_worker_min_s"]) {
				t.Fatalf("the worst worker never reached the target: %v", m)
			}
			if m["final_acc"] != m[tc.scored] || !sameNum(m["tta_s"], m[tta[tc.scored]]) {
				t.Errorf("final_acc %g and tta_s %g, want %s's %g and %g", m["final_acc"], m["tta_s"], tc.scored, m[tc.scored], m[tta[tc.scored]])
			}
			if m["worker_acc_min"] > m["worker_acc_mean"] {
				t.Errorf("worst worker %g above the workers' mean %g", m["worker_acc_min"], m["worker_acc_mean"])
			}
			if m["tta_worker_min_s"] < m["tta_worker_mean_s"] {
				t.Errorf("the worst worker reached the target at %g s, before the mean did at %g s", m["tta_worker_min_s"], m["tta_worker_mean_s"])
			}
			if tc.same != (m["avg_acc"] == m["worker_acc_mean"] && m["avg_acc"] == m["worker_acc_min"] && m["consensus_dist"] == 0) {
				t.Errorf("average %g, workers' mean %g, worst %g, consensus %g: want them the same %v",
					m["avg_acc"], m["worker_acc_mean"], m["worker_acc_min"], m["consensus_dist"], tc.same)
			}
			if !(m["worker_acc_min"] > 0.3) {
				t.Errorf("the worst worker learnt nothing: %g", m["worker_acc_min"])
			}
		})
	}
}

// sameNum is equality with NaN equal to NaN.
func sameNum(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
