package experiments

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestFormatFloat(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {1.5, "1.5"}, {-2, "-2"}, {0.30000000000000004, "0.30000000000000004"}, {1.0 / 3, "0.3333333333333333"},
		{1e21, "1e+21"}, {123456789, "123456789"}, {1679996, "1679996"}, {math.Copysign(0, -1), "0"},
		{1 << 53, "9.007199254740992e+15"}, {(1 << 53) - 1, "9007199254740991"}, {-3e6, "-3000000"},
		{1679996.5, "1.6799965e+06"}, {math.NaN(), "NaN"},
		{math.Inf(1), "Inf"}, {math.Inf(-1), "-Inf"},
	} {
		if got := FormatFloat(tc.v); got != tc.want {
			t.Errorf("FormatFloat(%v) = %q, want %q", tc.v, got, tc.want)
		}
		// Finite values read back exactly.
		if !math.IsNaN(tc.v) && !math.IsInf(tc.v, 0) {
			if back, _ := strconv.ParseFloat(FormatFloat(tc.v), 64); back != tc.v {
				t.Errorf("%v does not round-trip", tc.v)
			}
		}
	}
}

func TestCSVRowWithNaNAndTiming(t *testing.T) {
	e := toyExperiment()
	ps, _ := e.Resolve([]string{"mode=undef", "n=2"})
	res := e.NewResult()
	res.Metrics["end_us"] = 12.5
	delete(res.Metrics, "mean_gap_us") // missing counts as undefined
	res.Events = 300
	var buf bytes.Buffer
	w := NewCSVWriter(&buf, e, true)
	if err := w.WriteHeader(); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(&Outcome{Point: 0, Trial: 3, Params: ps, Seed: 10, Result: res, Wall: 1500 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	want := "experiment,n,load,mode,fail_n,panic_n,trial,seed,end_us,mean_gap_us,maybe,wall_s,events_per_s\n" +
		"toy-runner,2,0.5,undef,0,0,3,10,12.5,NaN,NaN,1.5,200\n"
	if buf.String() != want {
		t.Errorf("CSV\n%s\nwant\n%s", buf.String(), want)
	}
	if w.Rows() != 1 {
		t.Errorf("Rows = %d", w.Rows())
	}
}

// failWriter accepts n bytes and then fails, like a full disk.
type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, os.ErrClosed
	}
	f.n -= len(p)
	return len(p), nil
}

func TestCSVWriteErrorIsReported(t *testing.T) {
	e := toyExperiment()
	w := NewCSVWriter(&failWriter{n: 10}, e, false)
	if err := w.WriteHeader(); err == nil {
		t.Error("write error not reported")
	}
}

