package learn

import (
	"bytes"
	"math"
	"testing"

	"syncsim/internal/fuzzcheck"
)

// FuzzReadCSV: any data file is refused with a one-line error that names
// it, or read into a data set of at least one row and two classes whose
// labels lie below Classes and whose features are finite, Dim per row.
func FuzzReadCSV(f *testing.F) {
	fuzzcheck.Seeds(f,
		"label,x,y\n0,1.5,2\n1,-1,0.25\n",
		"# c\n0,1\n\n1,2\n2,3\n",
		"0,1e308\n1,-1e308\n",
		"0,1\n0,2\n",
		"1,1,2\n0,1\n",
		"-1,2\n1,2\n",
		"1048577,1\n0,1\n",
		"0,NaN\n1,1\n",
		"a,1\n",
		"0\n",
		"",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadCSV(bytes.NewReader(data), "d.csv")
		if fuzzcheck.Refused(t, err, "d.csv") {
			return
		}
		if d.N() == 0 || d.Classes < 2 || d.Dim < 1 {
			t.Fatalf("%d rows, %d classes, %d features", d.N(), d.Classes, d.Dim)
		}
		row := make([]float64, d.Dim)
		for i, y := range d.Labels {
			if y < 0 || y >= d.Classes {
				t.Fatalf("label %d of %d classes", y, d.Classes)
			}
			d.Row(i, row)
			for _, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("row %d: feature %v", i, v)
				}
			}
		}
	})
}
