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
	newer2, _ := plotting.ReadCSV(strings.NewReader("experiment,proto,rule,trial,seed,ajct_ms,core_mb\n"+
		"x,b,new,0,1,6,7\n"), "new2.csv")
	if _, err := FromTables(old, newer); err == nil || !strings.Contains(err.Error(), "--missing k=v") {
		t.Fatalf("without --missing: err = %v, want the hint", err)
	}
	if _, err := FromTablesMissing(map[string]string{"other": "1"}, old, newer); err == nil ||
		!strings.Contains(err.Error(), "old.csv lacks the parameter column rule that new.csv has") {
		t.Fatalf("--missing of another column: err = %v", err)
	}
	if _, err := FromTablesMissing(map[string]string{"rule": "old", "prot": "a"}, old, newer); err == nil ||
		!strings.Contains(err.Error(), "--missing prot: no CSV has a parameter column prot") {
		t.Fatalf("--missing of a column no CSV has: err = %v", err)
	}
	// A column every CSV has: a no-op, the rows as without it.
	if d, err := FromTablesMissing(map[string]string{"rule": "x"}, newer, newer2); err != nil || len(d.rows) != 3 || d.rows[2].params[0] != "b" || d.rows[2].params[1] != "new" {
		t.Fatalf("--missing of a column every CSV has: err = %v, want the three rows as they are", err)
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
