package netsim

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"
)

// prouter is a switch for the parallel tests: forward by ECMP, using
// the node's own Sim for its books.
type prouter struct{ NodeBase }

func (r *prouter) Receive(p *Packet, _ *Link) {
	pt := r.net.OutPort(r.id, p.Dst, p.Flow)
	if pt == nil {
		r.Drop(p)
		return
	}
	pt.Send(p)
}

// chatter is a host's traffic source and sink: it sends packets of random
// size to random hosts at random (exponential) intervals from its own
// random stream, answers some arrivals with an echo, and keeps a log of
// what it received. Everything it touches is its host's.
type chatter struct {
	h     *Host
	rng   *rand.Rand
	hosts []NodeID
	ep    int32
	sent  int
	limit int
	log   strings.Builder
	timer Timer
}

func (c *chatter) HandleEvent(ev Event) {
	s := c.h.Sim()
	if c.sent >= c.limit {
		return
	}
	c.sent++
	p := s.Packets().Get()
	p.Dst = c.hosts[c.rng.IntN(len(c.hosts))]
	if p.Dst == c.h.ID() {
		p.Dst = c.hosts[(c.rng.IntN(len(c.hosts)-1)+int(c.h.ID())+1)%len(c.hosts)]
	}
	p.DstEP = 0
	p.Size = Bytes(64 + c.rng.IntN(1500))
	p.Flow = uint64(c.h.ID())<<32 | uint64(c.sent)
	p.Seq = int64(c.sent)
	p.SentAt = s.Now()
	c.h.Send(p)
	// Bursts: several packets at the same instant, so ties happen.
	if c.rng.IntN(4) == 0 {
		c.timer.Set(s.Now())
	} else {
		c.timer.SetAfter(Time(c.rng.ExpFloat64() * float64(300*Nanosecond)))
	}
}

func (c *chatter) Receive(p *Packet) {
	s := c.h.Sim()
	fmt.Fprintf(&c.log, "%d %d %d %d %d %v\n", s.Now(), p.Src, p.Seq, p.Size, p.Hops, p.Flags&FlagACK != 0)
	if p.Flags&FlagACK == 0 && p.Seq%3 == 0 {
		p.Dst, p.Flags, p.Size = p.Src, FlagACK, 64
		c.h.Send(p)
		return
	}
	s.Packets().Put(p)
}

// chatNet builds a leaf-spine of leaves x hostsPer hosts and spines, with
// small buffers (so some packets drop), runs chatters for until and
// returns each host's log, the books and the event count.
func chatNet(t *testing.T, threads int, partitioned bool, leaves, spines, hostsPer int, until Time) (string, Stats, uint64) {
	t.Helper()
	return chatNetRuns(t, []int{threads}, partitioned, leaves, spines, hostsPer, until)
}

