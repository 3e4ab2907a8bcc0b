package summary

import (
	"slices"
	"strings"
	"testing"
)

// TestDropUndefined: a default table leaves out the metrics undefined in
// every row the filters keep, and only those: in the sweep of
// summary_test.go comm_ms and iters each have a NaN but are defined
// elsewhere; an all-NaN column is left out, and so is one whose only
// values the filter removed.
func TestDropUndefined(t *testing.T) {
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(sweep), "\n") {
		v := "NaN"
		switch {
		case i == 0:
			v = "acc"
		case strings.Contains(line, ",allreduce,a,"):
			v = "0.5" // defined for allreduce/a only
		}
		b.WriteString(line + "," + v + ",\n")
	}
	csv := strings.Replace(b.String(), "acc,\n", "acc,tta_s\n", 1)
	d := data(t, csv)
	for _, tc := range []struct {
		name    string
		where   []Filter
		metrics []string
		dropped []string
	}{
		{"every row", nil, []string{"comm_ms", "iters", "acc"}, []string{"tta_s"}},
		{"dssync only", []Filter{{"scheme", []string{"dssync"}}}, []string{"comm_ms", "iters"}, []string{"acc", "tta_s"}},
	} {
		tb, err := d.Summarise(Spec{Where: tc.where, DropUndefined: true})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(tb.Metrics, tc.metrics) || !slices.Equal(tb.Dropped, tc.dropped) {
			t.Errorf("%s: metrics %v, dropped %v; want %v and %v", tc.name, tb.Metrics, tb.Dropped, tc.metrics, tc.dropped)
		}
	}
	tb, err := d.Summarise(Spec{})
	if err != nil || len(tb.Metrics) != 4 {
		t.Errorf("without DropUndefined every metric stays: %v %v", tb.Metrics, err)
	}
	if _, err := d.Summarise(Spec{Metrics: []string{"tta_s"}, DropUndefined: true}); err == nil || !strings.Contains(err.Error(), "undefined in every row") {
		t.Errorf("nothing left to summarise: err = %v", err)
	}
}
