package inagg

import (
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// TestCongestionControlOnSharedPath: four workers behind one 100 Gbps path
// to the aggregating switch (the PA-ATP testbed's dumbbell with one path)
// offer 4x the path's rate. The path carries every gradient one way and
// every result (and GACK) the other way, which bounds the iteration time
// from below. The window protocols react to ECN, lose no gradient and stay
// within 50% of that bound (ATP within 100%); SwitchML, whose pool of one BDP per worker is
// not congestion-controlled, overflows the path's 256 KB buffer. The
// return direction carries 1.2 times the gradient bytes (four 310 B
// results and four 62 B GACKs per sequence) in packets this model does not
// send ECN-capable, so no window hears of its queue: once the switch
// completes every sequence at once (no collisions), it can overflow late
// in an iteration; those losses are repaired by resends and bounded by the
// AJCT check. The asynchronous windows run both increase rules: with
// PerRTT (additive increase after slow start) they lose no gradient; with
// the paper's +1 per GACK (PerAck, the default) a window doubles every
// round trip between cuts of at most d/2 per round trip, so the four
// windows reach their cap of one BDP each (4 x 488 packets, 605 KB) and
// overflow the path's buffer now and then; the resends keep the AJCT
// within the same bound.
// With the public client's 256 packets per worker SwitchML's
// 4 x 256 - 488 packets (166 KB) fit and no gradient is lost. ATP runs 4
// threads of at most 50 packets per worker here: the client's 12 x 100
// packets per worker start 4 x 1200 packets (1.5 MB) into the path at
// once, which no window reaction can keep out of a 256 KB buffer.
func TestCongestionControlOnSharedPath(t *testing.T) {
	const grad = 2 * netsim.Megabyte
	atp := DefaultParams()
	atp.ATPThreads, atp.ATPThreadWindow = 4, 50
	for _, tc := range []struct {
		name      string
		proto     Protocol
		pool      int
		wantDrops bool // gradients may be lost (SwitchML: must be)
		incr      IncreaseMode
	}{
		{"atp", ATP, 0, false, PerAck},
		{"pa-atp/per-rtt", PAATP, 0, false, PerRTT}, {"strawasyn/per-rtt", StrawAsyn, 0, false, PerRTT},
		{"pa-atp/per-gack", PAATP, 0, true, PerAck}, {"strawasyn/per-gack", StrawAsyn, 0, true, PerAck},
		{"switchml-bdp-pool", SwitchML, 0, true, PerAck}, {"switchml-256-pool", SwitchML, 256, false, PerAck},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net := netsim.NewNetwork(netsim.New(1))
			q := switchmodel.QueueConfig{Buffer: 256 * netsim.Kilobyte, ECNBytes: 30 * netsim.Kilobyte}
			f, err := topologies.Dumbbell(net, 4, 1, 1, 100*netsim.Gbps, 100*netsim.Gbps, 2*netsim.Microsecond, q)
			if err != nil {
				t.Fatal(err)
			}
			ac := DefaultAggregatorConfig()
			ac.BDPPackets = 488 // 100 Gbps x 12.1 us (6 cables of 2 us, serialisation) / 310 B
			agg, err := NewAggregator(f.Edge[1], ac)
			if err != nil {
				t.Fatal(err)
			}
			p := DefaultParams()
			if tc.proto == ATP {
				p = atp
			}
			p.SwitchMLPool = tc.pool
			p.CWDIncrease = tc.incr
			j, err := NewJob(net, JobConfig{ID: 0, Protocol: tc.proto, Workers: f.HostsOf(0), PS: f.HostsOf(1)[0],
				Switch: agg, Gradient: grad, Iterations: 2, Params: &p})
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Start(); err != nil {
				t.Fatal(err)
			}
			net.Sim.Run(10 * netsim.Second) // SwitchML's first-window timers run 640 ms
			checkBooks(t, net, agg, j)
			drops := net.Stats().Dropped
			back := f.QueueBetween(f.Edge[1].ID(), f.Core[0].ID()) // results and GACKs to the workers
			// Forward: 4 gradients per sequence; reverse: 4 results (and,
			// under the asynchronous protocols, 3 GACKs: none for the
			// gradient that completes the aggregate).
			data := grad + netsim.Bytes(j.PacketsPerIteration())*INAHeaderBytes
			ret := 4 * data
			if tc.proto.Async() {
				ret += 3 * netsim.Bytes(j.PacketsPerIteration()) * INAHeaderBytes
			}
			ideal := netsim.TxTime(ret, 100*netsim.Gbps)
			t.Logf("AJCT %v %v (path-limited ideal %v), drops %d (%d on the return path), window %+v",
				j.AJCT(), j.IterationTimes(), ideal, drops, back.Dropped, j.Window(0))
			if j.AJCT() < ideal {
				t.Fatalf("AJCT %v below the path-limited time %v", j.AJCT(), ideal)
			}
			if tc.wantDrops && tc.proto == SwitchML {
				if drops == 0 {
					t.Fatal("SwitchML without congestion control did not overflow the shared path")
				}
				return
			}
			if fwd := drops - back.Dropped; fwd != 0 && !tc.wantDrops {
				t.Fatalf("%d gradients dropped under ECN-driven windows or a pool that fits the buffer", fwd)
			}
			if tc.proto == SwitchML {
				return
			}
			// ATP halves on any echoed mark (AIMD), and its echo ORs the
			// marks of all workers, so it keeps less in flight than the
			// DCTCP-style asynchronous windows.
			slack := 3 * ideal / 2
			if tc.proto == ATP {
				slack = 2 * ideal
			}
			if j.AJCT() > slack {
				t.Fatalf("AJCT %v more than %v (path-limited time %v)", j.AJCT(), slack, ideal)
			}
			if j.Window(0).CWDCuts == 0 {
				t.Fatal("no ECN cut")
			}
		})
	}
}