// chatNetRuns is chatNet in len(threads) runs of equal length, run i
// on threads[i] threads, with a snapshot of the links at every
// barrier (partitioned) in the log.
func chatNetRuns(t *testing.T, threads []int, partitioned bool, leaves, spines, hostsPer int, until Time) (string, Stats, uint64) {
	t.Helper()
	s := New(42)
	net := NewNetwork(s)
	var leafs, spns []*prouter
	for i := 0; i < leaves; i++ {
		r := &prouter{}
		net.AddNode(r, KindSwitch, fmt.Sprintf("leaf%d", i))
		leafs = append(leafs, r)
	}
	for i := 0; i < spines; i++ {
		r := &prouter{}
		net.AddNode(r, KindSwitch, fmt.Sprintf("spine%d", i))
		spns = append(spns, r)
	}
	var hosts []*Host
	var ids []NodeID
	for l, lf := range leafs {
		for i := 0; i < hostsPer; i++ {
			h := net.AddHost(fmt.Sprintf("h%d.%d", l, i))
			net.Connect(h.ID(), lf.ID(), 10*Gbps, 700*Nanosecond, NewFIFO(20_000), NewFIFO(6_000))
			hosts = append(hosts, h)
			ids = append(ids, h.ID())
		}
		for j, sp := range spns {
			// Unequal delays: the lookahead is the smallest.
			net.Connect(lf.ID(), sp.ID(), 10*Gbps, Time(1000+300*j)*Nanosecond, NewFIFO(8_000), NewFIFO(8_000))
		}
	}
	// Over several runs, two switches more, x0 - x1 - leaf 0, carry
	// packets sent between the runs.
	var x0 *prouter
	if len(threads) > 1 {
		x0 = &prouter{}
		x1 := &prouter{}
		net.AddNode(x0, KindSwitch, "x0")
		net.AddNode(x1, KindSwitch, "x1")
		net.Connect(x0.ID(), x1.ID(), 10*Gbps, 1000*Nanosecond, NewFIFO(0), NewFIFO(0))
		net.Connect(x1.ID(), leafs[0].ID(), 10*Gbps, 1000*Nanosecond, NewFIFO(0), NewFIFO(0))
	}
	if partitioned {
		if _, err := net.Partition(net.AutoPartition(0)); err != nil {
			t.Fatal(err)
		}
	}
	// At every barrier: what each link has delivered and the packets in
	// flight, which count those posted to crossing links and not yet
	// drained.
	var bars strings.Builder
	if partitioned && len(threads) > 1 {
		s.OnBarrier(func() {
			for _, l := range net.Links() {
				fmt.Fprintf(&bars, "%d/%d ", l.Delivered(), l.DeliveredBytes())
			}
			fmt.Fprintf(&bars, "in flight %d\n", net.InFlight())
		})
	}
	var cs []*chatter
	for _, h := range hosts {
		c := &chatter{h: h, rng: s.Rand("chatter/" + h.Name()), hosts: ids, limit: 400}
		c.ep = h.Register(c)
		c.timer.Init(h.Sim(), c, 0)
		c.timer.Set(Time(c.rng.IntN(1000)) * Nanosecond)
		cs = append(cs, c)
	}
	// A global event halfway: a snapshot of every host's progress.
	var snap strings.Builder
	s.At(until/2, func() {
		for _, c := range cs {
			fmt.Fprintf(&snap, "%d ", c.sent)
		}
	})
	for i, n := range threads {
		if err := s.SetThreads(n); err != nil {
			t.Fatal(err)
		}
		s.Run(until * Time(i+1) / Time(len(threads)))
		if i < len(threads)-1 {
			// Between runs: a packet from every host.
			for _, c := range cs {
				c.limit++
				c.HandleEvent(Event{})
			}
			// Two packets from x0 to a host behind leaf 0, through x1:
			// the first crosses to x1's partition at once, the second
			// at the end of the first's serialisation, in the next
			// run's first window.
			xs := x0.Sim()
			for k := 0; k < 2; k++ {
				p := xs.Packets().Get()
				p.Src, p.Dst, p.Size = x0.ID(), ids[0], 1000
				p.Flow, p.Seq, p.SentAt = uint64(k), -1, xs.Now()
				xs.books.Injected++
				x0.Ports[0].Send(p)
			}
		}
	}
	if err := net.CheckConservation(); err != nil {
		t.Fatal(err)
	}
	if live, fl := net.LivePackets(), net.InFlight(); uint64(live) != fl {
		t.Fatalf("packet pools: %d live packets but %d in flight", live, fl)
	}
	// Every partition's events are counted by kind, timers included.
	if a, st, o := s.EventMix(); a+st+o != s.Events() || a == 0 || st == 0 || o < uint64(len(cs)) {
		t.Fatalf("event mix %d arrivals, %d starts, %d others for %d events", a, st, o, s.Events())
	}
	var out strings.Builder
	out.WriteString("snapshot " + snap.String() + "\n")
	out.WriteString(bars.String())
	for i, c := range cs {
		fmt.Fprintf(&out, "host %d sent %d\n%s", i, c.sent, c.log.String())
	}
	return out.String(), net.Stats(), s.Events()
}

func digest(s string) string {
	h := fnv.New64a()
	h.Write([]byte(s))
	return fmt.Sprintf("%016x", h.Sum64())
}

