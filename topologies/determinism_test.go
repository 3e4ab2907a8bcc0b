package topologies

import (
	"slices"
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// arrivals runs all-to-all bursts on a small leaf-spine with RED and
// per-packet spraying (both drawing random numbers) and returns every
// host's arrival times.
func arrivals(t *testing.T, seed uint64) [][]netsim.Time {
	t.Helper()
	net := newNet(seed)
	c := smallLeafSpine()
	c.Queue = switchmodel.QueueConfig{Buffer: 30000, RED: &switchmodel.REDConfig{MinBytes: 3000, MaxBytes: 15000, MaxP: 0.2, Weight: 0.5}}
	f, err := LeafSpine(net, c)
	if err != nil {
		t.Fatal(err)
	}
	f.SetSpray(true)
	ks := sinks(f)
	for i, s := range f.Hosts {
		for j, d := range f.Hosts {
			if i != j {
				for k := 0; k < 5; k++ {
					p := net.Sim.Packets().Get()
					p.Dst, p.Size, p.Flow = d.ID(), 1000+netsim.Bytes(100*k), uint64(i*64+j)
					if k%2 == 0 {
						p.Flags = netsim.FlagECT
					}
					s.Send(p)
				}
			}
		}
	}
	net.Sim.Run(netsim.Never)
	mustConserve(t, net)
	var out [][]netsim.Time
	for _, h := range f.Hosts {
		out = append(out, ks[h.ID()].times)
	}
	return out
}

func TestSameSeedSameRun(t *testing.T) {
	a, b := arrivals(t, 21), arrivals(t, 21)
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("host %d: arrivals differ between identical runs", i)
		}
	}
}
