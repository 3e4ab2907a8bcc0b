package hostsync

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"syncsim/experiments"
	"syncsim/experiments/exptest"
)

func sameMetrics(t *testing.T, a, b *experiments.Result) {
	t.Helper()
	for k, v := range a.Metrics {
		if w := b.Metrics[k]; v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
			t.Errorf("%s: %v vs %v with the same seed", k, v, w)
		}
	}
	if a.Events != b.Events {
		t.Errorf("events %d vs %d", a.Events, b.Events)
	}
}

func TestCrewDeterministic(t *testing.T) {
	cases := []struct {
		exp  *experiments.Experiment
		sets []string
	}{
		{CrewSingle(), []string{"scheme=blink", "n=20", "p=6"}},
		{CrewSingle(), []string{"scheme=toa", "n=20", "p=6", "bw_noise=0.3"}},
		{CrewTraining(), []string{"n=16", "p=4", "duration_s=10", "scatter=non-blocking", "scheduling=tl", "faulty_links=5", "model_mb=20"}},
		{CrewTraining(), []string{"n=16", "p=4", "duration_s=10", "scheme=opr", "faults=node:3@2+3;ctrl@5+1", "model_mb=20"}},
	}
	for i, tc := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			sameMetrics(t, exptest.Run(t, tc.exp, 5, tc.sets...), exptest.Run(t, tc.exp, 5, tc.sets...))
		})
	}
}

// TestCrewSingleOrder: on the paper's default point (n = 60, p = 10, N1,
// 180 MB, FCFS, network-aware), for each of three seeds CREW completes a
// partial reduce faster than OPR, and OPR faster than A2A, PS, Ring and
// the BLINK-like and TopoAdopt-like trees (Fig. 4).
func TestCrewSingleOrder(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		time := map[string]float64{}
		for _, s := range []string{"crew", "opr", "a2a", "ps", "ring", "blink", "toa"} {
			time[s] = exptest.Run(t, CrewSingle(), seed, "scheme="+s).Metrics["pr_time_s"]
		}
		if !(time["crew"] < time["opr"]) {
			t.Errorf("seed %d: crew %.2f s not below opr %.2f s", seed, time["crew"], time["opr"])
		}
		for _, s := range []string{"a2a", "ps", "ring", "blink", "toa"} {
			if !(time["opr"] < time[s]) {
				t.Errorf("seed %d: opr %.2f s not below %s %.2f s", seed, time["opr"], s, time[s])
			}
		}
	}
}

// TestCrewTrainingOrder: rounds per worker, CREW > OPR > A2A, on a reduced
// point (n = 20, p = 5, 20 s) for two seeds and both networks.
func TestCrewTrainingOrder(t *testing.T) {
	for _, nw := range []string{"n1", "n2"} {
		for seed := uint64(1); seed <= 2; seed++ {
			r := map[string]float64{}
			for _, s := range []string{"crew", "opr", "a2a"} {
				r[s] = exptest.Run(t, CrewTraining(), seed, "scheme="+s, "n=20", "p=5", "duration_s=20", "network="+nw).Metrics["rounds_per_worker"]
			}
			if !(r["crew"] > r["opr"] && r["opr"] > r["a2a"]) {
				t.Errorf("%s seed %d: rounds crew %.2f, opr %.2f, a2a %.2f", nw, seed, r["crew"], r["opr"], r["a2a"])
			}
		}
	}
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCrewBadInput: malformed matrices, p > n, unsupported combinations
// and malformed schedules end in one-line errors.
func TestCrewBadInput(t *testing.T) {
	ragged := writeFile(t, "ragged.csv", "0,10,10\n10,0\n10,10,0\n")
	neg := writeFile(t, "neg.csv", "0,10\n-5,0\n")
	word := writeFile(t, "word.csv", "0,fast\n10,0\n")
	good3 := writeFile(t, "good3.csv", "-,10,20\n30,-,40\n50,60,-\n")
	asym := writeFile(t, "asym.csv", "0,10,20\n11,0,20\n20,20,0\n")
	cases := []struct {
		name string
		exp  *experiments.Experiment
		sets []string
		want string
	}{
		{"p > n", CrewTraining(), []string{"n=4", "p=5"}, "exceeds"},
		{"p > n single", CrewSingle(), []string{"n=4", "p=5"}, "exceeds"},
		{"bw_file missing", CrewSingle(), []string{"network=file", "n=3", "p=2"}, "bw_file"},
		{"bw_file absent", CrewSingle(), []string{"network=file", "bw_file=/nonexistent/x.csv", "n=3", "p=2"}, "bw_file"},
		{"bw_file ragged", CrewSingle(), []string{"network=file", "bw_file=" + ragged, "n=3", "p=2"}, "square"},
		{"bw_file negative", CrewSingle(), []string{"network=file", "bw_file=" + neg, "n=2", "p=2"}, "positive"},
		{"bw_file word", CrewSingle(), []string{"network=file", "bw_file=" + word, "n=2", "p=2"}, "not a number"},
		{"bw_file size", CrewSingle(), []string{"network=file", "bw_file=" + good3, "n=4", "p=2"}, "n=3"},
		{"latency asymmetric", CrewSingle(), []string{"latency=file", "latency_file=" + asym, "n=3", "p=2", "network=n2"}, "symmetric"},
		{"packet tl", CrewTraining(), []string{"fidelity=packet", "scheduling=tl", "n=4", "p=2"}, "flow"},
		{"packet non-blocking", CrewTraining(), []string{"fidelity=packet", "scatter=non-blocking", "n=4", "p=2"}, "flow"},
		{"packet faults", CrewTraining(), []string{"fidelity=packet", "faulty_links=1", "n=4", "p=2"}, "flow"},
		{"faults syntax", CrewTraining(), []string{"faults=link:1@3", "n=4", "p=2"}, "link:A-B"},
		{"faults worker", CrewTraining(), []string{"faults=node:9@3", "n=4", "p=2"}, "workers are"},
		{"too many faulty links", CrewTraining(), []string{"faulty_links=7", "n=4", "p=2"}, "connections"},
		{"trace file missing", CrewTraining(), []string{"trace=file", "n=4", "p=2"}, "trace_file"},
		{"chunks > model", CrewSingle(), []string{"chunks=2000", "model_mb=0.001", "n=4", "p=2"}, "chunks"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The command line validates every point before it runs any
			// (Experiment.Validate); a run must refuse the point too.
			ps, err := tc.exp.Resolve(tc.sets)
			if err != nil {
				t.Fatal(err)
			}
			errs := []error{}
			if err := tc.exp.Validate(ps); err != nil {
				errs = append(errs, err)
			}
			_, err = exptest.Try(tc.exp, 1, tc.sets...)
			if err == nil {
				t.Fatal("the run accepted the point")
			}
			for _, err := range append(errs, err) {
				if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
					t.Errorf("error %q: want one line mentioning %q", msg, tc.want)
				}
			}
		})
	}
	// A well-formed file runs, and its matrix is what the network uses:
	// with b = 10..60 Mbit/s, A2A of 1 MB between workers 0..2 is bounded
	// by the slowest direction, 10 Mbit/s: 0.8 s.
	res := exptest.Run(t, CrewSingle(), 1, "network=file", "bw_file="+good3, "n=3", "p=3", "scheme=a2a", "model_mb=1", "latency=none")
	if got := res.Metrics["pr_time_s"]; math.Abs(got-0.8) > 1e-9 {
		t.Errorf("a2a over the file's matrix took %v s, want 0.8", got)
	}
}