func TestSeriesFiles(t *testing.T) {
	e := toyExperiment()
	dir := t.TempDir()
	pts, _ := Expand(e, nil, []string{"n=1,2"})
	r := &Runner{Exp: e, Points: pts, Trials: 2, Parallel: 2, Series: true}
	err := r.Run(context.Background(), func(o *Outcome) error { _, err := WriteSeries(dir, e.Name, o); return err })
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "toy-runner_1_0_events.csv")
	if SeriesPath(dir, e.Name, 1, 0, "events") != path {
		t.Errorf("SeriesPath = %s", SeriesPath(dir, e.Name, 1, 0, "events"))
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// n=2 runs 16 events; their times increase.
	if len(recs) != 17 || strings.Join(recs[0], ",") != "index,time_us" {
		t.Fatalf("series has %d lines, header %v", len(recs), recs[0])
	}
	prev := -1.0
	for _, rec := range recs[1:] {
		v, _ := strconv.ParseFloat(rec[1], 64)
		if v < prev {
			t.Errorf("time_us decreases: %v after %v", v, prev)
		}
		prev = v
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 8 {
		t.Errorf("%d files, want 4 series and 4 manifests (2 points x 2 trials)", len(entries))
	}
	for p := 0; p < 2; p++ {
		for tr := 0; tr < 2; tr++ {
			if err := SeriesComplete(dir, e.Name, p, tr, uint64(tr)); err != nil {
				t.Errorf("point %d trial %d: %v", p, tr, err)
			}
		}
	}
	man, err := os.ReadFile(ManifestPath(dir, e.Name, 1, 1))
	if err != nil || !strings.Contains(string(man), `"seed": 1`) || !strings.Contains(string(man), `"value": "2"`) ||
		!strings.Contains(string(man), `"file": "toy-runner_1_1_events.csv"`) {
		t.Errorf("manifest of point 1 trial 1: %v\n%s", err, man)
	}
	// A series cut short (a kill while it was written by an older
	// version) or missing makes the run incomplete.
	if err := os.WriteFile(SeriesPath(dir, e.Name, 1, 1, "events"), []byte("index,time_us\n0,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SeriesComplete(dir, e.Name, 1, 1, 1); err == nil || !strings.Contains(err.Error(), "lines") {
		t.Errorf("truncated series: %v", err)
	}
	if err := SeriesComplete(dir, e.Name, 1, 1, 7); err == nil {
		t.Error("manifest of another seed accepted")
	}
	os.Remove(ManifestPath(dir, e.Name, 0, 1))
	if err := SeriesComplete(dir, e.Name, 0, 1, 1); err == nil || !strings.Contains(err.Error(), "no manifest") {
		t.Errorf("missing manifest: %v", err)
	}
}

func TestSeriesErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		s    Series
		want string
	}{
		{"path in name", Series{Name: "../x", Columns: []string{"a"}}, "series name"},
		{"no columns", Series{Name: "q"}, "no columns"},
		{"ragged row", Series{Name: "q", Columns: []string{"a", "b"}, Rows: [][]float64{{1}}}, "row 0 has 1 values for 2 columns"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &Outcome{Params: toyExperiment().Defaults(), Result: &Result{Series: []Series{tc.s}}}
			_, err := WriteSeries(dir, "toy", o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	ps := toyExperiment().Defaults()
	o := &Outcome{Params: ps, Result: &Result{Series: []Series{{Name: "q", Columns: []string{"a"}}, {Name: "q", Columns: []string{"b"}}}}}
	if _, err := WriteSeries(dir, "toy", o); err == nil || !strings.Contains(err.Error(), `two series named "q"`) {
		t.Errorf("duplicate series name: err = %v", err)
	}
	o = &Outcome{Params: ps, Result: &Result{Series: []Series{{Name: "q", Columns: []string{"a"}}}}}
	if _, err := WriteSeries(filepath.Join(dir, "missing"), "toy", o); err == nil {
		t.Error("missing directory not reported")
	}
}

// toySweep is the sweep of toyExperiment over varies with trials and seed.
func toySweep(t *testing.T, varies []string, trials int, seed uint64) *Sweep {
	t.Helper()
	g, err := Expand(toyExperiment(), nil, varies)
	if err != nil {
		t.Fatal(err)
	}
	return &Sweep{Grid: g, Seed: seed, Trials: trials}
}

func TestResumeCompletesInterruptedCSV(t *testing.T) {
	e := toyExperiment()
	full, err := sweepCSV(t, e, nil, []string{"n=1,2,3"}, 2, 2, 9)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(full, "\n")
	// An interrupted run: header, three rows and half of the fourth.
	partial := strings.Join(lines[:4], "") + lines[4][:5]
	path := filepath.Join(t.TempDir(), "out.csv")
	if err := os.WriteFile(path, []byte(partial), 0o644); err != nil {
		t.Fatal(err)
	}
	sw := toySweep(t, []string{"n=1,2,3"}, 2, 9)
	f, rs, header, err := OpenResume(path, sw, nil)
	if err != nil {
		t.Fatal(err)
	}
	if header || rs.Rows() != 3 {
		t.Fatalf("header %v rows %d, want false 3", header, rs.Rows())
	}
	r := &Runner{Exp: sw.Grid.Experiment(), Points: sw.Grid, Trials: 2, BaseSeed: 9, Parallel: 2, Done: rs.Done, DoneCount: rs.Rows()}
	if r.Total() != 3 {
		t.Errorf("Total = %d, want the 3 missing rows", r.Total())
	}
	w := NewCSVWriter(f, e, false)
	if err := r.Run(context.Background(), w.Write); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got, _ := os.ReadFile(path)
	if string(got) != full {
		t.Errorf("resumed CSV\n%s\nwant\n%s", got, full)
	}
}

// TestResumeRefusesAnotherSweep: rows written with other parameters,
// seeds or trials, or out of grid order, are named and the file is left
// alone.
func TestResumeRefusesAnotherSweep(t *testing.T) {
	e := toyExperiment()
	full, err := sweepCSV(t, e, []string{"load=0.25"}, []string{"n=1,2,3"}, 2, 1, 9)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(full, "\n")
	swap := lines[0] + lines[2] + lines[1]
	for _, tc := range []struct {
		name   string
		file   string
		sw     *Sweep
		loadTo string
		want   string
	}{
		{"other --set", full, toySweep(t, []string{"n=1,2,3"}, 2, 9), "", "load=0.25 where this sweep has load=0.5"},
		{"other --vary", full, toySweep(t, []string{"n=1,3"}, 2, 9), "0.25", "n=2, which this sweep does not vary over (--vary n=1,3)"},
		{"other --seed", full, toySweep(t, []string{"n=1,2,3"}, 2, 4), "0.25", "has seed 9 for trial 0, where this sweep (--seed 4) has 4"},
		{"fewer --trials", full, toySweep(t, []string{"n=1,2,3"}, 1, 9), "0.25", "has trial 1 but this sweep has --trials 1"},
		{"out of order", swap, toySweep(t, []string{"n=1,2,3"}, 2, 9), "0.25", "has trial 1 where this sweep has trial 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.loadTo != "" {
				g, _ := Expand(e, []string{"load=" + tc.loadTo}, AxisSpecs(tc.sw.Grid.Axes()))
				tc.sw.Grid = g
			}
			path := filepath.Join(t.TempDir(), "out.csv")
			if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, _, err := OpenResume(path, tc.sw, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
			if data, _ := os.ReadFile(path); string(data) != tc.file {
				t.Error("the refused file was modified")
			}
		})
	}
}

// TestResumeChecksSidecar: a sidecar names the difference even before a
// row is written.
func TestResumeChecksSidecar(t *testing.T) {
	e := toyExperiment()
	path := filepath.Join(t.TempDir(), "out.csv")
	g1, _ := Expand(e, []string{"mode=slow"}, []string{"n=1,2"})
	g2, _ := Expand(e, []string{"mode=fast"}, []string{"n=1,2"})
	prog := Program{Name: "syncsim", Version: "test"}
	if err := WriteSidecar(path, NewProvenance(prog, nil, g1, 1, 2, false)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(CSVHeader(e, false), ",")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, _, err := OpenResume(path, &Sweep{Grid: g2, Seed: 1, Trials: 2}, NewProvenance(prog, nil, g2, 1, 2, false))
	if err == nil || !strings.Contains(err.Error(), "mode=slow, not mode=fast") {
		t.Errorf("err = %v", err)
	}
	_, _, _, err = OpenResume(path, &Sweep{Grid: g1, Seed: 1, Trials: 3}, NewProvenance(prog, nil, g1, 1, 3, false))
	if err == nil || !strings.Contains(err.Error(), "--trials 2, not 3") {
		t.Errorf("err = %v", err)
	}
	f, _, _, err := OpenResume(path, &Sweep{Grid: g1, Seed: 1, Trials: 2}, NewProvenance(prog, nil, g1, 1, 2, false))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestResumeNewFileAndMismatch(t *testing.T) {
	e := toyExperiment()
	sw := toySweep(t, nil, 1, 1)
	path := filepath.Join(t.TempDir(), "new.csv")
	f, rs, header, err := OpenResume(path, sw, nil)
	if err != nil || !header || rs.Rows() != 0 {
		t.Fatalf("new file: header %v err %v", header, err)
	}
	f.Close()
	if err := os.WriteFile(path, []byte("experiment,other\nx,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := OpenResume(path, sw, nil); err == nil || !strings.Contains(err.Error(), "header differs") {
		t.Errorf("mismatched header: err = %v", err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := OpenResume(path, sw, nil); err == nil || !strings.Contains(err.Error(), "no complete header") {
		t.Errorf("headerless file: err = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "x" {
		t.Errorf("refused file was modified: %q", data)
	}
	h := strings.Join(CSVHeader(e, false), ",")
	if err := os.WriteFile(path, []byte(h+"\nother,1,0.5,fast,0,0,0,1,1,1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := OpenResume(path, sw, nil); err == nil || !strings.Contains(err.Error(), `"other"`) {
		t.Errorf("foreign row: err = %v", err)
	}
}

func TestSummarize(t *testing.T) {
	e := toyExperiment()
	mk := func(end, gap float64) *Outcome {
		res := e.NewResult()
		res.Metrics["end_us"] = end
		res.Metrics["mean_gap_us"] = gap
		return &Outcome{Result: res}
	}
	outs := []*Outcome{mk(3, 1), mk(1, math.NaN()), mk(math.NaN(), 5), mk(2, 2)}
	s := Summarize(e, outs)
	if len(s) != 3 {
		t.Fatalf("%d summaries", len(s))
	}
	check := func(i int, med, lo, hi float64, def int) {
		t.Helper()
		if s[i].Median != med || s[i].Min != lo || s[i].Max != hi || s[i].Defined != def || s[i].Trials != 4 {
			t.Errorf("%s: %+v, want median %v [%v, %v] defined %d/4", s[i].Metric.Name, s[i], med, lo, hi, def)
		}
	}
	check(0, 2, 1, 3, 3) // end_us: {3, 1, 2}
	check(1, 2, 1, 5, 3) // mean_gap_us: {1, 5, 2}
	if s[2].Defined != 0 || !math.IsNaN(s[2].Median) {
		t.Errorf("maybe: %+v, want undefined", s[2])
	}
	if s2 := Summarize(e, outs[:2]); s2[0].Median != 2 {
		t.Errorf("median of {3, 1} = %v, want 2", s2[0].Median)
	}
}

// TestSeriesTimesHaveNoResidue: a column in a time unit is written at
// picosecond resolution (simulated times are whole picoseconds), so the
// binary residue of a conversion does not reach the file; other columns
// are written as they are.
func TestSeriesTimesHaveNoResidue(t *testing.T) {
	dir := t.TempDir()
	o := &Outcome{Params: toyExperiment().Defaults(), Result: &Result{Series: []Series{{
		Name:    "q",
		Columns: []string{"time_ms", "end_s", "rate_per_s", "value"},
		Rows:    [][]float64{{10.030000000000001, 0.30000000000000004, 0.30000000000000004, 0.30000000000000004}, {1e9, 2, 3, 4}},
	}}}}
	if _, err := WriteSeries(dir, "toy", o); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(SeriesPath(dir, "toy", 0, 0, "q"))
	want := "time_ms,end_s,rate_per_s,value\n10.03,0.3,0.30000000000000004,0.30000000000000004\n1000000000,2,3,4\n"
	if string(data) != want {
		t.Errorf("series file\n%s\nwant\n%s", data, want)
	}
}
