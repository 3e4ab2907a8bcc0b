package hostsync

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"syncsim/experiments/exptest"
)

// crewOverlapSets is a small crew-training point that learns: 8 workers
// on N2, p = 3, a 40 MB model in BERT-base's proportions with a bucket per
// row (with overlap=layer), compute 20 times t1's (1-4 s), comparable to a
// partial reduce (0.9 s without overlap).
var crewOverlapSets = append([]string{"n=8", "p=3", "duration_s=60", "model_mb=40", "chunks=200", "bucket_mib=0", "network=n2",
	"compute_scale=20"}, learnSets...)

// TestCrewTrainingOverlapOneBucket: a layer table of one row is one
// bucket, so overlap=layer is ready when the compute ends and waits for
// the whole result: every metric (rounds, partial-reduce times, accuracy
// and its times to target), the event count and the accuracy series are
// those of overlap=none.
func TestCrewTrainingOverlapOneBucket(t *testing.T) {
	one := filepath.Join(t.TempDir(), "one.csv")
	if err := os.WriteFile(one, []byte("layer,params,forward_ms,backward_ms\nall,1000,1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	none, _ := exptest.SeriesRun(t, CrewTraining(), 3, false, append(crewOverlapSets, "overlap=none")...)
	layer, _ := exptest.SeriesRun(t, CrewTraining(), 3, false, append(crewOverlapSets, "overlap=layer", "model_file="+one)...)
	sameMetrics(t, none.Result, layer.Result)
	if !(none.Result.Metrics["rounds_per_worker"] > 5) || !(none.Result.Metrics["final_acc"] > 0.5) {
		t.Errorf("the point does not train: %v rounds, accuracy %v", none.Result.Metrics["rounds_per_worker"], none.Result.Metrics["final_acc"])
	}
	if len(none.Result.Series) == 0 || !reflect.DeepEqual(none.Result.Series, layer.Result.Series) {
		t.Errorf("the series differ (%d and %d series)", len(none.Result.Series), len(layer.Result.Series))
	}
}

// TestCrewTrainingOverlap: with a bucket per row of BERT-base's table, CREW
// and OPR complete more rounds than computing then scattering on three
// seeds (the backward pass is two thirds of each iteration and hides
// the output side's buckets' scatter and multicast), the books balance
// (exptest runs with the checks on), and the workers learn as well; with
// bandwidths that change under the streams (bw_model=walk) and
// stragglers the books balance too.
func TestCrewTrainingOverlap(t *testing.T) {
	for _, sch := range []string{"crew", "opr"} {
		for seed := uint64(1); seed <= 3; seed++ {
			sets := append(append([]string(nil), crewOverlapSets...), "scheme="+sch)
			none := exptest.Run(t, CrewTraining(), seed, append(sets, "overlap=none")...).Metrics
			layer := exptest.Run(t, CrewTraining(), seed, append(sets, "overlap=layer")...).Metrics
			if !(layer["rounds_per_worker"] > none["rounds_per_worker"]) {
				t.Errorf("%s seed %d: %v rounds with overlap, %v without", sch, seed, layer["rounds_per_worker"], none["rounds_per_worker"])
			}
			if layer["abandoned_rounds"] != 0 || layer["discarded_chunks"] != 0 {
				t.Errorf("%s seed %d: %v abandoned, %v discarded", sch, seed, layer["abandoned_rounds"], layer["discarded_chunks"])
			}
			if !(layer["final_acc"] > 0.5) {
				t.Errorf("%s seed %d: accuracy %v with overlap", sch, seed, layer["final_acc"])
			}
		}
	}
	// Bandwidths that change under the streams and stragglers: the books
	// balance (checked by exptest) and rounds complete.
	m := exptest.Run(t, CrewTraining(), 2, append(crewOverlapSets, "overlap=layer", "bw_model=walk", "bw_period_s=1", "stragglers=2")...).Metrics
	if !(m["prs"] > 10) {
		t.Errorf("changing bandwidths: %v partial reduces", m["prs"])
	}
}

// TestCrewTrainingOverlapRefusals: what overlap=layer does not run with,
// and a bad layer table, are refused before the run in one line.
func TestCrewTrainingOverlapRefusals(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(bad, []byte("layer,params,forward_ms,backward_ms\na,10,1,-2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := CrewTraining()
	for _, tc := range []struct {
		sets []string
		want string
	}{
		{[]string{"scatter=non-blocking"}, "overlap=layer needs scatter=blocking"},
		{[]string{"faulty_links=2"}, "outages"},
		{[]string{"faults=ctrl@2+1"}, "outages"},
		{[]string{"budget_s=3"}, "budget_s"},
		{[]string{"scheme=a2a"}, "overlap=layer runs scheme=crew or opr"},
		{[]string{"model_file=" + bad}, "model_file " + bad + ":2: layer \"a\": backward_ms \"-2\""},
	} {
		ps, err := e.Resolve(append([]string{"overlap=layer"}, tc.sets...))
		if err == nil {
			err = e.Validate(ps)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: got %v, want one line with %q", tc.sets, err, tc.want)
		}
	}
}
