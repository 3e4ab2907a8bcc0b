package switchmodel

import (
	"testing"

	"syncsim/netsim"
)

// ctl and dat build control (no payload) and data packets tagged by Seq.
func ctl(s *netsim.Sim, seq int64) *netsim.Packet {
	p := pkt(s, 40, 0)
	p.Seq = seq
	return p
}

func dat(s *netsim.Sim, seq int64, flags netsim.Flags) *netsim.Packet {
	p := pkt(s, 1000, flags)
	p.Payload, p.Seq = 960, seq
	return p
}

// TestControlFirstOrder interleaves control and data arrivals and checks
// the departure order: every control packet waiting leaves before any data
// packet, each band in FIFO order. Without ControlFirst the queue is one
// FIFO.
func TestControlFirstOrder(t *testing.T) {
	// Arrivals: 'c' control, 'd' data; '-' one dequeue.
	const script = "dddc-cdc--dcc---d-----"
	tests := []struct {
		name  string
		first bool
		want  []int64
	}{
		// Seq numbers count arrivals: d0 d1 d2 c3 - | c4 d5 c6 - - |
		// d7 c8 c9 - - - | d10 - - - - -.
		{"control first", true, []int64{3, 4, 6, 8, 9, 0, 1, 2, 5, 7, 10}},
		{"plain FIFO", false, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := netsim.New(1)
			q := NewQueue(s, QueueConfig{ControlFirst: tc.first})
			var got []int64
			seq := int64(0)
			for _, c := range script {
				switch c {
				case 'c':
					q.Enqueue(ctl(s, seq), 0)
					seq++
				case 'd':
					q.Enqueue(dat(s, seq, 0), 0)
					seq++
				case '-':
					if p := q.Dequeue(0); p != nil {
						got = append(got, p.Seq)
						s.Packets().Put(p)
					}
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("dequeued %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("dequeued %v, want %v", got, tc.want)
				}
			}
			if q.Len() != 0 || q.Bytes() != 0 || q.Dequeue(0) != nil {
				t.Fatalf("queue not empty: %d packets, %d B", q.Len(), q.Bytes())
			}
			if wantCtl := map[bool]uint64{true: 5, false: 0}[tc.first]; q.ControlEnqueued != wantCtl {
				t.Errorf("ControlEnqueued %d, want %d", q.ControlEnqueued, wantCtl)
			}
			if q.Enqueued != 11 || q.Dequeued != 11 {
				t.Errorf("enqueued %d dequeued %d, want 11 11", q.Enqueued, q.Dequeued)
			}
		})
	}
}

// TestControlFirstLimits checks the two bands' byte limits: data is held
// to Buffer whatever the control band holds, control to ControlBuffer
// whatever the data band holds.
func TestControlFirstLimits(t *testing.T) {
	tests := []struct {
		name              string
		cfg               QueueConfig
		data, ctrl        int // offered packets (1000 B data, 40 B control)
		wantData, wantCtl int // accepted
	}{
		{"full data buffer admits control", QueueConfig{Buffer: 3000, ControlFirst: true}, 5, 4, 3, 4},
		{"control bounded by its own buffer", QueueConfig{Buffer: 3000, ControlFirst: true, ControlBuffer: 100}, 2, 5, 2, 2},
		{"control does not use data buffer", QueueConfig{Buffer: 3000, ControlFirst: true, ControlBuffer: 120}, 3, 3, 3, 3},
		{"without ControlFirst one buffer", QueueConfig{Buffer: 3000}, 3, 3, 3, 0},
		{"unlimited", QueueConfig{ControlFirst: true}, 50, 50, 50, 50},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := netsim.New(1)
			q := NewQueue(s, tc.cfg)
			gotD, gotC := 0, 0
			for i := 0; i < tc.data; i++ {
				if q.Enqueue(dat(s, int64(i), 0), 0) {
					gotD++
				}
			}
			for i := 0; i < tc.ctrl; i++ {
				if q.Enqueue(ctl(s, int64(i)), 0) {
					gotC++
				}
			}
			if gotD != tc.wantData || gotC != tc.wantCtl {
				t.Fatalf("accepted %d data, %d control; want %d, %d", gotD, gotC, tc.wantData, tc.wantCtl)
			}
			drops := uint64(tc.data - gotD + tc.ctrl - gotC)
			if q.Dropped != drops || q.Enqueued != uint64(gotD+gotC) {
				t.Errorf("Dropped %d Enqueued %d, want %d %d", q.Dropped, q.Enqueued, drops, gotD+gotC)
			}
			if tc.cfg.ControlFirst && q.ControlDropped != uint64(tc.ctrl-gotC) {
				t.Errorf("ControlDropped %d, want %d", q.ControlDropped, tc.ctrl-gotC)
			}
			wantB := netsim.Bytes(gotD*1000 + gotC*40)
			if q.Bytes() != wantB || q.Len() != gotD+gotC || q.MaxBytes != wantB || q.MaxPackets != gotD+gotC {
				t.Errorf("occupancy %d B %d pkts (max %d B %d pkts), want %d B %d pkts",
					q.Bytes(), q.Len(), q.MaxBytes, q.MaxPackets, wantB, gotD+gotC)
			}
			if tc.cfg.ControlFirst && q.ControlLen() != gotC {
				t.Errorf("ControlLen %d, want %d", q.ControlLen(), gotC)
			}
		})
	}
}

