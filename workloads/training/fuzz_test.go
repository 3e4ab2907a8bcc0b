package training

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// FuzzReadTrace: any trace file is refused with an error naming the line,
// or read into an empirical distribution of positive finite samples whose
// CDF rises from 0 to 1 and whose draws are samples of the file.
func FuzzReadTrace(f *testing.F) {
	for _, s := range []string{
		"0.3\n0.31\n# comment\n\n0.5\n",
		"1e-3\n",
		"0\n",
		"-1\n",
		"NaN\n",
		"Inf\n",
		"0x1p-2\n",
		"1_0\n",
		"  0.2  \n",
		"",
		"# only\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ReadTrace(bytes.NewReader(data))
		if err != nil {
			return
		}
		if e.Len() == 0 {
			t.Fatal("an empty trace was accepted")
		}
		m := e.Mean()
		if !(m > 0) || math.IsInf(m, 0) {
			t.Fatalf("mean %v", m)
		}
		if e.CDF(0) != 0 || e.CDF(math.MaxFloat64) != 1 {
			t.Fatalf("CDF(0) = %v, CDF(max) = %v", e.CDF(0), e.CDF(math.MaxFloat64))
		}
		r := rand.New(rand.NewPCG(1, 2))
		for i := 0; i < 4; i++ {
			if x := e.Sample(r); !(x > 0) || math.IsInf(x, 0) {
				t.Fatalf("sample %v", x)
			}
		}
	})
}
