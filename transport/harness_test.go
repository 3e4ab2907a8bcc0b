package transport

import (
	"testing"

	"syncsim/netsim"
)

// testSwitch is a minimal output-queued switch: it forwards every packet on
// the shortest-path port (flow-hash ECMP), so transport tests do not depend
// on package switchmodel.
type testSwitch struct{ netsim.NodeBase }

func (s *testSwitch) Receive(p *netsim.Packet, _ *netsim.Link) {
	net := s.Net()
	pt := net.OutPort(s.ID(), p.Dst, p.Flow)
	if pt == nil {
		net.Drop(p)
		return
	}
	pt.Send(p)
}

func addSwitch(net *netsim.Network, name string) *testSwitch {
	s := &testSwitch{}
	net.AddNode(s, netsim.KindSwitch, name)
	return s
}

// ecnQueue is a drop-tail FIFO of limit bytes that marks CE on ECN-capable
// packets when it already holds at least k packets at their arrival (the
// DCTCP step marking of Sec. 3.1 of the DCTCP paper). It records the peak
// occupancy seen from a chosen time on.
type ecnQueue struct {
	netsim.FIFO
	k            int
	from         netsim.Time
	maxPkts      int
	minPkts      int // smallest occupancy found by an arrival (-1: none yet)
	maxBytes     netsim.Bytes
	marks, drops uint64
}

func newECNQueue(limit netsim.Bytes, k int) *ecnQueue {
	return &ecnQueue{FIFO: netsim.FIFO{Limit: limit}, k: k, minPkts: -1}
}

func (q *ecnQueue) Enqueue(p *netsim.Packet, now netsim.Time) bool {
	if now >= q.from && (q.minPkts < 0 || q.Len() < q.minPkts) {
		q.minPkts = q.Len()
	}
	if q.k > 0 && q.Len() >= q.k && p.Flags&netsim.FlagECT != 0 {
		p.Flags |= netsim.FlagCE
		q.marks++
	}
	if !q.FIFO.Enqueue(p, now) {
		q.drops++
		return false
	}
	if now >= q.from {
		if q.Len() > q.maxPkts {
			q.maxPkts = q.Len()
		}
		if q.Bytes() > q.maxBytes {
			q.maxBytes = q.Bytes()
		}
	}
	return true
}

// lossQueue is an unlimited FIFO that drops the first transmission of
// chosen data sequence numbers of one flow (retransmissions pass).
type lossQueue struct {
	netsim.FIFO
	flow    uint64
	drop    map[int64]bool
	dropped []int64
}

func (q *lossQueue) Enqueue(p *netsim.Packet, now netsim.Time) bool {
	if p.Flow == q.flow && p.Flags&netsim.FlagACK == 0 && p.Flags&netsim.FlagRetx == 0 && q.drop[p.Seq] {
		delete(q.drop, p.Seq)
		q.dropped = append(q.dropped, p.Seq)
		return false
	}
	return q.FIFO.Enqueue(p, now)
}

// star is n sender hosts and one receiver on a single switch; every link
// has the same rate and delay, and the switch port towards the receiver
// uses the given queue.
type star struct {
	sim     *netsim.Sim
	net     *netsim.Network
	senders []*netsim.Host
	recv    *netsim.Host
	sw      *testSwitch
	bottle  *netsim.Port
}

func newStar(n int, rate netsim.Rate, delay netsim.Time, q netsim.Queue, opts ...netsim.Option) *star {
	sim := netsim.New(1, opts...)
	net := netsim.NewNetwork(sim)
	s := &star{sim: sim, net: net}
	s.sw = addSwitch(net, "sw")
	for i := 0; i < n; i++ {
		h := net.AddHost("s")
		net.Connect(h.ID(), s.sw.ID(), rate, delay, nil, nil)
		s.senders = append(s.senders, h)
	}
	s.recv = net.AddHost("r")
	s.bottle, _ = net.Connect(s.sw.ID(), s.recv.ID(), rate, delay, q, nil)
	net.BuildRoutes()
	return s
}

// pair is two hosts on one cable.
func pair(rate netsim.Rate, delay netsim.Time, qa netsim.Queue) (*netsim.Network, *netsim.Host, *netsim.Host) {
	sim := netsim.New(1)
	net := netsim.NewNetwork(sim)
	a, b := net.AddHost("a"), net.AddHost("b")
	net.Connect(a.ID(), b.ID(), rate, delay, qa, nil)
	net.BuildRoutes()
	return net, a, b
}

// checkBooks drains nothing; it asserts packet conservation and that every
// live packet is in the network (no leak).
func checkBooks(t *testing.T, net *netsim.Network) {
	t.Helper()
	if err := net.CheckConservation(); err != nil {
		t.Fatal(err)
	}
	if live, fl := net.Sim.Packets().Live(), net.InFlight(); uint64(live) != fl {
		t.Fatalf("packet pool: %d live packets but %d in the network (leak)", live, fl)
	}
}

// jain is Jain's fairness index of xs.
func jain(xs []float64) float64 {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	if s2 == 0 {
		return 0
	}
	return s * s / (float64(len(xs)) * s2)
}
