package main

import (
	"strings"
	"testing"

	"syncsim/plotting"
)

// TestPlotUnitsMatchSchema checks the y-axis label of every metric of
// every experiment: it carries the unit the experiment declares (in the
// figure's spelling), also where the name's suffix would read otherwise
// (ina-model's model_s and sim_s count packets, not seconds). It logs
// those names, whose CSV would be mislabelled without the schema.
func TestPlotUnitsMatchSchema(t *testing.T) {
	for _, e := range newRegistry().All() {
		units := unitsOf(e)
		for _, m := range e.Metrics {
			label := plotting.LabelUnit(m.Name, units[m.Name])
			want := m.Unit
			if want == "us" {
				want = "µs"
			}
			if m.Unit != "" && !strings.HasSuffix(label, " ("+want+")") {
				t.Errorf("%s metric %s: label %q lacks the declared unit %q", e.Name, m.Name, label, m.Unit)
			}
			if m.Unit == "" && label != plotting.Label(m.Name) {
				t.Errorf("%s metric %s: label %q, want %q", e.Name, m.Name, label, plotting.Label(m.Name))
			}
			if _, u := plotting.SplitUnit(m.Name); u != "" && u != want {
				t.Logf("%s metric %s: the name reads %q, the schema says %q", e.Name, m.Name, u, m.Unit)
			}
		}
	}
}
