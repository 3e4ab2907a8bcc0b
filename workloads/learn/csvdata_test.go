package learn

import (
	"strings"
	"testing"
)

func TestReadCSV(t *testing.T) {
	d, err := ReadCSV(strings.NewReader("label,a,b\n# a comment\n0,1.5,2\n\n2, 3 ,-1e-3\n1,0,0\n"), "x.csv")
	if err != nil {
		t.Fatal(err)
	}
	if d.N() != 3 || d.Dim != 2 || d.Classes != 3 {
		t.Fatalf("read %d rows of %d features, %d classes", d.N(), d.Dim, d.Classes)
	}
	row := make([]float64, 2)
	d.Row(1, row)
	if row[0] != 3 || row[1] != -1e-3 || d.Labels[1] != 2 {
		t.Errorf("row 1 = %v label %d", row, d.Labels[1])
	}
	for _, tc := range []struct{ name, in, want string }{
		{"bad label", "0,1\nx,2\n", "x.csv line 2: label \"x\" is not an integer"},
		{"negative label", "0,1\n-1,2\n", "line 2: label -1 is out of range"},
		{"fractional label", "0,1\n1.5,2\n", "line 2: label \"1.5\" is not an integer"},
		{"ragged", "0,1,2\n1,2\n", "line 2: 1 features, but the first sample has 2"},
		{"no features", "0\n", "line 1: \"0\" has a label and no features"},
		{"bad feature", "0,1\n1,abc\n", "line 2: feature 1 \"abc\" is not a finite number"},
		{"nan feature", "0,1\n1,NaN\n", "line 2: feature 1 \"NaN\" is not a finite number"},
		{"empty", "# nothing\n", "no samples"},
		{"one class", "0,1\n0,2\n", "need at least two classes"},
		{"empty class", "0,1\n2,2\n0,3\n", "x.csv: labels run to 2 but no row has label 1 (labels must be 0 to K-1, each with a row)"},
		{"empty classes", "0,1\n9,2\n", "x.csv: labels run to 9 but no row has label 1, 2, 3, and 5 more ("},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(tc.in), "x.csv")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := ReadCSVFile("no/such/file.csv"); err == nil || !strings.Contains(err.Error(), "data_file") {
		t.Errorf("missing file: %v", err)
	}
}

// TestCheckRows: a data set too small for its split or its workers is
// refused in one line naming it; one just large enough passes.
func TestCheckRows(t *testing.T) {
	for _, tc := range []struct {
		n, workers int
		frac       float64
		want       string // "" accepts
	}{
		{10, 8, 0.2, ""}, // 2 test, 8 training rows
		{10, 9, 0.2, "f.csv: 8 training rows cannot give each of 9 workers one"},
		{2, 1, 0.2, "f.csv: 2 rows leave 0 test and 2 training rows at test_frac 0.2"}, // round(0.4) = 0
		{3, 1, 0.9, "f.csv: 3 rows leave 3 test and 0 training rows at test_frac 0.9"},
		{60000, 60000, 0, ""}, // a set with its own test set
		{60000, 60001, 0, "f.csv: 60000 training rows cannot give each of 60001 workers one"},
	} {
		err := CheckRows("f.csv", tc.n, tc.frac, tc.workers)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("%d rows, %d workers, test_frac %g: got %v, want %q", tc.n, tc.workers, tc.frac, err, tc.want)
		}
		if err == nil && tc.frac > 0 {
			// What CheckRows accepts, RandomSplit and Shards can do.
			d := &Dataset{Name: "f", Dim: 1, Classes: 2, Labels: make([]int, tc.n), floats: make([]float64, tc.n)}
			d.Labels[0] = 1
			s, err := RandomSplit(d, tc.frac, streams(1)("s"))
			if err == nil {
				_, err = Shards(d, s.TrainIdx, tc.workers, PartitionIID, 0, streams(1)("p"))
			}
			if err != nil {
				t.Errorf("%d rows, %d workers accepted, yet: %v", tc.n, tc.workers, err)
			}
		}
	}
}
