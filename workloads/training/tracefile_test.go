package training

import (
	"math"
	"strings"
	"testing"
)

func TestReadTrace(t *testing.T) {
	e, err := ReadTrace(strings.NewReader("# ms\n0.3\n\n0.1\n 0.2 \n"))
	if err != nil {
		t.Fatal(err)
	}
	if e.Len() != 3 || math.Abs(e.Mean()-0.2) > 1e-12 || e.CDF(0.15) != 1.0/3 || e.CDF(0.3) != 1 {
		t.Errorf("len %d mean %v CDF(0.15) %v CDF(0.3) %v", e.Len(), e.Mean(), e.CDF(0.15), e.CDF(0.3))
	}
	for _, bad := range []string{"", "# only\n", "0.1\nabc\n", "-1\n", "0\n", "NaN\n"} {
		if _, err := ReadTrace(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadTrace(%q): want an error", bad)
		}
	}
}
