package netsim

import (
	"strings"
	"testing"
)

// pinger sends one packet from its host every gap, up to limit, to dst.
type pinger struct {
	h      *Host
	dst    NodeID
	gap    Time
	limit  int
	count  int
	record bool // keep every packet sent in sent
	sent   []*Packet
	timer  Timer
}

func (g *pinger) HandleEvent(Event) {
	if g.count >= g.limit {
		return
	}
	p := g.h.Sim().Packets().Get()
	p.Dst, p.Size, p.Flow, p.Seq = g.dst, 1000, 7, int64(g.count)
	p.Ext[3] = 333
	g.count++
	if g.record {
		g.sent = append(g.sent, p)
	}
	g.h.Send(p)
	g.timer.SetAfter(g.gap)
}

// lendSink frees what it receives, remembering the first packet.
type lendSink struct {
	h     *Host
	first *Packet
	seq   int64
	n     int
}

func (k *lendSink) Receive(p *Packet) {
	if k.n == 0 {
		k.first, k.seq = p, p.Seq
	}
	k.n++
	k.h.Sim().Packets().Put(p)
}

// lendPair is partitionedPair with a pinger on a (to b, in the other
// partition) and a lendSink on b.
func lendPair(t *testing.T, gap Time, limit int) (*Sim, *pinger, *lendSink) {
	t.Helper()
	s, a := partitionedPair(t, 1)
	b := a.net.Node(1).(*Host)
	if a.Sim() == b.Sim() {
		t.Fatal("a and b share a partition")
	}
	g := &pinger{h: a, dst: b.ID(), gap: gap, limit: limit}
	g.timer.Init(a.Sim(), g, 0)
	g.timer.Set(0)
	k := &lendSink{h: b}
	b.Register(k)
	return s, g, k
}

// TestLendNoCopy: a packet crossing partitions arrives as the very body
// its sender filled in (lent, not copied), and once the receiver frees
// it, the body goes back to its home pool, whose next Get reuses it.
func TestLendNoCopy(t *testing.T) {
	s, g, k := lendPair(t, Microsecond, 1)
	g.record = true
	// A later event of the sender's partition, so that windows run after
	// the one in which the sink freed the packet.
	g.h.Sim().Schedule(90*Microsecond, HandlerFunc(func(Event) {}), 0, nil, 0)
	s.Run(100 * Microsecond)
	if k.n != 1 || len(g.sent) != 1 {
		t.Fatalf("received %d of %d", k.n, len(g.sent))
	}
	if k.first != g.sent[0] || k.seq != 0 {
		t.Fatalf("the receiver got a copy (%p), not the sender's body (%p)", k.first, g.sent[0])
	}
	a, b := g.h.Sim().Packets(), k.h.Sim().Packets()
	if b.Allocated() != 0 || a.Allocated() != 1 {
		t.Fatalf("allocated: sender's pool %d (want 1), receiver's %d (want 0)", a.Allocated(), b.Allocated())
	}
	if live := g.h.net.LivePackets(); live != 0 {
		t.Fatalf("%d packets live after the lendSink freed everything", live)
	}
	if p := a.Get(); p != g.sent[0] || p.Ext[3] != 0 || p.Flags != 0 {
		t.Fatalf("the home pool's next packet is %p (want the returned %p), zeroed: %v", p, g.sent[0], p.Ext[3] == 0 && p.Flags == 0)
	}
}

// TestLendReturnsBodies: a long one-way stream across partitions keeps
// the sender's pool at the packets in flight plus two windows of
// returns; if freed bodies stayed with the receiver, the sender would cut
// a new packet for every send.
func TestLendReturnsBodies(t *testing.T) {
	const n = 500
	s, g, k := lendPair(t, 10*Microsecond, n)
	s.Run(10 * Millisecond)
	if k.n != n {
		t.Fatalf("received %d of %d", k.n, n)
	}
	a, b := g.h.Sim().Packets(), k.h.Sim().Packets()
	// In flight: 2 us of links and 16 us of serialisation (1,000 bytes at
	// 1 Gbps, twice) at one packet per 10 us, and up to two 1 us windows
	// before a freed body is home.
	if a.Allocated() > 8 || b.Allocated() != 0 {
		t.Fatalf("allocated: sender's pool %d (want at most 8), receiver's %d (want 0)", a.Allocated(), b.Allocated())
	}
	if live := g.h.net.LivePackets(); live != 0 {
		t.Fatalf("%d packets live", live)
	}
}

// TestLendNoAllocs: in steady state the crossing path (post, drain, a
// lent body freed and returned) allocates nothing.
func TestLendNoAllocs(t *testing.T) {
	s, _, k := lendPair(t, 10*Microsecond, 1<<30)
	s.Run(100 * Microsecond)
	if k.n == 0 {
		t.Fatal("nothing received")
	}
	if a := testing.AllocsPerRun(20, func() { s.Run(s.Now() + 100*Microsecond) }); a != 0 {
		t.Fatalf("%v allocations per 100 us of crossings", a)
	}
}

// TestPartitionTooMany: more partitions than references can be shared
// among is one clear error.
func TestPartitionTooMany(t *testing.T) {
	s := New(1)
	net := NewNetwork(s)
	part := make([]int, MaxPartitions+1)
	for i := range part {
		net.AddHost("h")
		part[i] = i
	}
	if _, err := net.Partition(part); err == nil || !strings.Contains(err.Error(), "partitions") {
		t.Fatalf("Partition of %d partitions: %v", len(part), err)
	}
}
