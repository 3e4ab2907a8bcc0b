package switchmodel

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"syncsim/netsim"
)

// A port that plans departures at admission (netsim's plan.go) must
// deliver every packet at the picosecond an eager port does, mark and
// drop the same packets, and read the same (queue, counters, busy time,
// delivered packets) at any moment, with fewer events. The fan-in below
// has no two events at one picosecond that could be ordered either way:
// cable delays, start times and packet sizes are all distinct odd
// picosecond counts, so the only differences planning may make (among
// events of one instant) cannot occur, and every figure must match.

// planSink logs what reaches a host, on the host's own Sim.
type planSink struct {
	h   *netsim.Host
	log strings.Builder
	n   int
}

func (k *planSink) Receive(p *netsim.Packet) {
	fmt.Fprintf(&k.log, "%d %d %d %d %v\n", k.h.Sim().Now(), p.Src, p.Flow, p.Seq, p.Flags&netsim.FlagCE != 0)
	k.n++
	k.h.Sim().Packets().Put(p)
}

// planOut is what one run of the fan-in logged.
type planOut struct {
	sink   string        // the sink's arrivals
	probe  string        // the probes every 250 ns
	extra  string        // the probes at the extra times asked for
	bar    string        // the probes at the barriers of a partitioned run
	barAt  []netsim.Time // the barriers' times
	events uint64
}

// planRun builds four senders into a switch and a sink behind a 10 Gbps
// port with a 20-packet buffer and K = 5, sends bursts, probes every port
// and queue (every 250 ns, at the times extra and at every barrier), and
// returns what it logged.
// mode: "eager" (planning off everywhere), "planned", "partitioned-N"
// (planned, every node its own partition, N threads) or
// "eager-partitioned-N".
func planRun(t *testing.T, mode string, extra []netsim.Time) planOut {
	t.Helper()
	s := netsim.New(11)
	net := netsim.NewNetwork(s)
	sw := Add(net, "sw")
	cfg := QueueConfig{Buffer: 20 * 1500, ECNPackets: 5}
	var senders []*netsim.Host
	for i := 0; i < 4; i++ {
		h := net.AddHost(fmt.Sprintf("h%d", i))
		// Distinct odd delays, 1.000137 us apart.
		d := netsim.Time(1_000_001 + 137_002*i + 1)
		net.Connect(h.ID(), sw.ID(), 10*netsim.Gbps, d, NewQueue(s, cfg), NewQueue(s, cfg))
		senders = append(senders, h)
	}
	dst := net.AddHost("dst")
	net.Connect(sw.ID(), dst.ID(), 10*netsim.Gbps, 700_001, NewQueue(s, cfg), NewQueue(s, cfg))
	net.BuildRoutes()
	var ports []*netsim.Port
	for i := 0; i < net.NumNodes(); i++ {
		ports = append(ports, net.Node(netsim.NodeID(i)).Base().Ports...)
	}
	for _, pt := range ports {
		eager := strings.HasPrefix(mode, "eager")
		pt.SetPlanning(!eager)
		if _, ok := pt.Queue().(netsim.PlannedQueue); !ok || pt.Planned() == eager {
			t.Fatalf("%s: port of node %d planned %v", mode, pt.Node, pt.Planned())
		}
	}
	if strings.Contains(mode, "partitioned") {
		part := make([]int, net.NumNodes())
		for i := range part {
			part[i] = i
		}
		if _, err := net.Partition(part); err != nil {
			t.Fatal(err)
		}
		var threads int
		fmt.Sscanf(mode[strings.LastIndex(mode, "-")+1:], "%d", &threads)
		if err := s.SetThreads(threads); err != nil {
			t.Fatal(err)
		}
	}
	k := &planSink{h: dst}
	dst.Register(k)
	// Bursts at odd picosecond times, of sizes that are odd byte counts
	// so that no serialisation (0.8 ps a byte) ends where another event
	// falls.
	rng := rand.New(rand.NewPCG(5, 6))
	for i, h := range senders {
		h := h
		for b := 0; b < 12; b++ {
			at := netsim.Time(rng.Int64N(100_000_000)/2*2 + 1 + int64(i)*2_000)
			n := 1 + rng.IntN(30)
			flow := uint64(100*i + b)
			size := netsim.Bytes(401 + 2*rng.IntN(550))
			h.Sim().At(at, func() {
				for j := 0; j < n; j++ {
					p := h.Sim().Packets().Get()
					p.Dst, p.Size, p.Payload, p.Flow, p.Flags = dst.ID(), size, size, flow, netsim.FlagECT
					p.Seq = int64(j)
					h.Send(p)
				}
			})
		}
	}
	// Probes on the coordinator every 250 ns and a picosecond; at the
	// extra times; in a partitioned run at every barrier, where the
	// partitions' clocks lag the window's end.
	var probe, ext, bar strings.Builder
	var barAt []netsim.Time
	snap := func(b *strings.Builder, at netsim.Time) {
		fmt.Fprintf(b, "%d inflight %d\n", at, net.InFlight())
		for _, pt := range ports {
			q := pt.Queue().(*PortQueue)
			fmt.Fprintf(b, " %d.%d backlog %d tx %d %d busytime %d q %d %d mean %.9g max %d marked %d dropped %d deq %d link %d %d\n",
				pt.Node, pt.Index, pt.Backlog(), pt.TxPackets, pt.TxBytes, pt.BusyTime(),
				q.Len(), q.Bytes(), q.MeanPackets(at), q.MaxPackets, q.Marked, q.Dropped, q.Dequeued,
				pt.Link.Delivered(), pt.Link.DeliveredBytes())
		}
	}
	for at := netsim.Time(1); at < 150*netsim.Microsecond; at += 250_001 {
		s.At(at, func() { snap(&probe, at) })
	}
	for _, at := range extra {
		s.At(at, func() { snap(&ext, at) })
	}
	if strings.Contains(mode, "partitioned") {
		s.OnBarrier(func() {
			if s.Now() < 150*netsim.Microsecond {
				barAt = append(barAt, s.Now())
				snap(&bar, s.Now())
			}
		})
	}
	s.Run(netsim.Never)
	if k.n == 0 {
		t.Fatalf("%s: nothing delivered", mode)
	}
	mustConserve(t, net, 0)
	return planOut{k.log.String(), probe.String(), ext.String(), bar.String(), barAt, s.Events()}
}

