package fluid

import (
	"testing"
	"time"

	"syncsim/netsim"
)

// benchTopo builds a network and says which host pairs carry traffic.
type benchTopo struct {
	name  string
	build func() (*netsim.Network, []netsim.NodeID)
	local int // if > 0, transfers stay inside groups of this many hosts
}

var benchTopos = []benchTopo{
	{"star64", func() (*netsim.Network, []netsim.NodeID) {
		return star(1, 64, 100*netsim.Gbps, netsim.Microsecond, nil)
	}, 0},
	{"leafspine8x4x8", func() (*netsim.Network, []netsim.NodeID) {
		return leafSpine(1, 8, 4, 8, 100*netsim.Gbps, 100*netsim.Gbps, netsim.Microsecond)
	}, 0},
	// Traffic inside each leaf only: eight independent components, so an
	// arrival or departure re-rates about an eighth of the transfers.
	{"leafspine8x4x8-rack-local", func() (*netsim.Network, []netsim.NodeID) {
		return leafSpine(1, 8, 4, 8, 100*netsim.Gbps, 100*netsim.Gbps, netsim.Microsecond)
	}, 8},
}

// BenchmarkSteady keeps a fixed number of transfers in flight (a new one
// starts at every completion) and measures completions and rate
// recomputations per wall-clock second. One op is one completed transfer.
func BenchmarkSteady(b *testing.B) {
	for _, topo := range benchTopos {
		for _, conc := range []int{100, 1000, 10000} {
			for _, mode := range []Mode{MaxMin, FCFS, Priority} {
				b.Run(topo.name+"/"+mode.String()+"/c="+itoa(conc), func(b *testing.B) {
					benchSteady(b, topo, mode, conc)
				})
			}
		}
	}
}

func benchSteady(b *testing.B, topo benchTopo, mode Mode, conc int) {
	net, hosts := topo.build()
	var e *Engine
	if mode == Priority {
		// Four priority classes, drawn per transfer.
		e = NewPriority(net, func(o netsim.BulkOpts) int64 { return o.Tag })
	} else {
		e = New(net, mode)
	}
	rng := net.Sim.Rand("bench")
	target := uint64(b.N)
	var start func()
	start = func() {
		i := rng.IntN(len(hosts))
		j := rng.IntN(len(hosts) - 1)
		if topo.local > 0 {
			g := i / topo.local * topo.local
			j = g + rng.IntN(topo.local-1)
			if j >= i {
				j++
			}
		} else if j >= i {
			j++
		}
		size := netsim.Bytes(100_000 + rng.Int64N(10_000_000))
		var opts netsim.BulkOpts
		if mode == Priority {
			opts.Tag = rng.Int64N(4)
		}
		e.Send(hosts[i], hosts[j], size, opts, func() {
			if e.Completed() >= target {
				net.Sim.Stop()
				return
			}
			start()
		})
	}
	for k := 0; k < conc; k++ {
		start()
	}
	// Warm up: let the initial burst settle.
	net.Sim.Run(0)
	r0, c0, t0 := e.Recomputations(), e.Completed(), e.rerated
	target += c0
	b.ReportAllocs()
	b.ResetTimer()
	wall := time.Now()
	net.Sim.Run(netsim.Never)
	el := time.Since(wall).Seconds()
	b.StopTimer()
	rec := e.Recomputations() - r0
	b.ReportMetric(float64(e.Completed()-c0)/el, "transfers/s")
	b.ReportMetric(float64(rec)/el, "recomputations/s")
	if rec > 0 {
		b.ReportMetric(float64(e.rerated-t0)/float64(rec), "rerated/recompute")
	}
	if err := e.Check(); err != nil {
		b.Fatal(err)
	}
}
