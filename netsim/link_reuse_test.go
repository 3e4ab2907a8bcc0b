package netsim

import "testing"

// TestLinkFIFORestartsWhenEmpty checks that a link's FIFO, once emptied,
// takes its next packet in its first slot (the line the last delivery
// left warm) and still delivers in order at the right times: a burst
// of 40 packets grows the FIFO past its first 16 slots, then single
// packets follow one at a time.
func TestLinkFIFORestartsWhenEmpty(t *testing.T) {
	s := New(1)
	net := NewNetwork(s)
	a, b := net.AddHost("a"), net.AddHost("b")
	// 100 Gbps, 10 us: 1500 B serialise in 120 ns, so 40 are on the wire at once.
	net.Connect(a.ID(), b.ID(), 100*Gbps, 10*Microsecond, nil, nil)
	k := &sink{net: net}
	ep := b.Register(k)
	l := net.Links()[0]
	sendN(net, a, b.ID(), ep, 40, 1500, 1)
	s.Run(9 * Microsecond)
	if l.InFlight() != 40 || len(l.fifo) < 40 {
		t.Fatalf("at 9 us %d packets on the wire in a FIFO of %d, want 40 in at least 40", l.InFlight(), len(l.fifo))
	}
	s.Run(Never)
	if l.head != 0 {
		t.Errorf("emptied FIFO's head at slot %d, want 0", l.head)
	}
	for i := 0; i < 3; i++ {
		sendN(net, a, b.ID(), ep, 1, 1500, 1)
		s.Run(s.Now() + Microsecond)
		if l.head != 0 || l.count != 1 {
			t.Fatalf("single packet %d: head %d, count %d, want slot 0 and 1", i, l.head, l.count)
		}
		s.Run(Never)
	}
	if len(k.times) != 43 {
		t.Fatalf("delivered %d packets, want 43", len(k.times))
	}
	// The burst arrives back to back: 10 us plus (i+1) serialisations.
	for i := 0; i < 40; i++ {
		if want := 10*Microsecond + Time(i+1)*120*Nanosecond; k.times[i] != want {
			t.Fatalf("packet %d arrived at %v, want %v", i, k.times[i], want)
		}
	}
	mustConserve(t, net)
}
