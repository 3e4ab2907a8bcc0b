package netsim

import (
	"reflect"
	"testing"
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
	mustConserve(t, net)
}
