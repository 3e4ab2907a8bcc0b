package summary

import (
	"math"
	"strings"
	"testing"
)

// shuffled is a sweep whose rows are not in seed order (as after a
// merge of shards or a resumed sweep): the baseline allreduce has seeds
// 1, 2, 3 in order, dssync has them as 3, 1, 4, 2, and seed 4 (a trial
// the baseline lacks, as when one point's sweep was extended) has no
// partner.
const shuffled = `experiment,scheme,trial,seed,comm_ms
x,allreduce,0,1,100
x,allreduce,1,2,200
x,allreduce,2,3,400
x,dssync,2,3,100
x,dssync,0,1,50
x,dssync,3,4,999
x,dssync,1,2,150
`

// TestChangesPairBySeed: paired changes match rows by seed, never by
// their position in the file. Worked by hand: dssync / allreduce seed by
// seed is 50/100 = 0.5, 150/200 = 0.75, 100/400 = 0.25 (seed 4 has no
// baseline), median 0.5 [0.25-0.75] over 3 of the 4 seeds either side
// has; --of allreduce over dssync is the inverse, 2, 1.333, 4. Pairing
// by position would give 100/100, 50/200, 999/400 (median 1).
func TestChangesPairBySeed(t *testing.T) {
	d := data(t, shuffled)
	for _, tc := range []struct {
		name           string
		compare        Compare
		change         Change
		median, lo, hi float64
		n, of          int
		other, base    string
	}{
		{"vs ratio", Compare{Params: []string{"scheme"}, Values: []string{"allreduce"}}, Ratio, 0.5, 0.25, 0.75, 3, 4, "dssync", "allreduce"},
		{"vs percent", Compare{Params: []string{"scheme"}, Values: []string{"allreduce"}}, Percent, -50, -75, -25, 3, 4, "dssync", "allreduce"},
		{"of ratio", Compare{Params: []string{"scheme"}, Values: []string{"allreduce"}, Of: true}, Ratio, 2, 4.0 / 3, 4, 3, 4, "dssync", "allreduce"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmp := tc.compare
			tb, err := d.Summarise(Spec{Metrics: []string{"comm_ms"}, Compare: &cmp, Change: tc.change})
			if err != nil {
				t.Fatal(err)
			}
			if len(tb.Rows) != 1 || len(tb.Rows[0].Changes) != 1 || len(tb.Rows[0].Changes[0]) != 1 {
				t.Fatalf("want one row with one change, got %+v", tb.Rows)
			}
			if tb.Base != tc.base || len(tb.Others) != 1 || tb.Others[0] != tc.other {
				t.Fatalf("baseline %q against %v, want %q against %q", tb.Base, tb.Others, tc.base, tc.other)
			}
			got := tb.Rows[0].Changes[0][0]
			if got.N != tc.n || got.Of != tc.of {
				t.Errorf("change over %d of %d seeds, want %d of %d", got.N, got.Of, tc.n, tc.of)
			}
			for _, c := range []struct {
				what      string
				got, want float64
			}{{"median", got.Median, tc.median}, {"min", got.Min, tc.lo}, {"max", got.Max, tc.hi}} {
				if math.Abs(c.got-c.want) > 1e-12*math.Abs(c.want) {
					t.Errorf("%s %v, want %v", c.what, c.got, c.want)
				}
			}
		})
	}
}

// TestChangesIgnoreRowOrder: reordering a file's rows (seed 4 first,
// the baseline last) changes nothing in the summary.
func TestChangesIgnoreRowOrder(t *testing.T) {
	reordered := `experiment,scheme,trial,seed,comm_ms
x,dssync,3,4,999
x,dssync,1,2,150
x,dssync,0,1,50
x,allreduce,2,3,400
x,dssync,2,3,100
x,allreduce,1,2,200
x,allreduce,0,1,100
`
	spec := Spec{Metrics: []string{"comm_ms"}, Compare: &Compare{Params: []string{"scheme"}, Values: []string{"allreduce"}}}
	// The value columns come in order of first appearance; the cells and
	// the change do not move.
	for name, csv := range map[string]string{"shuffled": shuffled, "reordered": reordered} {
		got := markdown(t, data(t, csv), spec, Style{})
		for _, cell := range []string{"| 200 [100-400] (3 trials) |", "| 125 [50-999] |", "| 0.500 [0.250-0.750] (3 of 4 seeds) |"} {
			if !strings.Contains(got, cell) {
				t.Errorf("%s: no cell %s in\n%s", name, cell, got)
			}
		}
	}
}

// TestEveryFilterRestricts: two --where on different parameters must
// both hold. In the sweep of summary_test.go, scheme=dssync and model=b
// leave dssync/b's three trials (150, 105, 133), in either order; either
// filter alone leaves two points.
func TestEveryFilterRestricts(t *testing.T) {
	d := data(t, sweep)
	scheme := Filter{Param: "scheme", Values: []string{"dssync"}}
	model := Filter{Param: "model", Values: []string{"b"}}
	seeds := Filter{Param: "seed", Values: []string{"1", "3"}}
	for _, tc := range []struct {
		name           string
		where          []Filter
		n              int
		median, lo, hi float64
	}{
		{"scheme then model", []Filter{scheme, model}, 3, 133, 105, 150},
		{"model then scheme", []Filter{model, scheme}, 3, 133, 105, 150},
		// seeds 1 and 3 of dssync/b: 150 and 133
		{"three filters", []Filter{seeds, scheme, model}, 2, 141.5, 133, 150},
		{"seed last", []Filter{scheme, model, seeds}, 2, 141.5, 133, 150},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, err := d.Summarise(Spec{Metrics: []string{"comm_ms"}, Where: tc.where})
			if err != nil {
				t.Fatal(err)
			}
			if len(tb.Keys) != 0 || len(tb.Rows) != 1 {
				t.Fatalf("row parameters %v and %d rows, want one point and no row parameter", tb.Keys, len(tb.Rows))
			}
			got := tb.Rows[0].Cells[0][0]
			if got.N != tc.n || got.Of != tc.n || got.Median != tc.median || got.Min != tc.lo || got.Max != tc.hi {
				t.Errorf("got %+v, want %v [%v-%v] over %d trials", got, tc.median, tc.lo, tc.hi, tc.n)
			}
		})
	}
	// A value that the earlier filters leave no row with is refused, not
	// summarised as an empty table.
	if _, err := d.Summarise(Spec{Where: []Filter{scheme, model, {Param: "model", Values: []string{"a"}}}}); err == nil {
		t.Error("--where model=b --where model=a: want an error, got a table")
	}
}
