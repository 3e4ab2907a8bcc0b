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
		{1e21, "1e+21"}, {123456789, "1.23456789e+08"}, {math.NaN(), "NaN"},
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
	pts, _, _ := Expand(e, nil, []string{"n=1,2"})
	r := &Runner{Exp: e, Points: pts, Trials: 2, Parallel: 2, Series: true}
	err := r.Run(context.Background(), func(o *Outcome) error { return WriteSeries(dir, e.Name, o) })
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
	if len(entries) != 4 {
		t.Errorf("%d series files, want 4 (2 points x 2 trials)", len(entries))
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
			o := &Outcome{Result: &Result{Series: []Series{tc.s}}}
			err := WriteSeries(dir, "toy", o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	o := &Outcome{Result: &Result{Series: []Series{{Name: "q", Columns: []string{"a"}}, {Name: "q", Columns: []string{"b"}}}}}
	if err := WriteSeries(dir, "toy", o); err == nil || !strings.Contains(err.Error(), `two series named "q"`) {
		t.Errorf("duplicate series name: err = %v", err)
	}
	o = &Outcome{Result: &Result{Series: []Series{{Name: "q", Columns: []string{"a"}}}}}
	if err := WriteSeries(filepath.Join(dir, "missing"), "toy", o); err == nil {
		t.Error("missing directory not reported")
	}
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
	f, rs, header, err := OpenResume(path, e, false)
	if err != nil {
		t.Fatal(err)
	}
	if header || rs.Rows() != 3 {
		t.Fatalf("header %v rows %d, want false 3", header, rs.Rows())
	}
	pts, _, _ := Expand(e, nil, []string{"n=1,2,3"})
	r := &Runner{Exp: e, Points: pts, Trials: 2, BaseSeed: 9, Parallel: 2,
		Skip: func(_, trial int, ps Params, seed uint64) bool { return rs.Has(ps, trial, seed) }}
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

func TestResumeNewFileAndMismatch(t *testing.T) {
	e := toyExperiment()
	path := filepath.Join(t.TempDir(), "new.csv")
	f, rs, header, err := OpenResume(path, e, false)
	if err != nil || !header || rs.Rows() != 0 {
		t.Fatalf("new file: header %v err %v", header, err)
	}
	f.Close()
	if err := os.WriteFile(path, []byte("experiment,other\nx,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := OpenResume(path, e, false); err == nil || !strings.Contains(err.Error(), "header differs") {
		t.Errorf("mismatched header: err = %v", err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := OpenResume(path, e, false); err == nil || !strings.Contains(err.Error(), "no complete header") {
		t.Errorf("headerless file: err = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "x" {
		t.Errorf("refused file was modified: %q", data)
	}
	h := strings.Join(CSVHeader(e, false), ",")
	if err := os.WriteFile(path, []byte(h+"\nother,1,0.5,fast,0,0,0,1,1,1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := OpenResume(path, e, false); err == nil || !strings.Contains(err.Error(), `"other"`) {
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
