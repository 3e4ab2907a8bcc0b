package netsim

import (
	"reflect"
	"testing"
	"unsafe"
)

// logEP logs each packet it receives.
type logEP struct {
	net *Network
	log *[]string
}

func (e logEP) Receive(p *Packet) {
	*e.log = append(*e.log, "rx@"+e.net.Sim.Now().String())
	e.net.Sim.Packets().Put(p)
}

// TestFixedEventsOrderAndNoPayload checks that link arrivals and port
// starts, which take no slab payload (fixed.go), fire in the one (time,
// sequence) order with events that do: an event scheduled before a
// packet is sent, for the instant the packet arrives, fires before the
// arrival, one scheduled after fires after it. Forty packets cross the
// link (40 port starts, one arrival event per packet) and the slab holds
// only the two payload events.
func TestFixedEventsOrderAndNoPayload(t *testing.T) {
	if lifoTies {
		t.Skip("asserts first-scheduled-first order among ties; this build has the other (ties_lifo.go)")
	}
	s := New(1)
	net := NewNetwork(s)
	a, b := net.AddHost("a"), net.AddHost("b")
	// 100 Gbps: 1500 B serialise in 120 ns; the first arrives at 10.12 us.
	net.Connect(a.ID(), b.ID(), 100*Gbps, 10*Microsecond, nil, nil)
	var log []string
	ep := b.Register(logEP{net, &log})
	first := 10*Microsecond + 120*Nanosecond
	mark := func(name string) Handler {
		return HandlerFunc(func(ev Event) { log = append(log, name+"@"+ev.At.String()) })
	}
	s.Schedule(first, mark("before"), 0, nil, 0)
	sendN(net, a, b.ID(), ep, 40, 1500, 1)
	s.Schedule(first, mark("after"), 0, nil, 0)
	s.Run(Never)
	at := first.String()
	if want := []string{"before@" + at, "rx@" + at, "after@" + at}; len(log) < 3 || !reflect.DeepEqual(log[:3], want) {
		t.Fatalf("order at the first arrival %v, want %v", log[:min(3, len(log))], want)
	}
	if len(log) != 42 {
		t.Fatalf("%d entries logged, want 40 arrivals and 2 marks", len(log))
	}
	if n := len(s.slab.s); n > 2 {
		t.Errorf("the slab grew to %d slots for 2 payload events", n)
	}
	if len(s.flinks) != 1 || len(s.fports) != 1 {
		t.Errorf("%d links and %d ports numbered, want 1 and 1", len(s.flinks), len(s.fports))
	}
	if s.Events() != 2+40+39 {
		t.Errorf("%d events fired, want 2 marks, 40 arrivals and 39 port starts", s.Events())
	}
	if a, st, o := s.EventMix(); a != 40 || st != 39 || o != 2 {
		t.Errorf("event mix %d arrivals, %d starts, %d others; want 40, 39, 2", a, st, o)
	}
	mustConserve(t, net)
}

// descSink is a Forwarder that reads no body: it frees what it is handed.
type descSink struct {
	NodeBase
	got int
}

func (d *descSink) Receive(p *Packet, _ *Link) { d.got++; d.Net().Sim.Packets().Put(p) }
func (d *descSink) ReceiveDesc(x Desc, in *Link) {
	d.got++
	d.Net().Sim.Packets().Put(d.Net().Sim.Packets().Peek(&x))
}

// TestLinksIntoBodyReadersLoadEarly checks the early loads of bodies
// (Sim.loadEarly): a link into a host is numbered as a link into a
// BodyReader, and each of its arrivals that leaves a packet on the wire
// loads that packet's body once (40 back-to-back packets: 39 loads); a
// link into a node that reads no body loads none.
func TestLinksIntoBodyReadersLoadEarly(t *testing.T) {
	s := New(1)
	net := NewNetwork(s)
	a, b := net.AddHost("a"), net.AddHost("b")
	pa, _ := net.Connect(a.ID(), b.ID(), 100*Gbps, 10*Microsecond, nil, nil)
	l := pa.Link
	ep := b.Register(logEP{net, new([]string)})
	const n = 40
	for i := 0; i < n; i++ {
		p := s.Packets().Get()
		p.Dst, p.DstEP, p.Size, p.Seq = b.ID(), ep, 1500, int64(1000+i)
		a.Send(p)
	}
	s.Run(Never)
	if l.fslot&fixedReader == 0 || s.early != n-1 {
		t.Errorf("link into a host: slot %#x, %d bodies loaded early, want the reader bit and %d", l.fslot, s.early, n-1)
	}

	s = New(1)
	net = NewNetwork(s)
	a = net.AddHost("a")
	d := &descSink{}
	net.AddNode(d, KindSwitch, "sink")
	pa, _ = net.Connect(a.ID(), d.ID(), 100*Gbps, 10*Microsecond, nil, nil)
	l = pa.Link
	for i := 0; i < n; i++ {
		p := s.Packets().Get()
		p.Dst, p.Size, p.Seq = d.ID(), 1500, int64(i+1)
		a.Send(p)
	}
	s.Run(Never)
	if d.got != n || l.fslot&fixedReader != 0 || s.early != 0 {
		t.Errorf("link into a node reading no body: %d delivered, slot %#x, %d bodies loaded early; want %d, no reader bit, 0", d.got, l.fslot, s.early, n)
	}
}

// TestPrefetchCoversPacket pins what prefetchPacket assumes: a packet
// lies within three cache lines of its address, since it is at most 160
// bytes long and pools cut packets on 32-byte boundaries.
func TestPrefetchCoversPacket(t *testing.T) {
	if sz := unsafe.Sizeof(Packet{}); sz > 160 {
		t.Errorf("a Packet is %d bytes: from a 32-byte boundary it may span more than the three lines prefetchPacket loads", sz)
	}
	s := New(1)
	for i := 0; i < 1000; i++ {
		if p := s.Packets().Get(); uintptr(unsafe.Pointer(p))%32 != 0 {
			t.Fatalf("packet %d at %p, not on a 32-byte boundary", i, p)
		}
	}
}
