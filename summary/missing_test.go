package summary

import (
	"strings"
	"testing"

	"syncsim/plotting"
)

// TestMissingColumns: a CSV of an earlier build, without the parameter
// column rule that a later one has, reads with it only when the reader
// says what its runs ran with (--missing rule=old); its rows then pair
// with the later CSV's seed by seed. Worked by hand: the old runs took
// 10 and 20 ms on seeds 1 and 2, the new ones 5 and 30, so new over old is
// 0.5 and 1.5, median 1.
func TestMissingColumns(t *testing.T) {
	old, _ := plotting.ReadCSV(strings.NewReader("experiment,proto,trial,seed,ajct_ms,drops\n"+
		"x,a,0,1,10,4\nx,a,1,2,20,6\n"), "old.csv")
	newer, _ := plotting.ReadCSV(strings.NewReader("experiment,proto,rule,trial,seed,ajct_ms,core_mb\n"+
		"x,a,new,0,1,5,7\nx,a,new,1,2,30,8\n"), "new.csv")
	if _, err := FromTables(old, newer); err == nil || !strings.Contains(err.Error(), "--missing k=v") {
		t.Fatalf("without --missing: err = %v, want the hint", err)
	}
	if _, err := FromTablesMissing(map[string]string{"other": "1"}, old, newer); err == nil ||
		!strings.Contains(err.Error(), "old.csv lacks the parameter column rule that new.csv has") {
		t.Fatalf("--missing of another column: err = %v", err)
	}
	if _, err := FromTablesMissing(map[string]string{"rule": "old", "proto": "a"}, old, newer); err == nil ||
		!strings.Contains(err.Error(), "--missing proto: every CSV has the column proto") {
		t.Fatalf("--missing of a column every CSV has: err = %v", err)
	}
	d, err := FromTablesMissing(map[string]string{"rule": "old"}, old, newer)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.Params, ","); got != "proto,rule" || strings.Join(d.Metrics, ",") != "ajct_ms" {
		t.Fatalf("params %s, metrics %v; want proto,rule and the common metric ajct_ms alone", got, d.Metrics)
	}
	tb, err := d.Summarise(Spec{Metrics: []string{"ajct_ms"}, Compare: &Compare{Params: []string{"rule"}, Values: []string{"old"}}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := tb.CSV(&b); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "old") || !strings.Contains(out, ",1,0.5,1.5") {
		t.Errorf("the paired change: want median 1 [0.5, 1.5] of new over old; got\n%s", out)
	}
}
