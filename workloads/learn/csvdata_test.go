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
