package hostsync

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"syncsim/experiments"
	"syncsim/experiments/exptest"
)

// small is a fast dssync point: a 16 MB model, 24 iterations, detection
// every 8.
var small = []string{"model=custom", "model_mb=16", "compute_ms=20", "layers=2", "bg_model=bert-base",
	"iterations=24", "adjust_every=8"}

// The experiment reports every metric, DS-Sync's pattern metrics only for
// DS-Sync, detects the paper's Table III contention (racks 0 and 1 and
// worker 4), and beats ring all-reduce there.
func TestDSSyncExperiment(t *testing.T) {
	e := lookup(t, "dssync")
	ds := exptest.Run(t, e, 1, append(small, "scheme=dssync")...)
	ar := exptest.Run(t, e, 1, append(small, "scheme=allreduce")...)
	if ds.Metrics["detected_racks"] != 2 || ds.Metrics["detected_workers"] != 1 || ds.Metrics["period"] != 12 {
		t.Errorf("DS-Sync detected %v racks, %v workers, period %v; want 2, 1, 12",
			ds.Metrics["detected_racks"], ds.Metrics["detected_workers"], ds.Metrics["period"])
	}
	if !(ds.Metrics["comm_time_ms"] < ar.Metrics["comm_time_ms"]) {
		t.Errorf("DS-Sync %v ms, all-reduce %v ms", ds.Metrics["comm_time_ms"], ar.Metrics["comm_time_ms"])
	}
	for _, k := range []string{"period", "adjustments", "detected_racks", "detected_workers"} {
		if !math.IsNaN(ar.Metrics[k]) {
			t.Errorf("all-reduce reports %s = %v", k, ar.Metrics[k])
		}
	}
	if ar.Metrics["rho"] != 0 || ar.Metrics["consensus_iters"] != 1 {
		t.Errorf("all-reduce rho %v, consensus after %v", ar.Metrics["rho"], ar.Metrics["consensus_iters"])
	}
	asp := exptest.Run(t, e, 1, append(small, "scheme=asp")...)
	if !math.IsNaN(asp.Metrics["rho"]) || !math.IsNaN(asp.Metrics["consensus_iters"]) {
		t.Errorf("ASP has no consensus, got rho %v", asp.Metrics["rho"])
	}
}

// Layouts: paper, even, explicit; Series writes one row per worker and
// iteration.
func TestDSSyncLayoutsAndSeries(t *testing.T) {
	e := lookup(t, "dssync")
	for _, l := range []string{"layout=paper", "layout=even", "layout=3+3+2", "layout=2+2+2+2"} {
		exptest.Run(t, e, 1, append(small, l, "scenario=inter-rack")...)
	}
	ps, err := e.Resolve(append(small, "scenario=static", "layout=even", "racks=4", "workers=10"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 1, Series: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Series) != 1 || len(res.Series[0].Rows) != 10*24 {
		t.Fatalf("series %+v", res.Series)
	}
	for _, row := range res.Series[0].Rows {
		if math.Abs(row[4]-(row[3]-row[2])) > 1e-9 || row[4] < 0 {
			t.Fatalf("row %v: comm_ms is not end - start", row)
		}
	}
}

// Bad parameter combinations end in one-line errors.
func TestDSSyncErrors(t *testing.T) {
	e := lookup(t, "dssync")
	for _, tc := range []struct {
		sets []string
		want string
	}{
		{[]string{"layout=5+x"}, "layout"},
		{[]string{"layout=even", "racks=4", "workers=3"}, "cannot fill"},
		{[]string{"model=custom"}, "compute_ms"},
		{[]string{"scenario=inter-rack", "layout=8"}, "two racks"},
		{[]string{"delayed_worker=8"}, "delayed worker"},
		{[]string{"iterations=5", "warmup_iters=5"}, "warm-up"},
	} {
		_, err := exptest.Try(e, 1, tc.sets...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v, want one line mentioning %q", tc.sets, err, tc.want)
		}
	}
}

// describe maps the paper's tables and scenarios to sweeps.
func TestDSSyncDescribeMapsTheTables(t *testing.T) {
	doc := strings.Join(strings.Fields(lookup(t, "dssync").Doc), " ") // as Markdown renders it
	for _, w := range []string{"Table III", "Table IV", "Table V", "Sec. V-B1", "Sec. V-B2", "Sec. V-B3",
		"scenario=both", "scenario=inter-rack", "scenario=static", "Fig. 3"} {
		if !strings.Contains(doc, w) {
			t.Errorf("describe text lacks %q", w)
		}
	}
}

// A compute trace sets every iteration's compute: with a constant 50 ms
// the iteration takes 30 ms more than with compute_ms=20 and the same
// communication pattern; a missing file is an error.
func TestDSSyncComputeTrace(t *testing.T) {
	e := lookup(t, "dssync")
	path := filepath.Join(t.TempDir(), "trace.txt")
	if err := os.WriteFile(path, []byte("# seconds\n0.05\n0.05\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := append(small, "scenario=static", "scheme=allreduce", "compute_spread=0")
	a := exptest.Run(t, e, 1, base...)
	b := exptest.Run(t, e, 1, append(base, "compute_trace="+path)...)
	if d := b.Metrics["iter_time_ms"] - a.Metrics["iter_time_ms"]; math.Abs(d-30) > 1e-6 {
		t.Errorf("iteration %v ms with the trace, %v without: want 30 ms more", b.Metrics["iter_time_ms"], a.Metrics["iter_time_ms"])
	}
	if _, err := exptest.Try(e, 1, append(base, "compute_trace="+path+".missing")...); err == nil {
		t.Error("missing trace accepted")
	}
}

// TestDSSyncHorizonCountsLatency: the horizon a run gives its job counts
// per-message latency. A 1 kB model computed in 1 us behind alpha_us of
// 0.3 s iterates at about alpha (gossip sends one message an iteration);
// the horizon, built from compute and transfer times alone, was 0.24 s
// and the run failed as "did not finish 6 iterations".
func TestDSSyncHorizonCountsLatency(t *testing.T) {
	res := exptest.Run(t, DSSync(), 1, "scheme=gossip", "model=custom", "model_mb=0.001", "compute_ms=0.001",
		"alpha_us=295958", "iterations=6", "warmup_iters=5")
	if it := res.Metrics["iter_time_ms"]; !(it >= 295.958 && it < 300) {
		t.Errorf("iter_time_ms = %v, want alpha (295.958 ms) plus a little", it)
	}
}