// TestCrewGroupsSeries: the groups series lists every partial reduce the
// controller formed, p distinct workers each; with no outages a member's
// completed rounds at a formation are the formations it was in before;
// and group_pairs_frac and distinct_groups are what the rows of the
// run's second half give.
func TestCrewGroupsSeries(t *testing.T) {
	const n, p, dur = 8, 4, 40.0
	out, _ := exptest.SeriesRun(t, CrewTraining(), 2, false, "n=8", "p=4", "duration_s=40", "model_mb=18", "network=n2")
	var rows [][]float64
	for _, s := range out.Result.Series {
		if s.Name == "groups" {
			if strings.Join(s.Columns, ",") != "time_s,pid,worker,ready_s,rounds" {
				t.Fatalf("groups columns %v", s.Columns)
			}
			rows = s.Rows
		}
	}
	members := map[int][]int{}
	at := map[int]float64{}
	before := make([]int, n)
	for _, r := range rows {
		pid, w := int(r[1]), int(r[2])
		if r[3] > r[0] || int(r[4]) != before[w] {
			t.Fatalf("row %v: ready after formation, or %d rounds where it was in %d earlier formations", r, int(r[4]), before[w])
		}
		before[w]++
		members[pid] = append(members[pid], w)
		at[pid] = r[0]
	}
	if len(members) < 10 || float64(len(members)) < out.Result.Metrics["prs"] {
		t.Fatalf("%d formations for %v partial reduces completed", len(members), out.Result.Metrics["prs"])
	}
	met := map[[2]int]bool{}
	sets := map[string]bool{}
	for pid, m := range members {
		seen := map[int]bool{}
		for _, w := range m {
			seen[w] = true
		}
		if len(m) != p || len(seen) != p {
			t.Fatalf("pid %d has members %v, want %d distinct", pid, m, p)
		}
		if at[pid] < dur/2 {
			continue
		}
		s := slices.Clone(m)
		slices.Sort(s)
		sets[fmt.Sprint(s)] = true
		for i, a := range s {
			for _, b := range s[i+1:] {
				met[[2]int{a, b}] = true
			}
		}
	}
	mt := out.Result.Metrics
	if want := float64(len(met)) / (n * (n - 1) / 2); mt["group_pairs_frac"] != want || mt["distinct_groups"] != float64(len(sets)) {
		t.Fatalf("group_pairs_frac %v, distinct_groups %v; the rows give %v and %d", mt["group_pairs_frac"], mt["distinct_groups"], want, len(sets))
	}
}