// TestControlFirstECN checks that marking applies to data only and counts
// the data band only: K control packets waiting do not make a data packet
// marked, K data packets do, and an ECT control packet is never marked.
func TestControlFirstECN(t *testing.T) {
	const K = 3
	tests := []struct {
		name       string
		data, ctrl int // waiting before the probe
		probeCtl   bool
		marked     bool
	}{
		{"control backlog does not mark data", K - 1, 10, false, false},
		{"data backlog marks data", K, 0, false, true},
		{"control packet never marked", K + 5, 10, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := netsim.New(1)
			q := NewQueue(s, QueueConfig{ControlFirst: true, ECNPackets: K, ECNBytes: 100 * 1000})
			for i := 0; i < tc.data; i++ {
				q.Enqueue(dat(s, 0, 0), 0)
			}
			for i := 0; i < tc.ctrl; i++ {
				q.Enqueue(ctl(s, 0), 0)
			}
			p := dat(s, 0, netsim.FlagECT)
			if tc.probeCtl {
				p = ctl(s, 0)
				p.Flags = netsim.FlagECT
			}
			if !q.Enqueue(p, 0) {
				t.Fatal("probe refused")
			}
			if p.Flags.Has(netsim.FlagCE) != tc.marked || q.Marked != map[bool]uint64{true: 1}[tc.marked] {
				t.Fatalf("marked %v (counter %d), want %v", p.Flags.Has(netsim.FlagCE), q.Marked, tc.marked)
			}
		})
	}
}

// TestControlFirstSharedAndRED checks that control packets neither draw on
// a shared buffer nor enter RED: with RED picking every packet (MaxP 1 at
// any average) non-ECT data is dropped while control packets pass, and the
// shared buffer's use counts only data.
func TestControlFirstSharedAndRED(t *testing.T) {
	s := netsim.New(1)
	sb := NewSharedBuffer(10000, 1)
	q := NewQueue(s, QueueConfig{ControlFirst: true, Shared: sb, RED: &REDConfig{MinBytes: 1, MaxBytes: 2, MaxP: 1, Weight: 1}})
	q.Enqueue(dat(s, 0, netsim.FlagECT), 0) // first arrival: average 0, admitted
	for i := 0; i < 5; i++ {
		if !q.Enqueue(ctl(s, 0), 0) {
			t.Fatal("control packet refused by RED or the shared buffer")
		}
	}
	if q.Enqueue(dat(s, 0, 0), 0) {
		t.Fatal("non-ECT data admitted above RED's maximum")
	}
	if sb.Used() != 1000 {
		t.Fatalf("shared buffer use %d, want the 1000 B of data only", sb.Used())
	}
	for p := q.Dequeue(0); p != nil; p = q.Dequeue(0) {
		s.Packets().Put(p)
	}
	if sb.Used() != 0 {
		t.Fatalf("shared buffer use %d after draining", sb.Used())
	}
}

// TestControlFirstNoAllocs checks that a warm control-first queue moves
// packets without allocating.
func TestControlFirstNoAllocs(t *testing.T) {
	s := netsim.New(1)
	q := NewQueue(s, QueueConfig{ControlFirst: true, Buffer: 1 << 20, ECNPackets: 10})
	d, c := dat(s, 0, netsim.FlagECT), ctl(s, 0)
	for i := 0; i < 64; i++ {
		q.Enqueue(dat(s, 0, 0), 0)
		q.Enqueue(ctl(s, 0), 0)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		q.Enqueue(d, 0)
		q.Enqueue(c, 0)
		q.Dequeue(0)
		q.Dequeue(0)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per enqueue/dequeue pair", allocs)
	}
}
