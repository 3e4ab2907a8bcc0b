package switchmodel

import (
	"testing"

	"syncsim/netsim"
)

// TestRingSentBytes follows deficit round robin by hand: ring 0 holds two
// 1500 B packets, ring 1 three 310 B packets, and a 64 B acknowledgement
// waits in the control band. The acknowledgement leaves first and counts
// in no ring; ring 0 spends its 1500 B quantum on one packet, then ring 1
// sends all three (930 B of 1500), then ring 0 its second.
func TestRingSentBytes(t *testing.T) {
	sim := netsim.New(1)
	q := NewQueue(sim, QueueConfig{ControlFirst: true, Rings: 2})
	push := func(ring uint8, size, payload netsim.Bytes) {
		p := sim.Packets().Get()
		p.Ring, p.Size, p.Payload = ring, size, payload
		if !q.Enqueue(p, 0) {
			t.Fatal("refused")
		}
	}
	push(0, 1500, 1460)
	push(0, 1500, 1460)
	for range 3 {
		push(1, 310, 248)
	}
	push(0, 64, 0)
	want := [][2]uint64{{0, 0}, {0, 0}, {1500, 0}, {1500, 310}, {1500, 620}, {1500, 930}, {3000, 930}}
	for i, w := range want {
		if i > 0 {
			if p := q.Dequeue(0); p == nil {
				t.Fatalf("dequeue %d: empty", i)
			}
		}
		if got := [2]uint64{q.RingSentBytes(0), q.RingSentBytes(1)}; got != w {
			t.Errorf("after %d dequeues: rings sent %v, want %v", i, got, w)
		}
	}
	if q.RingSentBytes(7) != q.RingSentBytes(1) {
		t.Error("label 7 should count the last ring")
	}
	q.ResetStats(0)
	if q.RingSentBytes(0) != 3000 {
		t.Error("ResetStats cleared the ring counters")
	}
	plain := NewQueue(sim, QueueConfig{})
	p := sim.Packets().Get()
	p.Ring, p.Size, p.Payload = 1, 500, 400
	plain.Enqueue(p, 0)
	plain.Dequeue(0)
	if plain.RingSentBytes(0) != 500 || plain.RingSentBytes(1) != 500 {
		t.Error("a queue without rings counts its data band for every label")
	}
}