// TestParallelByteIdentical runs the same partitioned network at 1, 2, 3
// and 8 threads (more threads than this machine has cores, to shake out
// races) and requires identical logs, books and event counts; and that
// the partitioned run moves as much traffic as the unpartitioned one.
func TestParallelByteIdentical(t *testing.T) {
	until := 40 * Microsecond
	ref, refStats, refEv := chatNet(t, 1, true, 3, 2, 4, until)
	if refStats.Delivered == 0 || refStats.Dropped == 0 {
		t.Fatalf("test traffic too light: %+v", refStats)
	}
	for _, n := range []int{2, 3, 8} {
		got, st, ev := chatNet(t, n, true, 3, 2, 4, until)
		if got != ref || st != refStats || ev != refEv {
			t.Fatalf("threads=%d differs from threads=1: digest %s vs %s, books %+v vs %+v, events %d vs %d",
				n, digest(got), digest(ref), st, refStats, ev, refEv)
		}
	}
	// Unpartitioned: the same sends (each host's stream is its own), so
	// the same injections; ties across partitions may break differently.
	seq, seqStats, _ := chatNet(t, 1, false, 3, 2, 4, until)
	if seqStats.Injected == 0 || len(seq) == 0 {
		t.Fatal("unpartitioned run moved nothing")
	}
	if d := float64(seqStats.Delivered) / float64(refStats.Delivered); d < 0.9 || d > 1.1 {
		t.Fatalf("unpartitioned delivered %d vs partitioned %d", seqStats.Delivered, refStats.Delivered)
	}
}

// TestParallelThreadsBetweenRuns runs a partitioned network in three
// runs, each host sending a packet between them and a switch two
// packets over a crossing link, on 1, 3 and 1 threads
// and on 2, 1 and 2: the bytes, the links' deliveries and the packets in
// flight at every barrier are those of three runs on one thread (one
// thread stages crossing packets on their links, more threads post them
// to outboxes; packets posted between the runs wait in whichever the
// last run used).
func TestParallelThreadsBetweenRuns(t *testing.T) {
	until := 30 * Microsecond
	ref, refStats, refEv := chatNetRuns(t, []int{1, 1, 1}, true, 3, 2, 4, until)
	for _, threads := range [][]int{{1, 3, 1}, {2, 1, 2}, {3, 3, 3}} {
		got, st, ev := chatNetRuns(t, threads, true, 3, 2, 4, until)
		if got != ref || st != refStats || ev != refEv {
			t.Fatalf("threads %v differ from one thread: digest %s vs %s, books %+v vs %+v, events %d vs %d",
				threads, digest(got), digest(ref), st, refStats, ev, refEv)
		}
	}
}

// TestParallelRepeatable runs the partitioned network twice at 4 threads:
// same bytes.
func TestParallelRepeatable(t *testing.T) {
	a, _, _ := chatNet(t, 4, true, 4, 3, 3, 30*Microsecond)
	b, _, _ := chatNet(t, 4, true, 4, 3, 3, 30*Microsecond)
	if a != b {
		t.Fatal("two 4-thread runs differ")
	}
}

// TestPartitionAuto checks the automatic partitions of a leaf-spine: one
// per leaf with its hosts, one per spine, and the lookahead.
func TestPartitionAuto(t *testing.T) {
	s := New(1)
	net := NewNetwork(s)
	l0, l1, sp := &prouter{}, &prouter{}, &prouter{}
	net.AddNode(l0, KindSwitch, "l0")
	net.AddNode(l1, KindSwitch, "l1")
	net.AddNode(sp, KindSwitch, "s0")
	h := []*Host{net.AddHost("a"), net.AddHost("b"), net.AddHost("c")}
	net.Connect(h[0].ID(), l0.ID(), Gbps, 5*Nanosecond, nil, nil)
	net.Connect(h[1].ID(), l0.ID(), Gbps, 5*Nanosecond, nil, nil)
	net.Connect(h[2].ID(), l1.ID(), Gbps, 5*Nanosecond, nil, nil)
	net.Connect(l0.ID(), sp.ID(), Gbps, 3*Microsecond, nil, nil)
	net.Connect(l1.ID(), sp.ID(), Gbps, 2*Microsecond, nil, nil)
	part := net.AutoPartition(0)
	want := []int{0, 1, 2, 0, 0, 1}
	if fmt.Sprint(part) != fmt.Sprint(want) {
		t.Fatalf("partitions %v, want %v", part, want)
	}
	if _, err := net.Partition(part); err != nil {
		t.Fatal(err)
	}
	if la := s.Lookahead(); la != 2*Microsecond {
		t.Fatalf("lookahead %v, want 2us", la)
	}
	if len(s.Partitions()) != 3 || h[2].Sim() != s.Partitions()[1] {
		t.Fatal("nodes not bound to their partitions' Sims")
	}
	// A star with more hosts than the limit splits its hosts.
	s2 := New(1)
	n2 := NewNetwork(s2)
	st := &prouter{}
	n2.AddNode(st, KindSwitch, "sw")
	for i := 0; i < 5; i++ {
		hh := n2.AddHost(fmt.Sprint(i))
		n2.Connect(hh.ID(), st.ID(), Gbps, Microsecond, nil, nil)
	}
	if got := fmt.Sprint(n2.AutoPartition(2)); got != "[0 0 0 1 1 2]" {
		t.Fatalf("star partitions %s", got)
	}
	// Switches alone: the same host groups, every switch by itself.
	if got := fmt.Sprint(n2.AutoPartitionSwitches(2)); got != "[0 1 1 2 2 3]" {
		t.Fatalf("star partitions, switch alone: %s", got)
	}
}

