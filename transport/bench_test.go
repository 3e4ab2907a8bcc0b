package transport

import (
	"testing"

	"syncsim/netsim"
)

// incast8 builds 8 long-lived DCTCP senders into one receiver through a
// switch port with K = 65 and a 1 MB buffer; 10 Gbps, 10 us links.
func incast8(opts ...netsim.Option) (*star, []*Flow) {
	s := newStar(8, 10*netsim.Gbps, 10*netsim.Microsecond, newECNQueue(netsim.Megabyte, 65), opts...)
	st := NewStack(s.net, DefaultConfig())
	flows := make([]*Flow, 8)
	for i, h := range s.senders {
		flows[i] = st.Start(h.ID(), s.recv.ID(), FlowOpts{}, nil)
	}
	return s, flows
}

// BenchmarkIncast8 simulates one second of the incast scenario per
// iteration (run with -benchtime 1x) and reports the process CPU seconds
// per simulated second (the target is <= 1), and events and data packets
// per wall-clock second.
func BenchmarkIncast8(b *testing.B) {
	b.ReportAllocs()
	var events, pkts uint64
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		s, _ := incast8()
		s.sim.Run(netsim.Second)
		events += s.sim.Events()
		pkts += s.bottle.TxPackets
	}
	sec := b.Elapsed().Seconds()
	cpu := cpuSeconds() - cpu0
	b.ReportMetric(cpu/float64(b.N), "cpu-s/sim-s")
	b.ReportMetric(cpu*1e9/float64(events), "cpu-ns/event")
	b.ReportMetric(float64(events)/sec, "events/s")
	b.ReportMetric(float64(pkts)/sec, "datapkts/s")
	b.ReportMetric(sec*1e9/float64(pkts), "ns/datapkt")
	b.ReportMetric(sec*1e9/float64(events), "ns/event")
}

// BenchmarkIncast8Queue runs 100 ms of the incast scenario on each event
// queue, the binary heap the engine uses and the B-tree it was measured
// against: the same events fire in the same order (the test suite checks
// identical results), so ns/event compares the queues on a real workload.
func BenchmarkIncast8Queue(b *testing.B) {
	for _, q := range []struct {
		name string
		opts []netsim.Option
	}{{"heap2", nil}, {"btree", []netsim.Option{netsim.WithBtreeQueue()}}} {
		b.Run(q.name, func(b *testing.B) {
			var events uint64
			for i := 0; i < b.N; i++ {
				s, _ := incast8(q.opts...)
				s.sim.Run(100 * netsim.Millisecond)
				events += s.sim.Events()
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(events), "ns/event")
		})
	}
}

// BenchmarkIncast8Steady measures the steady state after a warm-up: one
// op is one data packet through the bottleneck. allocs/op must be 0.
func BenchmarkIncast8Steady(b *testing.B) {
	s, _ := incast8()
	s.sim.Run(20 * netsim.Millisecond) // rings and reorder buffers reach size
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	start := s.bottle.TxPackets
	for s.bottle.TxPackets-start < uint64(b.N) {
		s.sim.Run(s.sim.Now() + 10*netsim.Microsecond)
	}
	b.ReportMetric((cpuSeconds()-cpu0)*1e9/float64(b.N), "cpu-ns/op")
}

// BenchmarkShortFlow measures the whole life of one 20-segment DCTCP flow
// (start, slow start, completion, endpoint release) between two hosts;
// allocs/op is the per-flow allocation cost (the Flow itself).
func BenchmarkShortFlow(b *testing.B) {
	net, a, c := pair(10*netsim.Gbps, netsim.Microsecond, nil)
	st := NewStack(net, DefaultConfig())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st.Start(a.ID(), c.ID(), FlowOpts{Size: 20 * 1460}, nil)
		net.Sim.Run(netsim.Never)
	}
	if st.Completed != uint64(b.N) {
		b.Fatalf("completed %d of %d flows", st.Completed, b.N)
	}
}
