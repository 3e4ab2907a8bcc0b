package network

import (
	"testing"

	"syncsim/experiments"
)

// BenchmarkIncast8 is the engine figure of the README: 8 long-lived DCTCP
// senders, 10 Gbps, 10 us cables, K = 65, a 1 MB buffer, 1 s simulated.
func BenchmarkIncast8(b *testing.B) {
	e := Incast()
	ps, err := e.Resolve([]string{"senders=8", "duration_ms=1000", "sample_us=0"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var events uint64
	for i := 0; i < b.N; i++ {
		res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: uint64(i + 1)})
		if err != nil {
			b.Fatal(err)
		}
		events += res.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
