package ina

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"syncsim/experiments"
	"syncsim/experiments/exptest"
	"syncsim/inagg"
	"syncsim/scenarios/internal/inarig"
)

// stressedLeafSpine is tinyLeafSpine with the 1:1 model mix, a switch
// memory of 80 aggregators and 4 KB port buffers: the jobs overflow to the
// PS, PA-ATP's AECN marks results and drops force retransmissions, so
// every per-job counter of the series moves.
var stressedLeafSpine = with(tinyLeafSpine, "model=mix", "gradient_scale=0.0005", "switch_mem_mib=0.02", "buffer_kb=4")

// runSeries runs one checked trial of exp with r.Series set to series.
func runSeries(t *testing.T, exp string, series bool, sets ...string) *experiments.Result {
	t.Helper()
	e := lookup(t, exp)
	ps, err := e.Resolve(sets)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 3, Check: true, Series: series})
	if err != nil {
		t.Fatalf("%s %v: %v", exp, sets, err)
	}
	return res
}

// seriesByName returns the named series of res, failing t if absent.
func seriesByName(t *testing.T, res *experiments.Result, name string) (experiments.Series, map[string]int) {
	t.Helper()
	for _, s := range res.Series {
		if s.Name == name {
			col := map[string]int{}
			for i, c := range s.Columns {
				col[c] = i
			}
			return s, col
		}
	}
	t.Fatalf("no series %q among %d", name, len(res.Series))
	return experiments.Series{}, nil
}

