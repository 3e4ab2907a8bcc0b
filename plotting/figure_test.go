package plotting

import (
	"math"
	"strings"
	"testing"
)

// smallCSV is a hand-made sweep: two protocols (in an order that is not
// alphabetical), n = 2, 9, 10 (in an order that is not numeric, and
// where text order would put 10 before 2), NaN, Inf and an empty cell.
const smallCSV = `experiment,proto,n,size,trial,seed,ajct_ms,goodput_gbps
e,zeta,10,1,0,1,3,1
e,zeta,10,1,1,2,1,1
e,zeta,10,1,2,3,2,1
e,zeta,9,1,0,1,10,1
e,zeta,9,1,1,2,NaN,1
e,zeta,9,1,2,3,4,1
e,zeta,9,1,3,4,7,1
e,alpha,10,1,0,1,4,1
e,alpha,10,1,1,2,1,1
e,alpha,10,1,2,3,3,1
e,alpha,10,1,3,4,2,1
e,alpha,9,1,0,1,Inf,1
e,alpha,9,1,1,2,,1
e,alpha,2,1,0,1,5,1
`

func mustTable(t *testing.T, s string) *Table {
	t.Helper()
	tb, err := ReadCSV(strings.NewReader(s), "small.csv")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func texts(ls []Level) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Text)
	}
	return out
}

func TestReadCSVColumns(t *testing.T) {
	tb := mustTable(t, smallCSV)
	if got := strings.Join(tb.Params, ","); got != "proto,n,size" {
		t.Errorf("params %q", got)
	}
	if got := strings.Join(tb.Metrics, ","); got != "ajct_ms,goodput_gbps" {
		t.Errorf("metrics %q", got)
	}
	if got := strings.Join(tb.Varying(), ","); got != "proto,n" {
		t.Errorf("varying %q", got)
	}
	if len(tb.Rows) != 14 || tb.Line[0] != 2 || tb.Line[13] != 15 {
		t.Errorf("%d rows, lines %d..%d", len(tb.Rows), tb.Line[0], tb.Line[len(tb.Line)-1])
	}
}

// TestBuildAggregates checks the per-cell statistics against values
// worked by hand (quartiles by linear interpolation between closest
// ranks: for 1,2,3,4 the 25th percentile is at rank 0.75, 1.75).
func TestBuildAggregates(t *testing.T) {
	f, err := Build(mustTable(t, smallCSV), Spec{X: "n", Y: "ajct_ms", Series: "proto"})
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != Line || !f.XNumeric {
		t.Errorf("kind %s numeric %v, want line over numeric x", f.Kind, f.XNumeric)
	}
	if got := strings.Join(texts(f.X), ","); got != "2,9,10" {
		t.Errorf("x order %s, want 2,9,10 (numeric)", got)
	}
	if got := strings.Join(texts(f.Series), ","); got != "zeta,alpha" {
		t.Errorf("series order %s, want zeta,alpha (first appearance)", got)
	}
	if f.Rows != 14 || f.Skipped != 3 || f.TrialsMin != 1 || f.TrialsMax != 4 {
		t.Errorf("rows %d skipped %d trials %d-%d, want 14, 3, 1-4", f.Rows, f.Skipped, f.TrialsMin, f.TrialsMax)
	}
	nan := math.NaN()
	tests := []struct {
		series, x                string
		n, skipped               int
		median, min, max, q1, q3 float64
	}{
		{"zeta", "10", 3, 0, 2, 1, 3, 1.5, 2.5},
		{"zeta", "9", 3, 1, 7, 4, 10, 5.5, 8.5},
		{"alpha", "10", 4, 0, 2.5, 1, 4, 1.75, 3.25},
		{"alpha", "9", 0, 2, nan, nan, nan, nan, nan},
		{"alpha", "2", 1, 0, 5, 5, 5, 5, 5},
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for _, tc := range tests {
		t.Run(tc.series+"/"+tc.x, func(t *testing.T) {
			c := f.Cell("", tc.series, tc.x)
			if c == nil {
				t.Fatal("no cell")
			}
			if len(c.Values) != tc.n || c.Skipped != tc.skipped {
				t.Errorf("%d values, %d skipped; want %d, %d", len(c.Values), c.Skipped, tc.n, tc.skipped)
			}
			got := []float64{c.Median, c.Min, c.Max, c.Q1, c.Q3}
			want := []float64{tc.median, tc.min, tc.max, tc.q1, tc.q3}
			for i := range got {
				if !same(got[i], want[i]) {
					t.Errorf("median, min, max, q1, q3 = %v, want %v", got, want)
					break
				}
			}
		})
	}
	if f.Cell("", "zeta", "2") != nil {
		t.Error("cell zeta/2 exists without rows")
	}
	if got := f.Notes()[1]; got != "3 of 14 ajct_ms values are NaN or infinite and not drawn" {
		t.Errorf("note %q", got)
	}
	if got := f.Notes()[0]; !strings.Contains(got, "1-4 trials") {
		t.Errorf("note %q does not give the trial range", got)
	}
}

func TestBuildCategoricalAndWhere(t *testing.T) {
	tb := mustTable(t, smallCSV)
	f, err := Build(tb, Spec{X: "proto", Y: "ajct_ms", Where: []Filter{{Param: "n", Values: []string{"10.0"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != Bar || f.XNumeric {
		t.Errorf("kind %s numeric %v, want bar over categorical x", f.Kind, f.XNumeric)
	}
	if got := strings.Join(texts(f.X), ","); got != "zeta,alpha" {
		t.Errorf("x order %s, want zeta,alpha", got)
	}
	if f.Rows != 7 || f.Cell("", "", "alpha").Median != 2.5 {
		t.Errorf("rows %d, alpha median %v; want 7 and 2.5", f.Rows, f.Cell("", "", "alpha").Median)
	}
	if got, want := f.Title(), "e (n=10.0)"; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	// A list of values keeps both; the facet gets one panel per value.
	f, err = Build(tb, Spec{X: "proto", Y: "ajct_ms", Facet: "n", Kind: Box, Where: []Filter{{Param: "n", Values: []string{"9", "10"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(texts(f.Facets), ","); got != "9,10" || f.Rows != 13 {
		t.Errorf("facets %s rows %d, want 9,10 and 13", got, f.Rows)
	}
}

func TestBuildRefusesPooling(t *testing.T) {
	_, err := Build(mustTable(t, smallCSV), Spec{X: "n", Y: "ajct_ms"})
	if err == nil {
		t.Fatal("pooled two protocols without a word")
	}
	for _, want := range []string{"proto", "zeta, alpha", "--where proto=zeta"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestParseFilter(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"load=0.5", "load=0.5", true},
		{"protocol=atp, pa-atp", "protocol=atp,pa-atp", true},
		{"load", "", false},
		{"=0.5", "", false},
		{"load=", "", false},
		{"load=0.5,,0.6", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			f, err := ParseFilter(tc.in)
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok %v", err, tc.ok)
			}
			if tc.ok && f.String() != tc.want {
				t.Errorf("got %q, want %q", f, tc.want)
			}
		})
	}
}
