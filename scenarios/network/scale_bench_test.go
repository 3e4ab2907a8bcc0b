package network

import (
	"fmt"
	"syscall"
	"testing"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/setup"
	"syncsim/topologies"
	"syncsim/transport"
)

// scalePoints are the permutation scale curve of docs/performance.md: a
// 2:1 leaf-spine (hosts_per_leaf = 2 x spines at equal link rates) from
// 16 to 512 hosts, 100 Gbps, 2 us, 256 KB per port, K = 65.
var scalePoints = []struct{ hosts, spines, leaves, perLeaf int }{
	{16, 4, 2, 8}, {32, 4, 4, 8}, {64, 8, 4, 16}, {128, 8, 8, 16}, {256, 8, 16, 16}, {512, 8, 32, 16},
}

// processCPU is the process's user plus system CPU time, in seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// BenchmarkPermutationScale runs the permutation experiment along the
// scale curve (duration_ms of simulated time per op, 2 ms here to keep a
// sweep short; the doc's figures use the experiment's 10 ms through the
// CLI) and reports CPU per event and per delivered data packet.
func BenchmarkPermutationScale(b *testing.B) {
	e := Permutation()
	for _, pt := range scalePoints {
		b.Run(fmt.Sprintf("hosts=%d", pt.hosts), func(b *testing.B) {
			ps, err := e.Resolve([]string{fmt.Sprintf("spines=%d", pt.spines), fmt.Sprintf("leaves=%d", pt.leaves),
				fmt.Sprintf("hosts_per_leaf=%d", pt.perLeaf), "duration_ms=2"})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var events, pkts float64
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				res, err := e.Run(&experiments.Run{Exp: e, Params: ps, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				events += float64(res.Events)
				pkts += res.Metrics["data_pkts"]
			}
			cpu := processCPU() - cpu0
			b.ReportMetric(cpu*1e9/events, "cpu-ns/event")
			b.ReportMetric(cpu*1e9/pkts, "cpu-ns/pkt")
			b.ReportMetric(events/pkts, "events/pkt")
		})
	}
}

// BenchmarkPermutationSteady is the 512-host permutation in steady state:
// after 1 ms of warm-up (windows, queues, rings and the packet pool at
// their working size), one op is one data packet delivered to its
// receiver. allocs/op must be 0: the per-packet path allocates nothing
// at scale either.
func BenchmarkPermutationSteady(b *testing.B) { permutationSteady(b, false) }

// BenchmarkPermutationSteadyPartitioned is BenchmarkPermutationSteady on
// the parallel engine's partitions (one thread), as the permutation
// experiment runs: packets crossing partitions go through the outboxes
// and are lent to the receiving partition. allocs/op must be 0 too.
func BenchmarkPermutationSteadyPartitioned(b *testing.B) { permutationSteady(b, true) }

func permutationSteady(b *testing.B, partitioned bool) {
	sim := netsim.New(1)
	net := netsim.NewNetwork(sim)
	lc := topologies.DefaultLeafSpine()
	lc.Leaves, lc.Queue.ECNPackets = 32, 65
	fab, err := topologies.LeafSpine(net, lc)
	if err != nil {
		b.Fatal(err)
	}
	if partitioned {
		if _, err := net.Partition(net.AutoPartition(setup.HostsPerPartition)); err != nil {
			b.Fatal(err)
		}
	}
	st := transport.NewStack(net, transport.DefaultConfig())
	dst := derangement(sim.Rand("permutation/pairs"), len(fab.Hosts))
	for i, h := range fab.Hosts {
		st.Start(h.ID(), fab.Hosts[dst[i]].ID(), transport.FlowOpts{}, nil)
	}
	sim.Run(netsim.Millisecond)
	b.ReportAllocs()
	b.ResetTimer()
	start := st.Segments
	for st.Segments-start < uint64(b.N) {
		sim.Run(sim.Now() + netsim.Microsecond)
	}
}
