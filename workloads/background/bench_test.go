package background

import (
	"testing"

	"syncsim/netsim"
)

// BenchmarkSample draws one flow size (binary search over the knots).
func BenchmarkSample(b *testing.B) {
	for _, name := range []string{"hadoop", "cachefollower"} {
		b.Run(name, func(b *testing.B) {
			c := workload(b, name)
			r := netsim.Stream(1, "bench")
			b.ReportAllocs()
			var sum netsim.Bytes
			for b.Loop() {
				sum += c.Sample(r)
			}
			if sum <= 0 {
				b.Fatal("no samples")
			}
		})
	}
}

// BenchmarkGenerator measures the cost per background flow: the arrival
// event, pair and size draws, the flow record and the completion callback,
// against an engine that completes at once. One op is one flow.
func BenchmarkGenerator(b *testing.B) {
	c := workload(b, "hadoop")
	b.ReportAllocs()
	sim := netsim.New(1)
	g, err := New(sim, doneBulk{}, Config{CDF: c, Load: 0.5, Hosts: hostIDs(128), HostRate: 100 * netsim.Gbps, MaxFlows: b.N})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	g.Start()
	sim.Run(netsim.Never)
	if g.Started() != b.N {
		b.Fatalf("started %d, want %d", g.Started(), b.N)
	}
}

// doneBulk completes every transfer at once and keeps nothing.
type doneBulk struct{}

func (doneBulk) Send(_, _ netsim.NodeID, _ netsim.Bytes, _ netsim.BulkOpts, done func()) { done() }
