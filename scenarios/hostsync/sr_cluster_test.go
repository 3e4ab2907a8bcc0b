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

// srRun runs one checked sr-cluster run.
func srRun(t testing.TB, seed uint64, sets ...string) *experiments.Result {
	t.Helper()
	return exptest.Run(t, SRCluster(), seed, sets...)
}

func TestSRClusterDeterministic(t *testing.T) {
	for _, scheme := range []string{"allreduce", "partial-reduce", "selective-reduce"} {
		t.Run(scheme, func(t *testing.T) {
			sets := []string{"scheme=" + scheme, "duration_s=20", "start=cold", "bw_error=0.2"}
			a, b := srRun(t, 9, sets...), srRun(t, 9, sets...)
			for k, v := range a.Metrics {
				if w := b.Metrics[k]; v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
					t.Errorf("%s: %v vs %v with the same seed", k, v, w)
				}
			}
			if a.Events != b.Events {
				t.Errorf("events %d vs %d", a.Events, b.Events)
			}
		})
	}
}

// TestSRClusterSchemes checks invariants of each scheme on the default
// point (n = 40, p = 12): all reduce synchronises all 40 every time,
// partial reduce exactly p, selective reduce at least p+1 (BAG seeds p+1);
// only selective reduce can waste waiting.
func TestSRClusterSchemes(t *testing.T) {
	ar := srRun(t, 1, "scheme=allreduce", "duration_s=30")
	pr := srRun(t, 1, "scheme=partial-reduce", "duration_s=30")
	sr := srRun(t, 1, "scheme=selective-reduce", "duration_s=30")
	if ar.Metrics["avg_sync_scale"] != 40 || pr.Metrics["avg_sync_scale"] != 12 {
		t.Errorf("scales: allreduce %v (want 40), partial %v (want 12)", ar.Metrics["avg_sync_scale"], pr.Metrics["avg_sync_scale"])
	}
	if sr.Metrics["avg_sync_scale"] < 13 {
		t.Errorf("selective scale %v, want >= p+1 = 13", sr.Metrics["avg_sync_scale"])
	}
	if ar.Metrics["wasted_wait_s"] != 0 || pr.Metrics["wasted_wait_s"] != 0 {
		t.Error("all reduce and partial reduce never waste waiting")
	}
	for name, r := range map[string]*experiments.Result{"allreduce": ar, "partial": pr, "selective": sr} {
		if r.Metrics["total_sync"] < 1 || r.Metrics["total_iteration"] < 40 {
			t.Errorf("%s: %v", name, r.Metrics)
		}
	}
	// Bandwidth-aware grouping makes selective reduce's syncs faster than
	// partial reduce's on skewed bandwidths (Sec. IV-B1).
	if sr.Metrics["avg_sync_time_s"] >= pr.Metrics["avg_sync_time_s"] {
		t.Errorf("selective avg sync time %v not below partial %v", sr.Metrics["avg_sync_time_s"], pr.Metrics["avg_sync_time_s"])
	}
}

func TestSRClusterSeries(t *testing.T) {
	e := SRCluster()
	ps, err := e.Resolve([]string{"scheme=partial-reduce", "duration_s=20"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 2, Series: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Series) != 1 || len(res.Series[0].Rows) != int(res.Metrics["total_sync"]) {
		t.Fatalf("want one series with a row per completed sync (%v)", res.Metrics["total_sync"])
	}
	sum := 0.0
	for _, row := range res.Series[0].Rows {
		if row[2] != 12 || row[1] > 20 || math.Abs(row[1]-row[0]-row[3]) > 1e-9 {
			t.Fatalf("bad row %v", row)
		}
		sum += row[3]
	}
	if got := sum / float64(len(res.Series[0].Rows)); math.Abs(got-res.Metrics["avg_sync_time_s"]) > 1e-9 {
		t.Errorf("series mean duration %v, metric %v", got, res.Metrics["avg_sync_time_s"])
	}
}

// TestSRClusterPacket runs small points at packet level, with equal edge
// rates (lambda = 1, all 20 Gbps) and with the paper's skew (lambda =
// 0.05): DCTCP ring transfers can only be slower than Eq. 2 (2.7% of
// headers, slow start of every step's flow, queueing) but, with a
// bandwidth-delay product much smaller than a chunk, by less than 30%.
// Measured (seed 3): 1.09-1.14x at lambda = 1, 1.06-1.11x at 0.05.
func TestSRClusterPacket(t *testing.T) {
	for _, tc := range []string{"allreduce 1", "partial-reduce 1", "selective-reduce 1", "allreduce 0.05", "selective-reduce 0.05"} {
		scheme, lambda, _ := strings.Cut(tc, " ")
		t.Run(scheme+"/lambda="+lambda, func(t *testing.T) {
			sets := []string{"scheme=" + scheme, "n=6", "model_mb=4", "alpha_ms=0.01", "duration_s=1", "lambda=" + lambda}
			a := srRun(t, 3, append(sets, "fidelity=analytic")...)
			p := srRun(t, 3, append(sets, "fidelity=packet")...)
			at, pt := a.Metrics["avg_sync_time_s"], p.Metrics["avg_sync_time_s"]
			t.Logf("analytic %.6f s, packet %.6f s, %d syncs, %d events", at, pt, int(p.Metrics["total_sync"]), p.Events)
			if !(pt >= at && pt < 1.3*at) {
				t.Errorf("avg sync time: analytic %v, packet %v (want within +30%%)", at, pt)
			}
		})
	}
}

// BenchmarkSRCluster runs one paper-size point (n = 200, 100 s) per
// iteration.
func BenchmarkSRCluster(b *testing.B) {
	for _, fid := range []string{"analytic", "flow"} {
		for _, scheme := range []string{"partial-reduce", "selective-reduce"} {
			b.Run(fid+"/"+scheme, func(b *testing.B) {
				e := SRCluster()
				ps, err := e.Resolve([]string{"n=200", "scheme=" + scheme, "fidelity=" + fid})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				var events uint64
				for i := 0; i < b.N; i++ {
					res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: uint64(i + 1)})
					if err != nil {
						b.Skip(err)
					}
					events += res.Events
				}
				b.ReportMetric(float64(events)/float64(b.N), "events/op")
			})
		}
	}
}

