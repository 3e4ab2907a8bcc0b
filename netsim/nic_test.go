package netsim

import "testing"

// txCounter is a sending endpoint that counts the TxDone credits of its
// own flow and, like TCP small queues, keeps at most limit packets in its
// host, sending up to total in all.
type txCounter struct {
	h            *Host
	ep           int32
	flow         uint64
	dst          NodeID
	size         Bytes
	limit        int
	total, sent  int
	inHost, done int
	wrongFlow    int
	maxInHost    int
}

func (c *txCounter) Receive(p *Packet) { c.h.Sim().Packets().Put(p) }

func (c *txCounter) TxDone(flow uint64, size Bytes) {
	if flow != c.flow {
		c.wrongFlow++
		return
	}
	c.inHost--
	c.done++
	c.pump()
}

func (c *txCounter) pump() {
	for c.sent < c.total && (c.limit == 0 || c.inHost < c.limit) {
		p := c.h.Sim().Packets().Get()
		p.Dst, p.DstEP, p.Size, p.Payload, p.Flow, p.SrcEP = c.dst, 0, c.size, c.size, c.flow, c.ep
		c.sent++
		c.inHost++
		c.maxInHost = max(c.maxInHost, c.inHost)
		c.h.Send(p)
	}
}

// nicRig is a host a with a 10 Gbps NIC whose queue holds 4 packets of
// 1000 B, into a router and on to host b.
func nicRig(t *testing.T, flowCtl bool) (*Network, *Host, *Host, *Port, *sink) {
	t.Helper()
	net := NewNetwork(New(1))
	a, b := net.AddHost("a"), net.AddHost("b")
	r := addRouter(net, "r")
	nicPort, _ := net.Connect(a.ID(), r.id, 10*Gbps, Microsecond, NewFIFO(4000), nil)
	net.Connect(r.id, b.ID(), 10*Gbps, Microsecond, nil, nil)
	net.BuildRoutes()
	k := &sink{net: net}
	b.Register(k)
	a.SetNICFlowControl(flowCtl)
	return net, a, b, nicPort, k
}

// TestNICFlowControlNeverDrops: a burst of 50 packets into a NIC queue of
// 4 drops 46 packets drop-tail and none with flow control, which delivers
// all 50 back to back at line rate (one every 800 ns) and keeps the books.
func TestNICFlowControlNeverDrops(t *testing.T) {
	for _, fc := range []bool{false, true} {
		net, a, b, nic, k := nicRig(t, fc)
		sendN(net, a, b.ID(), 0, 50, 1000, 7)
		if fc {
			if n, by := a.NICBacklog(); n != 45 || by != 45000 {
				t.Fatalf("backlog %d packets, %d B after the burst; want 45 (1 serialising, 4 queued)", n, by)
			}
			if live, fl, bl := net.Sim.Packets().Live(), net.InFlight(), net.HostBacklog(); uint64(live) != fl+bl {
				t.Fatalf("live %d, in flight %d, backlog %d", live, fl, bl)
			}
		}
		net.Sim.Run(Never)
		mustConserve(t, net)
		want := 50
		if !fc {
			want = 5
		}
		if len(k.times) != want || int(nic.Drops) != 50-want {
			t.Fatalf("flow control %v: delivered %d, NIC drops %d; want %d and %d", fc, len(k.times), nic.Drops, want, 50-want)
		}
		for i := 1; i < len(k.times); i++ {
			if d := k.times[i] - k.times[i-1]; d != 800*Nanosecond {
				t.Fatalf("flow control %v: packets %d and %d arrived %v apart, want 800ns", fc, i-1, i, d)
			}
		}
		if st := a.NICStats(); fc && (st.Deferred != 45 || st.MaxBacklogBytes != 45000) {
			t.Fatalf("NIC stats %+v, want 45 deferred and 45000 B at most", st)
		}
	}
}

// TestNICRoundRobin: three endpoints that each burst 30 packets share the
// NIC packet by packet once the queue is full: after the first queue-full
// the arrivals cycle through the three flows.
func TestNICRoundRobin(t *testing.T) {
	net, a, b, _, _ := nicRig(t, true)
	var order []uint64
	rec := &flowLog{net: net, order: &order}
	b.Unregister(0)
	b.Register(rec)
	for f := uint64(1); f <= 3; f++ {
		c := &txCounter{h: a, flow: f, dst: b.ID(), size: 1000, total: 30}
		c.ep = a.Register(c)
		c.pump()
	}
	net.Sim.Run(Never)
	mustConserve(t, net)
	if len(order) != 90 {
		t.Fatalf("%d packets delivered, want 90", len(order))
	}
	// The first five are flow 1's (one serialising, four queued); from
	// then on the backlogs take turns.
	for i := 0; i < 5; i++ {
		if order[i] != 1 {
			t.Fatalf("packet %d of flow %d, want flow 1 (it found the queue empty)", i, order[i])
		}
	}
	counts := map[uint64]int{}
	for i := 5; i < 65; i++ {
		counts[order[i]]++
		if i >= 8 && order[i] == order[i-1] {
			t.Fatalf("packets %d and %d both of flow %d: the backlogs do not take turns (%v)", i-1, i, order[i], order[:20])
		}
	}
	if counts[1] < 18 || counts[2] < 18 || counts[3] < 18 {
		t.Fatalf("shares of packets 5-64: %v, want about 20 each", counts)
	}
}

// flowLog records the flow of each packet delivered.
type flowLog struct {
	net   *Network
	order *[]uint64
}

func (l *flowLog) Receive(p *Packet) {
	*l.order = append(*l.order, p.Flow)
	l.net.Sim.Packets().Put(p)
}

// TestTxDoneCredits: an endpoint limited to 3 packets in its host gets one
// credit per packet, for its own flow only, and never holds more than 3.
func TestTxDoneCredits(t *testing.T) {
	net, a, b, _, k := nicRig(t, true)
	c := &txCounter{h: a, flow: 9, dst: b.ID(), size: 1000, total: 40, limit: 3}
	c.ep = a.Register(c)
	c.pump()
	net.Sim.Run(Never)
	mustConserve(t, net)
	if c.done != 40 || c.inHost != 0 || c.maxInHost != 3 || c.wrongFlow != 0 || len(k.times) != 40 {
		t.Fatalf("credits %d, in host %d, most %d, wrong flow %d, delivered %d; want 40, 0, 3, 0, 40",
			c.done, c.inHost, c.maxInHost, c.wrongFlow, len(k.times))
	}
	if st := a.NICStats(); st.Deferred != 0 {
		t.Fatalf("a sender that keeps 3 packets in its host deferred %d (the queue holds 4)", st.Deferred)
	}
}
