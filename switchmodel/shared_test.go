package switchmodel

import (
	"testing"

	"syncsim/netsim"
)

func TestSharedBufferDynamicThreshold(t *testing.T) {
	type step struct {
		queue  int // 0 or 1
		accept int // packets of 1000 B accepted before the first refusal
	}
	tests := []struct {
		name  string
		total netsim.Bytes
		alpha float64
		steps []step
	}{
		// Alone, queue A is admitted while qA < 1*(10000 - qA): qA <= 4000,
		// so 5 packets. Then B: qB < 10000 - 5000 - qB: qB <= 2000, 3
		// packets. A again: 5000 < 10000-8000 fails at once.
		{"alpha 1", 10000, 1, []step{{0, 5}, {1, 3}, {0, 0}}},
		// qA < 2(10000 - qA) => qA < 6666.7: 7 packets; then
		// qB < 2(3000 - qB) => qB < 2000: 2 packets.
		{"alpha 2", 10000, 2, []step{{0, 7}, {1, 2}}},
		// A huge alpha leaves only the memory limit: 3 packets fill 3000 B.
		{"memory bound", 3000, 100, []step{{0, 3}, {1, 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := netsim.New(1)
			sb := NewSharedBuffer(tc.total, tc.alpha)
			qs := []*PortQueue{NewQueue(s, QueueConfig{Shared: sb}), NewQueue(s, QueueConfig{Shared: sb})}
			for i, st := range tc.steps {
				q := qs[st.queue]
				got := 0
				for q.Enqueue(pkt(s, 1000, 0), 0) {
					got++
				}
				if got != st.accept {
					t.Fatalf("step %d: queue %d accepted %d, want %d", i, st.queue, got, st.accept)
				}
				if q.Dropped == 0 {
					t.Fatalf("step %d: refusal not counted", i)
				}
				if sb.Used() != qs[0].Bytes()+qs[1].Bytes() {
					t.Fatalf("used %d != sum of queues %d", sb.Used(), qs[0].Bytes()+qs[1].Bytes())
				}
			}
			// Draining returns the memory.
			for _, q := range qs {
				for q.Dequeue(0) != nil {
				}
			}
			if sb.Used() != 0 {
				t.Fatalf("used %d after draining", sb.Used())
			}
		})
	}
}

func TestSharedBufferAndPortLimit(t *testing.T) {
	s := netsim.New(1)
	sb := NewSharedBuffer(100000, 1)
	q := NewQueue(s, QueueConfig{Shared: sb, Buffer: 2500})
	if got := fill(q, s, 10, 1000, 0); got != 2 {
		t.Fatalf("accepted %d, want 2 (per-port limit binds first)", got)
	}
	if sb.Used() != 2000 {
		t.Fatalf("shared used %d, want 2000 (refused packets take no memory)", sb.Used())
	}
}
