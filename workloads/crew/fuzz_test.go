package crew

import (
	"bytes"
	"math"
	"testing"

	"syncsim/internal/fuzzcheck"
)

// FuzzReadMatrix: any bandwidth or latency matrix file (bw_file in Mbit/s,
// latency_file in ms) is refused with a one-line error, or read into a
// square matrix of at least two workers whose entries off the diagonal
// are finite, positive (or zero where allowed) and scaled by the unit.
func FuzzReadMatrix(f *testing.F) {
	for _, s := range []string{
		"0,100,200\n100,0,300\n200,300,0\n",
		"# c\n\n0, 1e3\n2e3, 0\n",
		"0,1e308\n1,0\n",
		"0,0\n0,0\n",
		"0,1\n",
		"0,1,2\n1,0\n",
		"0,-1\n1,0\n",
		"0,NaN\n1,0\n",
		"0,x\n1,0\n",
		"",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, latency bool) {
		unit, allowZero := 1e6, false
		if latency {
			unit, allowZero = 1e-3, true
		}
		m, err := ReadMatrix(bytes.NewReader(data), unit, allowZero)
		if fuzzcheck.Refused(t, err, "") {
			return
		}
		if m.N() < 2 {
			t.Fatalf("%d workers", m.N())
		}
		for i, row := range m {
			if len(row) != m.N() {
				t.Fatalf("row %d of %d entries, %d rows", i, len(row), m.N())
			}
			for j, v := range row {
				if i == j {
					continue
				}
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || (v == 0 && !allowZero) {
					t.Fatalf("entry %d,%d = %v", i, j, v)
				}
			}
		}
	})
}
