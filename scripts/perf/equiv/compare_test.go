package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func seq(from, n float64) []float64 {
	out := make([]float64, int(n))
	for i := range out {
		out[i] = from + float64(i)
	}
	return out
}

func plus(x []float64, d float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v + d
	}
	return out
}

// TestRuleHandWorked checks the rule on samples whose statistics are
// worked by hand.
func TestRuleHandWorked(t *testing.T) {
	r := Rule{Alpha: 0.01, ConstTol: 1e-9, Ignore: map[string]bool{"events": true}}
	old := seq(1, 10) // Tukey's hinges: Q1 = 3 (median of 1..5), Q3 = 8 (median of 6..10), IQR 5
	nan := math.NaN()

	// Every new value above every old one: U = 0, and the exact
	// two-sided p-value is 2 / C(20, 10) = 2 / 184756; the paired
	// shift 20 exceeds the IQR 5.
	v := r.Compare("p", "e", "m", old, plus(old, 20))
	if v.Verdict != verdictFail || v.Kind != kindVarying || v.Shift != 20 || v.OldIQR != 5 ||
		math.Abs(v.P-2.0/184756) > 1e-12 || v.OldMedian != 5.5 || v.NewMedian != 25.5 {
		t.Fatalf("shift 20: %+v", v)
	}
	// The median relative change seed by seed: (20/1, 20/2, ...,
	// 20/10), median (20/5 + 20/6) / 2.
	if want := (20.0/5 + 20.0/6) / 2; math.Abs(v.RelShift-want) > 1e-12 {
		t.Fatalf("relative shift %v, want %v", v.RelShift, want)
	}
	// A shift of 1 stays within the spread, whatever the ranks say.
	if v := r.Compare("p", "e", "m", old, plus(old, 1)); v.Verdict != verdictPass || v.Shift != 1 {
		t.Fatalf("shift 1: %+v", v)
	}
	// A paired shift above the IQR (six seeds +6, four -6: median 6)
	// between samples that overlap: the U test does not call them
	// different, so it passes.
	mixed := []float64{7, 8, 9, 10, 11, 12, 1, 2, 3, 4}
	if v := r.Compare("p", "e", "m", old, mixed); v.Verdict != verdictPass || v.Shift != 6 || v.P < 0.01 {
		t.Fatalf("overlapping shift: %+v", v)
	}
	// The same build twice: no shift, p = 1.
	if v := r.Compare("p", "e", "m", old, old); v.Verdict != verdictPass || v.Shift != 0 || v.P != 1 {
		t.Fatalf("identical: %+v", v)
	}
	// Constant across seeds: equal within the tolerance passes, a
	// change on one seed fails.
	five := []float64{5, 5, 5, 5, 5, 5}
	if v := r.Compare("p", "e", "m", five, plus(five, 1e-10)); v.Verdict != verdictPass || v.Kind != kindConstant {
		t.Fatalf("constant within tolerance: %+v", v)
	}
	moved := []float64{5, 5, 5, 5, 5, 5.0001}
	if v := r.Compare("p", "e", "m", five, moved); v.Verdict != verdictFail || !strings.Contains(v.Reason, "1 of 6") {
		t.Fatalf("constant moved on one seed: %+v", v)
	}
	// Undefined on a seed in one build only fails; on every seed in
	// both, it is reported as undefined.
	if v := r.Compare("p", "e", "m", []float64{1, 2, nan}, []float64{1, 2, 3}); v.Verdict != verdictFail {
		t.Fatalf("NaN in one build: %+v", v)
	}
	if v := r.Compare("p", "e", "m", []float64{nan, nan}, []float64{nan, nan}); v.Verdict != verdictPass || v.Kind != kindUndefined {
		t.Fatalf("NaN in both: %+v", v)
	}
	// Seeds undefined in both builds are left out of the statistics.
	if v := r.Compare("p", "e", "m", append(old, nan), append(plus(old, 20), nan)); v.Seeds != 10 || v.Verdict != verdictFail {
		t.Fatalf("a NaN seed in both: %+v", v)
	}
	// An ignored metric is reported, never judged.
	if v := r.Compare("p", "e", "events", old, plus(old, 20)); v.Verdict != verdictInfo || v.Shift != 20 {
		t.Fatalf("ignored: %+v", v)
	}
}

// TestReadSweep reads a sweep's CSV: the metrics are the columns after
// trial and seed, rows are matched by seed, NaN cells read as NaN.
func TestReadSweep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.csv")
	csv := "experiment,a,trial,seed,x,y\n" +
		"e,1,1,2,3.5,NaN\n" +
		"e,1,0,1,1.5,7\n"
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	sw, err := readSweep(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(sw.Metrics, ",") != "x,y" || len(sw.Seeds) != 2 || sw.Seeds[0] != 1 {
		t.Fatalf("metrics %v seeds %v", sw.Metrics, sw.Seeds)
	}
	if x := sw.column("x", sw.Seeds); x[0] != 1.5 || x[1] != 3.5 {
		t.Fatalf("x = %v", x)
	}
	if y := sw.column("y", sw.Seeds); y[0] != 7 || !math.IsNaN(y[1]) {
		t.Fatalf("y = %v", y)
	}
	if z := sw.column("z", sw.Seeds); !math.IsNaN(z[0]) {
		t.Fatalf("a missing metric reads %v", z)
	}
	bad := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(bad, []byte("experiment,seed,x\ne,1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readSweep(bad); err == nil || !strings.Contains(err.Error(), "trial and seed") {
		t.Fatalf("a CSV without trial, seed: %v", err)
	}
}

// TestArgs: flags before or after the two binaries; bad input is one
// line and exit status 2.
func TestArgs(t *testing.T) {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var errs strings.Builder
	o, err := parse([]string{bin, "-seeds", "4", bin, "-panel", "ci"}, &errs)
	if err != nil || o.seeds != 4 || o.panel != "ci" || o.old != bin || o.new != bin || !o.rule.Ignore["events"] {
		t.Fatalf("parse: %+v %v", o, err)
	}
	for _, args := range [][]string{
		{bin},
		{bin, bin, "-seeds", "1"},
		{bin, bin, "-seeds", "30"},
		{bin, "/no/such/binary"},
		{bin, bin, "-alpha", "0"},
		{bin, bin, "-panel", "huge"},
		{bin, bin, "-points", "incast,nope"},
	} {
		var out, errs strings.Builder
		if code := run(args, &out, &errs); code != 2 || !strings.Contains(errs.String(), "equiv") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs.String())
		}
	}
}
