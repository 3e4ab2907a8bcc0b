package summary

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// TestCountBelow: the seeds of each paired change counted against a
// threshold, worked by hand on the shuffled sweep of pairing_test.go.
// dssync / allreduce seed by seed is 0.5, 0.75, 0.25 (seed 4 has no
// baseline): below 1 on all three; below 0.5 on one (0.25) and at it on
// one (0.5); in percent (-50, -25, -75) below -50 on one and at it on
// one. --of allreduce is the inverse (2, 1.333, 4): below 1 on none.
func TestCountBelow(t *testing.T) {
	d := data(t, shuffled)
	vs := Compare{Params: []string{"scheme"}, Values: []string{"allreduce"}}
	of := Compare{Params: []string{"scheme"}, Values: []string{"allreduce"}, Of: true}
	for _, tc := range []struct {
		name      string
		compare   Compare
		change    Change
		threshold float64
		below, at int
		cell      string
	}{
		{"ratio below 1", vs, Ratio, 1, 3, 0, "| 0.500 [0.250-0.750] (3 of 4 seeds), 3/3 below |"},
		{"ratio at and below 0.5", vs, Ratio, 0.5, 1, 1, "| 0.500 [0.250-0.750] (3 of 4 seeds), 1/3 below, 1 at |"},
		{"percent", vs, Percent, -50, 1, 1, "(3 of 4 seeds), 1/3 below, 1 at |"},
		{"of: none below", of, Ratio, 1, 0, 0, "(3 of 4 seeds), 0/3 below |"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmp := tc.compare
			spec := Spec{Metrics: []string{"comm_ms"}, Compare: &cmp, Change: tc.change, Count: true, Threshold: tc.threshold}
			tb, err := d.Summarise(spec)
			if err != nil {
				t.Fatal(err)
			}
			got := tb.Rows[0].Changes[0][0]
			if !got.Counted || got.Below != tc.below || got.At != tc.at {
				t.Errorf("counted %v, %d below and %d at %v, want %d and %d", got.Counted, got.Below, got.At, tc.threshold, tc.below, tc.at)
			}
			// The values are those of the table without counting.
			spec.Count = false
			plain, err := d.Summarise(spec)
			if err != nil {
				t.Fatal(err)
			}
			p := plain.Rows[0].Changes[0][0]
			if p.Counted || p.Median != got.Median || p.Min != got.Min || p.Max != got.Max || p.N != got.N {
				t.Errorf("counting moved the change: %+v against %+v", got, p)
			}
			spec.Count = true
			md := markdown(t, d, spec, Style{})
			if !strings.Contains(md, tc.cell) {
				t.Errorf("no cell ending %q in\n%s", tc.cell, md)
			}
			if !strings.Contains(md, "below") || !strings.Contains(md, "above it on the rest") {
				t.Errorf("the caption does not say what the count is:\n%s", md)
			}
			var b bytes.Buffer
			if err := tb.CSV(&b); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(b.String()), "\n")
			if !strings.HasSuffix(lines[0], ",below,at") {
				t.Errorf("CSV header %q lacks below,at", lines[0])
			}
			last := lines[len(lines)-1] // the change is written after the values
			if want := "," + strconv.Itoa(tc.below) + "," + strconv.Itoa(tc.at); !strings.HasSuffix(last, want) {
				t.Errorf("CSV change row %q, want it to end %q", last, want)
			}
			if !strings.HasSuffix(lines[1], ",,") {
				t.Errorf("CSV value row %q: want empty below and at", lines[1])
			}
		})
	}
	// Without a baseline there is nothing to count.
	if _, err := d.Summarise(Spec{Metrics: []string{"comm_ms"}, Count: true, Threshold: 1}); err == nil {
		t.Error("counting without --vs or --of: want an error, got a table")
	}
}
