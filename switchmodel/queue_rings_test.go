package switchmodel

import (
	"testing"

	"syncsim/netsim"
)

// ringPkt is a data packet of size bytes for transmit ring r.
func ringPkt(s *netsim.Sim, r uint8, size netsim.Bytes, seq int64) *netsim.Packet {
	p := pkt(s, size, 0)
	p.Payload, p.Ring, p.Seq = size-40, r, seq
	return p
}

// TestRingsShareByBytes fills two rings, one with 1500 B packets and one
// with 310 B packets, and checks deficit round robin: every round ring 0
// sends one 1500 B packet and ring 1 four 310 B packets (1240 B; a fifth
// would exceed its 1500 B quantum), the unused 260 B carrying over (a
// fifth packet every round after), so the two rings' bytes stay within a
// quantum plus a packet of each other at every dequeue.
func TestRingsShareByBytes(t *testing.T) {
	s := netsim.New(1)
	q := NewQueue(s, QueueConfig{Rings: 2})
	for i := 0; i < 40; i++ {
		q.Enqueue(ringPkt(s, 0, 1500, int64(i)), 0)
	}
	for i := 0; i < 200; i++ {
		q.Enqueue(ringPkt(s, 1, 310, int64(i)), 0)
	}
	if q.Len() != 240 || q.RingLen(0) != 40 || q.RingLen(1) != 200 {
		t.Fatalf("Len %d, rings %d + %d", q.Len(), q.RingLen(0), q.RingLen(1))
	}
	var sent [2]netsim.Bytes
	var order []uint8
	next := [2]int64{}
	for q.RingLen(0) > 0 && q.RingLen(1) > 0 {
		p := q.Dequeue(0)
		if p.Seq != next[p.Ring] {
			t.Fatalf("ring %d sent seq %d, want %d (FIFO within a ring)", p.Ring, p.Seq, next[p.Ring])
		}
		next[p.Ring]++
		sent[p.Ring] += p.Size
		order = append(order, p.Ring)
		if d := sent[0] - sent[1]; d > RingQuantum+1500 || -d > RingQuantum+1500 {
			t.Fatalf("after %d packets ring bytes %d vs %d differ by more than a quantum and a packet", len(order), sent[0], sent[1])
		}
		s.Packets().Put(p)
	}
	want := []uint8{0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0}
	for i, r := range want {
		if order[i] != r {
			t.Fatalf("service order %v, want it to start %v", order[:len(want)], want)
		}
	}
	for q.Len() > 0 {
		s.Packets().Put(q.Dequeue(0))
	}
	if q.Bytes() != 0 || q.Dequeue(0) != nil {
		t.Fatalf("empty queue holds %d B", q.Bytes())
	}
}

// TestRingsBufferAndControl checks that Buffer bounds each ring on its
// own (a full kernel ring does not refuse the application's packets), that
// labels beyond the last ring join the last, and that control packets
// still leave first.
func TestRingsBufferAndControl(t *testing.T) {
	s := netsim.New(1)
	q := NewQueue(s, QueueConfig{Rings: 2, Buffer: 3000, ControlFirst: true})
	for i := 0; i < 3; i++ {
		ok := q.Enqueue(ringPkt(s, 0, 1500, int64(i)), 0)
		if ok != (i < 2) {
			t.Fatalf("ring 0 packet %d admitted = %v with a 3000 B buffer", i, ok)
		}
	}
	if !q.Enqueue(ringPkt(s, 7, 1500, 0), 0) || q.RingLen(1) != 1 || q.RingLen(7) != 1 {
		t.Fatalf("ring 7 should join ring 1 beside a full ring 0 (rings %d, %d)", q.RingLen(0), q.RingLen(1))
	}
	c := ctl(s, 99)
	q.Enqueue(c, 0)
	if p := q.Dequeue(0); p != c {
		t.Fatalf("control packet did not leave first (got ring %d seq %d)", p.Ring, p.Seq)
	}
	s.Packets().Put(c)
	if q.Dropped != 1 || q.Enqueued != 4 {
		t.Fatalf("enqueued %d dropped %d, want 4 and 1", q.Enqueued, q.Dropped)
	}
	for q.Len() > 0 {
		s.Packets().Put(q.Dequeue(0))
	}
}

// TestRingsConfig rejects ring counts out of range and rings combined
// with RED or a shared buffer.
func TestRingsConfig(t *testing.T) {
	bad := []QueueConfig{
		{Rings: -1},
		{Rings: MaxRings + 1},
		{Rings: 2, RED: &REDConfig{MinBytes: 1000, MaxBytes: 2000, MaxP: 0.1, Weight: 0.002}},
		{Rings: 2, Shared: NewSharedBuffer(1<<20, 1)},
	}
	for _, c := range bad {
		if c.Validate() == nil {
			t.Errorf("%+v validated", c)
		}
	}
	if err := (QueueConfig{Rings: MaxRings}).Validate(); err != nil {
		t.Error(err)
	}
	if q := NewQueue(netsim.New(1), QueueConfig{}); q.Rings() != 1 {
		t.Errorf("a plain queue reports %d rings", q.Rings())
	}
}
