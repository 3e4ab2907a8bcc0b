package switchmodel

import (
	"testing"

	"syncsim/netsim"
)

// BenchmarkQueueEnqueueDequeue measures one enqueue plus one dequeue on a
// queue holding 64 packets, with ECN step marking on.
func BenchmarkQueueEnqueueDequeue(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  QueueConfig
	}{
		{"droptail-ecn", QueueConfig{Buffer: 256 * netsim.KiB, ECNPackets: 20}},
		{"red", QueueConfig{Buffer: 256 * netsim.KiB, RED: &REDConfig{MinBytes: 20000, MaxBytes: 60000, MaxP: 0.1, Weight: 0.002}}},
		{"shared", QueueConfig{Shared: NewSharedBuffer(netsim.MiB, 1)}},
		{"control-first", QueueConfig{Buffer: 256 * netsim.KiB, ControlFirst: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := netsim.New(1)
			q := NewQueue(s, bc.cfg)
			fill(q, s, 64, 1000, netsim.FlagECT)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p := q.Dequeue(netsim.Time(i))
				p.Flags = netsim.FlagECT
				if !q.Enqueue(p, netsim.Time(i)) {
					b.Fatal("dropped")
				}
			}
		})
	}
}

// freeSink frees every packet it receives.
type freeSink struct{ s *netsim.Sim }

func (k freeSink) Receive(p *netsim.Packet) { k.s.Packets().Put(p) }

// BenchmarkSwitchForward measures one packet's trip host -> switch -> host:
// two serialisations, two propagations, the switch's routing and queueing,
// reported per packet.
func BenchmarkSwitchForward(b *testing.B) {
	for _, spray := range []bool{false, true} {
		name := map[bool]string{false: "ecmp-hash", true: "spray"}[spray]
		b.Run(name, func(b *testing.B) {
			net, s0, _, h0, h1, _ := sprayNet(spray)
			_ = s0
			h1.Register(freeSink{net.Sim})
			const batch = 256
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i += batch {
				n := min(batch, b.N-i)
				for j := 0; j < n; j++ {
					p := net.Sim.Packets().Get()
					p.Dst, p.DstEP, p.Size, p.Flow = h1.ID(), 1, 1000, uint64(j)
					h0.Send(p)
				}
				net.Sim.Run(netsim.Never)
			}
		})
	}
}