// TestINAJobsSeries checks the jobs series against its definition and
// the run's own metrics: the documented columns; one row per job at
// t = 0, series_us, 2 series_us, ... and at the end of the run, which is
// when the slowest job finished (jobs start at 0, so iterations x its mean
// iteration time); progress and the cumulative counters never decrease
// and progress ends at 1; the windows are ordered min <= mean <= max; the
// NIC share is a fraction; the packets in flight are, at every sample,
// the gradients sent less the retransmissions and the results received
// (every sequence sent once anew and answered by one new result), GACKed
// ones among them, none at the end; and the jobs' drops add up to the
// run's drops of INA kinds.
func TestINAJobsSeries(t *testing.T) {
	cases := []struct {
		exp   string
		sets  []string
		us    float64
		iters float64
	}{
		// No warm-up and no skipped iteration: the rows' grid starts at
		// t = 0 and the jobs end at jct_max_ms x iterations.
		{"ina-leafspine", with(stressedLeafSpine, "bg_warmup_ms=0", "skip_iters=0", "protocol=pa-atp", "series_us=7"), 7, 2},
		{"ina-leafspine", with(stressedLeafSpine, "bg_warmup_ms=0", "skip_iters=0", "protocol=atp", "series_us=25"), 25, 2},
		{"ina-testbed", with(tinyTestbed, "bg_warmup_ms=0", "skip_iters=0", "protocol=strawasyn", "series_us=20"), 20, 2},
		{"ina-testbed", with(tinyTestbed, "bg_warmup_ms=0", "skip_iters=0", "protocol=switchml", "jobs=1", "series_us=50"), 50, 2},
	}
	for _, c := range cases {
		t.Run(c.exp+"/"+c.sets[len(c.sets)-2], func(t *testing.T) {
			res := runSeries(t, c.exp, true, c.sets...)
			s, col := seriesByName(t, res, "jobs")
			if !slices.Equal(s.Columns, inarig.JobsColumns) {
				t.Fatalf("columns %v", s.Columns)
			}
			doc := lookup(t, c.exp).Doc
			for _, name := range s.Columns {
				if !strings.Contains(doc, name) {
					t.Errorf("column %s is not described in the Doc", name)
				}
			}
			jobs := int(res.Metrics["jobs_done"])
			end := res.Metrics["jct_max_ms"] * c.iters
			grid := math.Floor(end*1e3/c.us + 1e-9)
			want := int(grid) + 1
			if math.Abs(grid*c.us-end*1e3) > 1e-6 {
				want++ // a last row at the end, between grid points
			}
			if len(s.Rows) != want*jobs {
				t.Fatalf("%d rows, want %d samples (end %.6f ms, every %g us) x %d jobs", len(s.Rows), want, end, c.us, jobs)
			}
			prev := map[float64][]float64{}
			for i, row := range s.Rows {
				at, job := row[col["t_ms"]], row[col["job"]]
				if k := i / jobs; k < want-1 && math.Abs(at-float64(k)*c.us/1e3) > 1e-9 {
					t.Fatalf("row %d at %v ms, want the grid point %v", i, at, float64(k)*c.us/1e3)
				}
				if job != float64(i%jobs) {
					t.Fatalf("row %d is job %v, want %d", i, job, i%jobs)
				}
				if p := row[col["progress"]]; p < 0 || p > 1 {
					t.Fatalf("row %d progress %v", i, p)
				}
				if lo, m, hi := row[col["cwd_min"]], row[col["cwd_mean"]], row[col["cwd_max"]]; !(lo <= m+1e-9 && m <= hi+1e-9 && lo >= 1) {
					t.Fatalf("row %d windows min %v mean %v max %v", i, lo, m, hi)
				}
				in, gacked := row[col["inflight"]], row[col["inflight_gacked"]]
				if want := row[col["sent"]] - row[col["retransmits"]] - row[col["results"]]; in != want {
					t.Fatalf("row %d: %v in flight, but sent %v - retransmits %v - results %v = %v", i, in, row[col["sent"]], row[col["retransmits"]], row[col["results"]], want)
				}
				if gacked < 0 || gacked > in {
					t.Fatalf("row %d: %v in flight, %v of them GACKed", i, in, gacked)
				}
				if r := row[col["rto_max_us"]]; !(r > 0) {
					t.Fatalf("row %d: rto_max_us %v", i, r)
				}
				if sh := row[col["ina_nic_share"]]; !math.IsNaN(sh) && (sh < 0 || sh > 1) {
					t.Fatalf("row %d NIC share %v", i, sh)
				}
				if a := row[col["awd_mean"]]; inagg.Protocol(row[col["protocol"]]).AsyncLimited() != !math.IsNaN(a) {
					t.Fatalf("row %d awd_mean %v for protocol %v", i, a, row[col["protocol"]])
				}
				if p := prev[job]; p != nil {
					for _, name := range []string{"t_ms", "progress", "results", "iteration", "ecn_cuts", "awd_cuts", "aecn_marks", "overflow", "retransmits", "timeouts",
						"sent", "pulls", "drops"} {
						if row[col[name]] < p[col[name]] {
							t.Fatalf("job %v: %s fell from %v to %v at %v ms", job, name, p[col[name]], row[col[name]], at)
						}
					}
				}
				prev[job] = row
			}
			if math.Abs(s.Rows[len(s.Rows)-1][col["t_ms"]]-end) > 1e-6 {
				t.Errorf("last row at %v ms, the run ended at %v ms", s.Rows[len(s.Rows)-1][col["t_ms"]], end)
			}
			var retx, over, aecn, drops float64
			for job, row := range prev {
				if row[col["progress"]] != 1 || row[col["iteration"]] != c.iters || row[col["inflight"]] != 0 {
					t.Errorf("job %v ends at progress %v, iteration %v, %v in flight", job, row[col["progress"]], row[col["iteration"]], row[col["inflight"]])
				}
				retx += row[col["retransmits"]]
				over += row[col["overflow"]]
				aecn += row[col["aecn_marks"]]
				drops += row[col["drops"]]
			}
			if ina := res.Metrics["drops"] - res.Metrics["drops_background"] - res.Metrics["drops_other"]; drops != ina {
				t.Errorf("the jobs' last rows add up to %v drops, the run's INA drops are %v", drops, ina)
			}
			if c.exp == "ina-leafspine" && drops == 0 {
				t.Errorf("no job packet dropped on the stressed leaf-spine: the drops column is not checked")
			}
			if retx != res.Metrics["retransmits"] || over != res.Metrics["overflow_pkts"] || aecn != res.Metrics["aecn_marks"] {
				t.Errorf("last rows sum to %v retransmits, %v overflow, %v aecn; the run %v, %v, %v",
					retx, over, aecn, res.Metrics["retransmits"], res.Metrics["overflow_pkts"], res.Metrics["aecn_marks"])
			}
		})
	}
}