// TestSRClusterFlowMatchesAnalytic: on the star every group's ring runs on
// its own edge links, so the fluid ring all-reduce must take Eq. 2's time
// (first line) up to byte and picosecond rounding (1e-6 relative), for concurrent groups
// too; the two fidelities then make the same decisions.
func TestSRClusterFlowMatchesAnalytic(t *testing.T) {
	for _, scheme := range []string{"allreduce", "partial-reduce", "selective-reduce"} {
		t.Run(scheme, func(t *testing.T) {
			sets := []string{"scheme=" + scheme, "n=16", "duration_s=20"}
			a := srRun(t, 4, append(sets, "fidelity=analytic")...)
			f := srRun(t, 4, append(sets, "fidelity=flow")...)
			at, ft := a.Metrics["avg_sync_time_s"], f.Metrics["avg_sync_time_s"]
			if math.Abs(at-ft) > 1e-6*at {
				t.Errorf("avg sync time: analytic %v, flow %v", at, ft)
			}
			for _, k := range []string{"avg_sync_scale", "total_sync", "total_iteration"} {
				if a.Metrics[k] != f.Metrics[k] {
					t.Errorf("%s: analytic %v, flow %v", k, a.Metrics[k], f.Metrics[k])
				}
			}
		})
	}
}

// TestSRClusterOverlap: overlap=layer on the paper's setting (500 MB,
// ResNet-50's proportions, DDP's buckets) with a constant compute of
// 2 s, comparable to a group's synchronisation: partial reduce keeps
// groups of exactly p, every book balances, the bucket reduces match
// Eq. 2 at analytic fidelity, and the workers complete more rounds than
// computing then synchronising; at flow fidelity the books balance too.
func TestSRClusterOverlap(t *testing.T) {
	sets := []string{"scheme=partial-reduce", "duration_s=40", "trace=constant", "compute_ms=2000"}
	none := srRun(t, 4, sets...).Metrics
	layer := srRun(t, 4, append(sets, "overlap=layer")...).Metrics
	if layer["avg_sync_scale"] != 12 || none["avg_sync_scale"] != 12 {
		t.Errorf("group sizes %v and %v, want p = 12", none["avg_sync_scale"], layer["avg_sync_scale"])
	}
	if math.Abs(layer["eq2_ratio"]-1) > 1e-9 {
		t.Errorf("analytic bucket reduces at %v of Eq. 2", layer["eq2_ratio"])
	}
	if !(layer["total_iteration"] > none["total_iteration"]) {
		t.Errorf("%v rounds with overlap, %v without", layer["total_iteration"], none["total_iteration"])
	}
	flow := srRun(t, 4, "scheme=selective-reduce", "n=12", "duration_s=10", "fidelity=flow", "overlap=layer", "bucket_mib=0").Metrics
	if flow["total_sync"] < 1 {
		t.Errorf("flow fidelity with a bucket per layer: %v syncs", flow["total_sync"])
	}
}

// TestSRClusterOverlapRefusals: a bad layer table is refused before the
// run in one line naming the file and line, and a table without compute
// times is split by bytes (it runs).
func TestSRClusterOverlapRefusals(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("layer,params,forward_ms,backward_ms\na,10,1,-2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	noCompute := filepath.Join(dir, "nocompute.csv")
	if err := os.WriteFile(noCompute, []byte("layer,params,forward_ms,backward_ms\na,10,0,0\nb,30,0,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := SRCluster()
	for sets, want := range map[string]string{
		"model_file=" + bad:                        "model_file " + bad + ":2: layer \"a\": backward_ms \"-2\"",
		"model_file=" + filepath.Join(dir, "none"): "model_file",
	} {
		ps, err := e.Resolve([]string{"overlap=layer", sets})
		if err == nil {
			err = e.Validate(ps)
		}
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want one line with %q", sets, err, want)
		}
	}
	if m := srRun(t, 1, "overlap=layer", "model_file="+noCompute, "duration_s=10").Metrics; m["total_sync"] < 1 {
		t.Errorf("a table without compute: %v syncs", m["total_sync"])
	}
}
