package inarig

import (
	"math"
	"testing"

	"syncsim/inagg"
	"syncsim/netsim"
	"syncsim/switchmodel"
)

// TestNICShare works the INA ring's share by hand on a NIC with a kernel
// ring and an INA ring: 1500 B of kernel data, three 310 B INA packets and
// a 64 B acknowledgement make 930 / 2494 in the first interval; an idle
// interval has no share (NaN); a NIC without rings has none either.
func TestNICShare(t *testing.T) {
	sim := netsim.New(1)
	q := switchmodel.NewQueue(sim, switchmodel.QueueConfig{ControlFirst: true, Rings: 2})
	pt := &netsim.Port{}
	pt.SetQueue(q)
	send := func(ring uint8, size, payload netsim.Bytes) {
		p := sim.Packets().Get()
		p.Ring, p.Size, p.Payload = ring, size, payload
		q.Enqueue(p, 0)
		p = q.Dequeue(0)
		pt.TxBytes += uint64(p.Size) // as the port counts a packet it starts
		sim.Packets().Put(p)
	}
	p := &jobProbe{nics: []*nicPort{{port: pt, rings: q}}}
	send(0, 1500, 1460)
	for range 3 {
		send(inagg.INARing, 310, 248)
	}
	send(0, 64, 0)
	if got, want := p.nicShare(), 930.0/2494; math.Abs(got-want) > 1e-15 {
		t.Errorf("first interval: share %v, want %v", got, want)
	}
	if got := p.nicShare(); !math.IsNaN(got) {
		t.Errorf("idle interval: share %v, want NaN", got)
	}
	send(inagg.INARing, 310, 248)
	if got := p.nicShare(); got != 1 {
		t.Errorf("INA alone: share %v, want 1", got)
	}
	plain := &jobProbe{nics: []*nicPort{{port: &netsim.Port{TxBytes: 1000}}}}
	if got := plain.nicShare(); !math.IsNaN(got) {
		t.Errorf("NIC without rings: share %v, want NaN", got)
	}
}