func TestPlannedMatchesEager(t *testing.T) {
	e := planRun(t, "eager", nil)
	if !regexp.MustCompile(`dropped [1-9]`).MatchString(e.probe) || !regexp.MustCompile(`marked [1-9]`).MatchString(e.probe) {
		t.Fatalf("the fan-in neither drops nor marks; it tests nothing:\n%s", e.probe[:min(len(e.probe), 2000)])
	}
	var barAt []netsim.Time
	for _, mode := range []string{"planned", "partitioned-1", "partitioned-2"} {
		o := planRun(t, mode, nil)
		if o.sink != e.sink {
			t.Errorf("%s: the sink's log differs from the eager port's:\n%s", mode, firstDiff(e.sink, o.sink))
		}
		if o.probe != e.probe {
			t.Errorf("%s: the probes differ from the eager port's:\n%s", mode, firstDiff(e.probe, o.probe))
		}
		if mode == "planned" && o.events >= e.events {
			t.Errorf("planned: %d events, the eager port %d: planning saved none", o.events, e.events)
		}
		if mode == "partitioned-1" {
			barAt = o.barAt
			// What the barriers saw, against an eager sequential run
			// probed at the same instants (the partitions' events up to
			// then have fired; the fan-in has none at those instants).
			if w := planRun(t, "eager", barAt); o.bar != w.extra {
				t.Errorf("%s: the barrier probes differ from the eager port's:\n%s", mode, firstDiff(w.extra, o.bar))
			}
		}
	}
	if len(barAt) < 100 {
		t.Errorf("only %d barriers probed", len(barAt))
	}
}

// firstDiff shows the first line where two logs differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n want %s\n got  %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(al), len(bl))
}