// TestINAJobSummary checks the job_summary rows against the run's totals
// and the placement: one row per job, counters adding up to retransmits,
// worker_timeouts, overflow_pkts and aecn_marks, the mean iteration times
// averaging to ajct_ms, model=mix alternating ResNet50 and VGG19, and the
// stressed run moving every counter.
func TestINAJobSummary(t *testing.T) {
	res := runSeries(t, "ina-leafspine", true, with(stressedLeafSpine, "protocol=pa-atp", "jobs=3")...)
	s, col := seriesByName(t, res, "job_summary")
	if !slices.Equal(s.Columns, inarig.SummaryColumns) {
		t.Fatalf("columns %v", s.Columns)
	}
	if len(s.Rows) != 3 {
		t.Fatalf("%d rows, want one per job", len(s.Rows))
	}
	for _, name := range s.Columns {
		if !strings.Contains(lookup(t, "ina-leafspine").Doc, name) {
			t.Errorf("column %s is not described in the Doc", name)
		}
	}
	models := inarig.ModelChoices()
	sum := map[string]float64{}
	for i, row := range s.Rows {
		want := "resnet50"
		if i%2 == 1 {
			want = "vgg19"
		}
		if got := models[int(row[col["model"]])]; got != want || row[col["job"]] != float64(i) {
			t.Errorf("row %d: job %v model %s, want job %d model %s", i, row[col["job"]], got, i, want)
		}
		if row[col["protocol"]] != float64(inagg.PAATP) || row[col["workers"]] != 3 || row[col["done"]] != 1 || row[col["iterations_done"]] != 2 {
			t.Errorf("row %d: %v", i, row)
		}
		if l := row[col["ps_leaf"]]; l != 0 && l != 1 {
			t.Errorf("row %d: PS leaf %v of 2", i, l)
		}
		for _, name := range []string{"retransmits", "timeouts", "overflow", "aecn_marks", "mean_iter_ms", "ecn_cuts"} {
			sum[name] += row[col[name]]
		}
	}
	for name, metric := range map[string]string{"retransmits": "retransmits", "timeouts": "worker_timeouts", "overflow": "overflow_pkts", "aecn_marks": "aecn_marks"} {
		if sum[name] != res.Metrics[metric] {
			t.Errorf("summary %s adds up to %v, the run's %s is %v", name, sum[name], metric, res.Metrics[metric])
		}
		if sum[name] == 0 {
			t.Errorf("no %s in the stressed run: the check exercises nothing", name)
		}
	}
	if d := sum["mean_iter_ms"]/3 - res.Metrics["ajct_ms"]; math.Abs(d) > 1e-9 {
		t.Errorf("mean iteration times average to %v, ajct_ms %v", sum["mean_iter_ms"]/3, res.Metrics["ajct_ms"])
	}
}