// TestPartitionSwitchesAlone: every switch is a partition of its own and
// its hosts keep their groups; the host cables now cross partitions, so
// the lookahead falls to their delay.
func TestPartitionSwitchesAlone(t *testing.T) {
	s := New(1)
	net := NewNetwork(s)
	l0, l1, sp := &prouter{}, &prouter{}, &prouter{}
	net.AddNode(l0, KindSwitch, "l0")
	net.AddNode(l1, KindSwitch, "l1")
	net.AddNode(sp, KindSwitch, "s0")
	h := []*Host{net.AddHost("a"), net.AddHost("b"), net.AddHost("c")}
	net.Connect(h[0].ID(), l0.ID(), Gbps, 5*Nanosecond, nil, nil)
	net.Connect(h[1].ID(), l0.ID(), Gbps, 5*Nanosecond, nil, nil)
	net.Connect(h[2].ID(), l1.ID(), Gbps, 5*Nanosecond, nil, nil)
	net.Connect(l0.ID(), sp.ID(), Gbps, 3*Microsecond, nil, nil)
	net.Connect(l1.ID(), sp.ID(), Gbps, 2*Microsecond, nil, nil)
	// Nodes in ID order: l0, l1, s0, a, b, c.
	part := net.AutoPartitionSwitches(0)
	if want := "[0 2 4 1 1 3]"; fmt.Sprint(part) != want {
		t.Fatalf("partitions %v, want %s", part, want)
	}
	if _, err := net.Partition(part); err != nil {
		t.Fatal(err)
	}
	if la := s.Lookahead(); la != 5*Nanosecond {
		t.Fatalf("lookahead %v, want the host cables' 5ns", la)
	}
	ps := s.Partitions()
	if len(ps) != 5 || h[0].Sim() != ps[1] || h[1].Sim() != ps[1] || h[2].Sim() != ps[3] || l0.Sim() != ps[0] {
		t.Fatal("nodes not bound to their partitions' Sims")
	}
}

// TestPartitionZeroDelay: a zero-delay crossing link leaves no lookahead,
// so the network runs as one partition, and says so.
func TestPartitionZeroDelay(t *testing.T) {
	s := New(1)
	net := NewNetwork(s)
	a, b := net.AddHost("a"), net.AddHost("b")
	r := &prouter{}
	net.AddNode(r, KindSwitch, "r")
	net.Connect(a.ID(), r.ID(), Gbps, 0, nil, nil)
	net.Connect(b.ID(), r.ID(), Gbps, 0, nil, nil)
	note, err := net.Partition([]int{0, 1, 1})
	if err != nil || note == "" || len(s.Partitions()) != 1 {
		t.Fatalf("note %q err %v partitions %d", note, err, len(s.Partitions()))
	}
}

