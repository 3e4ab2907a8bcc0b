package netsim

import (
	"slices"
	"testing"
)

// seqSink records the sequence numbers it receives and frees the packets.
type seqSink struct {
	net  *Network
	seqs []int64
}

func (k *seqSink) Receive(p *Packet) {
	k.seqs = append(k.seqs, p.Seq)
	k.net.Sim.Packets().Put(p)
}

// TestDropHookSeesPortAndBody: the hooks OnDrop registers see every
// dropped packet once, with its body and the port whose queue refused it
// (nil for a packet a node discarded): the sequences the hook saw and the
// ones the receiver got partition the sequences sent, and the hook's
// counts match the port's and the network's books.
func TestDropHookSeesPortAndBody(t *testing.T) {
	s, net, a, b, _, _ := throughRouter(Gbps, NewFIFO(4000))
	k := &seqSink{net: net}
	ep := b.Register(k)
	var atPort []int64
	var atNode int
	var port *Port
	net.OnDrop(func(p *Packet, at *Port) {
		if at == nil {
			atNode++
			return
		}
		if port != nil && at != port {
			t.Errorf("drops at two ports, %s and %s", net.Node(port.Node).Base().Name(), net.Node(at.Node).Base().Name())
		}
		port = at
		atPort = append(atPort, p.Seq)
	})
	const n = 20
	for i := range n {
		p := net.Sim.Packets().Get()
		p.Dst, p.DstEP, p.Size, p.Payload, p.Flow, p.Seq = b.ID(), ep, 1000, 1000, 9, int64(i)
		a.Send(p)
	}
	// Two packets to a node no route reaches: the router discards them.
	lost := net.AddHost("unreachable")
	for range 2 {
		p := net.Sim.Packets().Get()
		p.Dst, p.Size, p.Flow = lost.ID(), 100, 3
		a.Send(p)
	}
	s.Run(Never)
	mustConserve(t, net)
	if len(atPort) == 0 || port == nil {
		t.Fatal("no drop at the bottleneck: the test exercises nothing")
	}
	if net.Node(port.Node).Base().Name() != "r" || port.Link.To != b.ID() {
		t.Errorf("drops reported at %s's port to node %d, want r's port to b", net.Node(port.Node).Base().Name(), port.Link.To)
	}
	if uint64(len(atPort)) != port.Drops {
		t.Errorf("the hook saw %d drops at the port, the port counted %d", len(atPort), port.Drops)
	}
	if atNode != 2 {
		t.Errorf("the hook saw %d packets discarded by nodes, want the 2 without a route", atNode)
	}
	if st := net.Stats(); st.Dropped != uint64(len(atPort)+atNode) {
		t.Errorf("the network dropped %d, the hook saw %d", st.Dropped, len(atPort)+atNode)
	}
	all := slices.Concat(atPort, k.seqs)
	slices.Sort(all)
	for i, seq := range all {
		if seq != int64(i) {
			t.Fatalf("dropped %v and delivered %v do not partition 0..%d", atPort, k.seqs, n-1)
		}
	}
	if len(all) != n {
		t.Fatalf("%d sequences accounted, want %d", len(all), n)
	}
}
