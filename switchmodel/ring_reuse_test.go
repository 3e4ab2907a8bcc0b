package switchmodel

import (
	"testing"

	"syncsim/netsim"
)

// TestPktRingRestartsWhenEmpty checks that an emptied ring takes its next
// packet in its first slot, so a queue that is mostly short keeps to the
// ring's first lines after a burst has grown it, and that the order and
// byte counts survive the restart.
func TestPktRingRestartsWhenEmpty(t *testing.T) {
	var r pktRing
	seq := uint64(0)
	next := uint64(0)
	pool := netsim.New(1).Packets()
	push := func(n int) {
		for i := 0; i < n; i++ {
			seq++
			p := pool.Get()
			p.Flow, p.Size = seq, 100
			r.push(p.Desc())
			pool.Put(p)
		}
	}
	pop := func(n int) {
		for i := 0; i < n; i++ {
			next++
			if d := r.pop(); d.Flow != next {
				t.Fatalf("popped flow %d, want %d", d.Flow, next)
			}
		}
	}
	push(100) // grows the ring to 128 slots
	pop(70)
	if r.head != 70 {
		t.Fatalf("head %d after 70 pops, want 70", r.head)
	}
	pop(30)
	if r.head != 0 || r.n != 0 || r.bytes != 0 {
		t.Fatalf("emptied ring: head %d, n %d, bytes %d, want 0, 0, 0", r.head, r.n, r.bytes)
	}
	for i := 0; i < 50; i++ { // short occupancy: never past the first two slots
		push(2)
		pop(1)
		if r.head > 1 {
			t.Fatalf("round %d: head at slot %d", i, r.head)
		}
		pop(1)
	}
	if len(r.ring) != 128 || r.sent != 200*100 {
		t.Errorf("ring of %d slots, %d bytes sent; want 128 and %d", len(r.ring), r.sent, 200*100)
	}
}