// TestParallelMisuse: a component bound to the coordinator and used
// inside a window is caught, at one thread as at many.
func TestParallelMisuse(t *testing.T) {
	s, a := partitionedPair(t, 1)
	a.Sim().Schedule(5, HandlerFunc(func(Event) { s.Now() }), 0, nil, 0)
	defer func() {
		if recover() == nil {
			t.Fatal("reading the coordinator's clock inside a window did not panic")
		}
	}()
	s.Run(Never)
}

// TestParallelPanicOnWorker: a panic in a partition run by a worker
// goroutine reaches the caller of Run, who can recover it.
func TestParallelPanicOnWorker(t *testing.T) {
	s := New(1)
	net := NewNetwork(s)
	r := &prouter{}
	net.AddNode(r, KindSwitch, "r")
	var hs []*Host
	for i := 0; i < 4; i++ {
		h := net.AddHost(fmt.Sprint(i))
		net.Connect(h.ID(), r.ID(), Gbps, Microsecond, nil, nil)
		hs = append(hs, h)
	}
	if _, err := net.Partition(net.AutoPartition(1)); err != nil {
		t.Fatal(err)
	}
	_ = s.SetThreads(4)
	for _, h := range hs {
		h.Sim().Schedule(5, HandlerFunc(func(Event) { panic("boom") }), 0, nil, 0)
	}
	defer func() {
		if v := recover(); v != "boom" {
			t.Fatalf("recovered %v, want boom", v)
		}
	}()
	s.Run(Never)
}

// TestParallelMonitorAndStop: the coordinator's monitor is called at
// barriers with the total event count and can halt the run.
func TestParallelMonitorAndStop(t *testing.T) {
	s, a := partitionedPair(t, 7)
	_ = s.SetThreads(2)
	n := 0
	var tick HandlerFunc
	tick = func(ev Event) { n++; a.Sim().Schedule(ev.At+100*Nanosecond, tick, 0, nil, 0) }
	a.Sim().Schedule(0, tick, 0, nil, 0)
	calls := 0
	s.SetMonitor(50, func(now Time, ev uint64) bool {
		calls++
		return ev < 500
	})
	s.Run(Never)
	if !s.Halted() || calls == 0 || n < 500 || n > 600 {
		t.Fatalf("halted=%v calls=%d events=%d", s.Halted(), calls, n)
	}
}

// BenchmarkWindowBarrier is the cost of one window of the parallel engine
// with nothing to do: 2 partitions, each with one event per window, on
// the given threads. It is the barrier cost the profile's predictions
// add per window: go test ./netsim -run xxx -bench WindowBarrier -count 5
func BenchmarkWindowBarrier(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			s := New(1)
			net := NewNetwork(s)
			x, y := &prouter{}, &prouter{}
			net.AddNode(x, KindSwitch, "x")
			net.AddNode(y, KindSwitch, "y")
			net.Connect(x.ID(), y.ID(), Gbps, Microsecond, nil, nil)
			if _, err := net.Partition([]int{0, 1}); err != nil {
				b.Fatal(err)
			}
			_ = s.SetThreads(threads)
			var tick func(*Sim) HandlerFunc
			tick = func(p *Sim) HandlerFunc {
				var h HandlerFunc
				h = func(ev Event) { p.Schedule(ev.At+Microsecond, h, 0, nil, 0) }
				return h
			}
			for _, p := range s.Partitions() {
				p.Schedule(0, tick(p), 0, nil, 0)
			}
			b.ResetTimer()
			s.Run(Time(b.N) * Microsecond)
		})
	}
}

// partitionedPair builds hosts a and b on one router, 1 us links, in
// automatic partitions, on a Sim of the given seed; it returns the Sim
// and host a.
func partitionedPair(t *testing.T, seed uint64) (*Sim, *Host) {
	t.Helper()
	s := New(seed)
	net := NewNetwork(s)
	a, b := net.AddHost("a"), net.AddHost("b")
	r := &prouter{}
	net.AddNode(r, KindSwitch, "r")
	net.Connect(a.ID(), r.ID(), Gbps, Microsecond, nil, nil)
	net.Connect(b.ID(), r.ID(), Gbps, Microsecond, nil, nil)
	if _, err := net.Partition(net.AutoPartition(1)); err != nil {
		t.Fatal(err)
	}
	return s, a
}
