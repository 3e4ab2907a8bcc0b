package layers

import (
	"bytes"
	"strings"
	"testing"

	"syncsim/internal/fuzzcheck"
	"syncsim/netsim"
)

// FuzzRead: any table is refused with a one-line error, or read into a
// model that passes Check, whose compute fits the simulated clock, whose bytes are the sum of its layers' and whose times are
// finite and non-negative; its buckets hold every byte exactly once.
func FuzzRead(f *testing.F) {
	fuzzcheck.Seeds(f,
		"layer,params,forward_ms,backward_ms\nconv1,1000,1.5,3\nfc,250,0.5,1\n",
		"layer,bytes,forward_ms,backward_ms\na,4096,0,0\n",
		"backward_ms,layer,forward_ms,params\n1,a,1,1e3\n",
		"# c\nlayer,params,forward_ms,backward_ms\n\"a,b\",1,1,1\n",
		"layer,params,forward_ms,backward_ms\na,1,-1,1\n",
		"layer,params,forward_ms,backward_ms\na,1,NaN,1\n",
		"layer,params,forward_ms\n",
		"",
		"layer,params,forward_ms,backward_ms\n"+strings.Repeat("a,1,86400000,86400000\n", 54),
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data), "fuzz")
		if fuzzcheck.Refused(t, err, "") {
			return
		}
		if c := m.Compute(); c < 0 || c >= netsim.Never {
			t.Fatalf("compute %v past the clock", c)
		}
		if err := m.Check(); err != nil {
			t.Fatalf("accepted a model that fails Check: %v", err)
		}
		for _, l := range m.Layers {
			if l.Bytes < 0 || l.Forward < 0 || l.Backward < 0 {
				t.Fatalf("layer %+v", l)
			}
		}
		for _, cap := range []float64{0, 1, 25} {
			bs, err := Buckets(m, Bucketing{CapMB: cap, FirstCapMB: 1})
			if err != nil {
				t.Fatal(err)
			}
			var sum int64
			for _, b := range bs {
				sum += int64(b.Bytes)
			}
			if sum != int64(m.Bytes()) {
				t.Fatalf("buckets hold %d bytes of %d", sum, m.Bytes())
			}
		}
	})
}
