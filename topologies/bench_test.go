package topologies

import (
	"testing"

	"syncsim/netsim"
)

// BenchmarkLeafSpineBuild measures building the PA-ATP fabric (144 nodes,
// 384 links) including its routing tables.
func BenchmarkLeafSpineBuild(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := LeafSpine(netsim.NewNetwork(netsim.New(1)), DefaultLeafSpine()); err != nil {
			b.Fatal(err)
		}
	}
}

type freeSink struct{ s *netsim.Sim }

func (k freeSink) Receive(p *netsim.Packet) { k.s.Packets().Put(p) }

// BenchmarkLeafSpineCrossLeaf measures one packet's cross-leaf trip on the
// PA-ATP fabric (4 serialisations and propagations, 3 switch hops), per
// packet, with flows spread over the spines by ECMP.
func BenchmarkLeafSpineCrossLeaf(b *testing.B) {
	net := netsim.NewNetwork(netsim.New(1))
	f, err := LeafSpine(net, DefaultLeafSpine())
	if err != nil {
		b.Fatal(err)
	}
	for _, h := range f.Hosts {
		h.Register(freeSink{net.Sim})
	}
	src, dst := f.Hosts[0], f.Hosts[127].ID()
	const batch = 256
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += batch {
		n := min(batch, b.N-i)
		for j := 0; j < n; j++ {
			p := net.Sim.Packets().Get()
			p.Dst, p.Size, p.Flow = dst, 1500, uint64(j)
			src.Send(p)
		}
		net.Sim.Run(netsim.Never)
	}
}
