package inagg

import (
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// BenchmarkPAATPStar runs one PA-ATP job of 12 workers on a 100 Gbps star
// (2 us links, 256 KB ports with ECN at 65 KB) pushing 10 MB per worker per
// iteration, and reports simulator events per second of wall time and
// gradient packets per second.
func BenchmarkPAATPStar(b *testing.B) {
	for _, proto := range []Protocol{PAATP, ATP, SwitchML, BytePS} {
		b.Run(proto.String(), func(b *testing.B) {
			b.ReportAllocs()
			var events, pkts uint64
			for i := 0; i < b.N; i++ {
				s := newStar(b, starCfg{workers: 12, seed: uint64(i),
					queue: switchmodel.QueueConfig{Buffer: 256 * netsim.KiB, ECNBytes: 65 * netsim.KiB}})
				j := s.job(b, JobConfig{ID: 0, Protocol: proto, Gradient: 10 * netsim.Megabyte, Iterations: 2})
				s.net.Sim.Run(10 * netsim.Second)
				if !j.Done() {
					b.Fatal("job did not finish")
				}
				events += s.net.Sim.Events()
				pkts += j.TotalWorkerStats().Sent
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(events)/sec, "events/s")
			b.ReportMetric(float64(pkts)/sec, "gradients/s")
		})
	}
}

// BenchmarkSteadyState measures the per-packet path of a running PA-ATP
// job (12 workers, star, ECN on): one op advances the simulation by one
// gradient serialisation time (310 B at 100 Gbps), so every op moves about
// one gradient per worker with its GACK and result. It must not allocate.
func BenchmarkSteadyState(b *testing.B) {
	for _, proto := range []Protocol{PAATP, ATP, SwitchML} {
		b.Run(proto.String(), func(b *testing.B) {
			s := newStar(b, starCfg{workers: 12,
				queue: switchmodel.QueueConfig{Buffer: 256 * netsim.KiB, ECNBytes: 65 * netsim.KiB}})
			j := s.job(b, JobConfig{ID: 0, Protocol: proto, Gradient: 100 * netsim.Gigabyte, Iterations: 1})
			s.net.Sim.Run(2 * netsim.Millisecond) // warm up: rings, queues and the pool reach their sizes
			step := netsim.TxTime(INAHeaderBytes+INAPayloadBytes, 100*netsim.Gbps)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.net.Sim.Run(s.net.Sim.Now() + step)
			}
			if j.Done() {
				b.Fatal("job finished during the benchmark")
			}
		})
	}
}