// TestINASeriesLeaveResultsAlone: sampling only reads state, so every
// metric but events is identical with and without --series-dir, events
// grows by the samples alone, and without it no series is produced.
func TestINASeriesLeaveResultsAlone(t *testing.T) {
	cases := []struct {
		exp  string
		sets []string
	}{
		{"ina-leafspine", with(stressedLeafSpine, "protocol=pa-atp", "series_us=3")},
		{"ina-leafspine", with(stressedLeafSpine, "protocol=switchml", "series_us=3")},
		{"ina-testbed", with(tinyTestbed, "protocol=atp", "load=0.6", "buffer_kb=8", "series_us=1")},
		{"ina-testbed", with(tinyTestbed, "protocol=byteps", "jobs=1", "series_us=1")},
		// Idle and lossy: the drop hook and the in-flight scan at every sample.
		{"ina-leafspine", with(stressedLeafSpine, "protocol=atp", "load=0", "buffer_kb=3", "series_us=2")},
		{"ina-leafspine", with(stressedLeafSpine, "protocol=strawasyn", "load=0", "series_us=2")},
	}
	for _, c := range cases {
		t.Run(c.exp+"/"+c.sets[len(c.sets)-2], func(t *testing.T) {
			off := runSeries(t, c.exp, false, c.sets...)
			on := runSeries(t, c.exp, true, c.sets...)
			if len(off.Series) != 0 {
				t.Fatalf("%d series without r.Series", len(off.Series))
			}
			for k, v := range off.Metrics {
				if w := on.Metrics[k]; k != "events" && v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
					t.Errorf("%s: %v without series, %v with", k, v, w)
				}
			}
			jobs, _ := seriesByName(t, on, "jobs")
			summary, _ := seriesByName(t, on, "job_summary")
			samples := uint64(len(jobs.Rows) / len(summary.Rows))
			for _, s := range on.Series {
				if s.Name == "fabric_util" {
					samples += uint64(len(s.Rows)) // the fabric sampler's events
				}
			}
			// Every sample but a last one off the grid is an event; the
			// one on a grid point at the very end may not have fired.
			if extra := on.Events - off.Events; extra > samples || extra+2 < samples {
				t.Errorf("series added %d events for %d samples", extra, samples)
			}
		})
	}
}

// seriesRun runs one trial of exp (seed 3) through the harness with series on
// (exptest.SeriesRun).
func seriesRun(t *testing.T, exp string, stream bool, sets ...string) (*experiments.Outcome, string) {
	t.Helper()
	return exptest.SeriesRun(t, lookup(t, exp), 3, stream, sets...)
}

// TestINASeriesStreamed: with a series directory the rig's per-sample
// series (jobs, fabric_util) are written as the run takes them: the
// result holds none of their rows however long the run (4x the
// iterations here), only the end-of-run series: job_summary's one row per
// job, drop_books' one per tier and drop_ports' one per port that dropped;
// the files and manifest are byte for
// byte those of the same run built in memory.
func TestINASeriesStreamed(t *testing.T) {
	rows := map[string]int{}
	for _, iters := range []string{"iterations=2", "iterations=8"} {
		sets := with(tinyTestbed, "protocol=pa-atp", "series_us=20", "sample_us=20", "bg_warmup_ms=0", iters)
		streamed, sdir := seriesRun(t, "ina-testbed", true, sets...)
		kept, mdir := seriesRun(t, "ina-testbed", false, sets...)
		for _, s := range streamed.Result.Series {
			end := map[string]int{"job_summary": 2, "drop_books": len(inarig.TierNames), "drop_ports": 1 << 10} // rows per job, per tier, per port
			if held := len(s.Rows); held > end[s.Name] {
				t.Errorf("%s: the streamed run holds %d rows of %s", iters, held, s.Name)
			}
		}
		names, _ := filepath.Glob(filepath.Join(mdir, "*"))
		if len(names) != 6 {
			t.Fatalf("%s: %d files, want the manifest, jobs, job_summary, drop_books, drop_ports and fabric_util", iters, len(names))
		}
		for _, p := range names {
			want, _ := os.ReadFile(p)
			got, err := os.ReadFile(filepath.Join(sdir, filepath.Base(p)))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: %s differs when streamed (%v)", iters, filepath.Base(p), err)
			}
		}
		for _, s := range kept.Result.Series {
			rows[iters+"/"+s.Name] = len(s.Rows)
		}
	}
	t.Logf("rows kept in memory: %v", rows)
	for _, name := range []string{"jobs", "fabric_util"} {
		if short, long := rows["iterations=2/"+name], rows["iterations=8/"+name]; short == 0 || long < 3*short {
			t.Errorf("%s: %d rows at 2 iterations, %d at 8: the longer run should have about 4x", name, short, long)
		}
	}
}
