package inagg

import (
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// cbr is a constant-rate UDP-like source (PA-ATP Fig. 8's background flow).
type cbr struct {
	h        *netsim.Host
	dst      netsim.NodeID
	flow     uint64
	size     netsim.Bytes
	gap      netsim.Time
	stop     netsim.Time
	net      *netsim.Network
	sentPkts int
}

func (c *cbr) HandleEvent(netsim.Event) {
	if c.net.Sim.Now() >= c.stop {
		return
	}
	p := c.net.Sim.Packets().Get()
	p.Dst, p.DstEP, p.Flow, p.Size, p.Payload = c.dst, -1, c.flow, c.size, c.size
	c.h.Send(p)
	c.sentPkts++
	c.net.Sim.After(c.gap, c, 0, nil, 0)
}

// TestStragglerPathFig8 is PA-ATP's basic experiment (Sec. V-B, Fig. 8)
// reduced to job A: its two workers use paths p1 and p2 of a 40 Gbps
// dumbbell, and a 32 Gbps UDP flow shares p1 from 0 to 1 ms. Under ATP's
// synchronous window the worker on the free path p2 is held to the
// straggler's pace; under PA-ATP it keeps sending near line rate,
// buffering gradients in the aggregators. ATP runs as its client does
// (12 threads of up to 100 packets) and, for the completion-time check
// below, with one window of at most 2 x BDP = 400 packets ("atp-1").
func TestStragglerPathFig8(t *testing.T) {
	sent := map[string]netsim.Bytes{}
	jct := map[string]netsim.Time{}
	one := DefaultParams()
	one.ATPThreads, one.ATPThreadWindow = 1, 400
	for _, run := range []struct {
		name   string
		proto  Protocol
		params *Params
	}{{"atp", ATP, nil}, {"atp-1", ATP, &one}, {"pa-atp", PAATP, nil}} {
		proto := run.proto
		net := netsim.NewNetwork(netsim.New(8))
		q := switchmodel.QueueConfig{Buffer: 256 * netsim.Kilobyte, ECNBytes: 30 * netsim.Kilobyte}
		f, err := topologies.Dumbbell(net, 3, 2, 2, 40*netsim.Gbps, 40*netsim.Gbps, 2*netsim.Microsecond, q)
		if err != nil {
			t.Fatal(err)
		}
		ac := DefaultAggregatorConfig()
		ac.BDPPackets = 200 // 40 Gbps x ~12 us / 310 B
		agg, err := NewAggregator(f.Edge[1], ac)
		if err != nil {
			t.Fatal(err)
		}
		left, right := f.HostsOf(0), f.HostsOf(1)
		ps := right[0]
		var flows []uint64
		for i, w := range left[:2] {
			fl, err := f.FlowForPath(w.ID(), ps.ID(), i)
			if err != nil {
				t.Fatal(err)
			}
			flows = append(flows, fl)
		}
		ufl, err := f.FlowForPath(left[2].ID(), right[1].ID(), 0)
		if err != nil {
			t.Fatal(err)
		}
		u := &cbr{h: left[2], dst: right[1].ID(), flow: ufl, size: 1500, gap: netsim.TxTime(1500, 32*netsim.Gbps),
			stop: netsim.Millisecond, net: net}
		net.Sim.Schedule(0, u, 0, nil, 0)
		j, err := NewJob(net, JobConfig{ID: 0, Protocol: proto, Workers: left[:2], PS: ps, Switch: agg,
			Gradient: 7 * netsim.Megabyte, Iterations: 1, Flows: flows, Params: run.params})
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Start(); err != nil {
			t.Fatal(err)
		}
		net.Sim.Run(netsim.Millisecond)
		sent[run.name] = j.WorkerStats(1).SentBytes
		s0 := j.WorkerStats(0).SentBytes
		net.Sim.Run(netsim.Second)
		checkBooks(t, net, agg, j)
		jct[run.name] = j.AJCT()
		t.Logf("%s: by 1 ms worker on p1 sent %d B, worker on p2 %d B; JCT %v; %d drops", run.name, s0, sent[run.name], j.AJCT(), net.Stats().Dropped)
	}
	for _, atp := range []string{"atp", "atp-1"} {
		if sent["pa-atp"] < 2*sent[atp] {
			t.Errorf("the worker on the free path sent %d B under PA-ATP and %d B under %s by 1 ms: no asynchrony gain", sent["pa-atp"], sent[atp], atp)
		}
	}
	// After the UDP flow stops, the worker on p1 is the straggler under
	// both protocols and regrows its window by 1500 B per round trip. Under
	// PA-ATP its downlink carries a 62 B GACK beside every 310 B result, so
	// it pushes at most 40 x 310/372 = 33.3 Gbps against ATP's 40 (the GACK
	// overhead of Sec. V-C); with a single job that cancels the head start
	// of the worker on p2 (the paper's gain in Fig. 8 comes from job B,
	// which this test leaves out). The completion times must stay close.
	// With 12 threads ATP's straggler regrows 12 windows by 1500 B per
	// round trip, so the comparison is made against one window; that
	// window starts at its cap of 400 packets, as the client starts its
	// thread windows, which gives ATP a head start of a few round trips
	// (measured: 2.91 ms against 3.16 ms when it started at 100 packets),
	// hence 10% rather than 5%.
	if float64(jct["pa-atp"]) > 1.10*float64(jct["atp-1"]) {
		t.Errorf("PA-ATP JCT %v more than 10%% above single-window ATP's %v", jct["pa-atp"], jct["atp-1"])
	}
}
