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
var learnSets = []string{"learn_model=softmax", "dataset=synthetic", "synth_samples=3000", "synth_dim=10", "synth_classes=5",
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

// TestLearningBadInput: bad learning input ends in one clear error.
func TestLearningBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("0,1,2\n1,2,3\n2,x,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	neg := filepath.Join(dir, "neg.csv")
	if err := os.WriteFile(neg, []byte("0,1\n-2,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
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
	} {
		e := SRCluster()
		ps, err := e.Resolve(append(append([]string(nil), base...), tc.sets...))
		if err == nil {
			err = e.Validate(ps)
		}
		if err == nil {
			_, err = exptest.Try(e, 1, append(append([]string(nil), base...), tc.sets...)...)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.sets, err, tc.want)
		}
	}
	if _, err := SRCluster().Resolve([]string{"target_acc=1.5"}); err == nil {
		t.Error("target_acc=1.5 accepted")
	}
}
