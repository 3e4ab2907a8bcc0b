package switchmodel

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"syncsim/netsim"
)

func pkt(s *netsim.Sim, size netsim.Bytes, flags netsim.Flags) *netsim.Packet {
	p := s.Packets().Get()
	p.Size, p.Flags = size, flags
	return p
}

// fill enqueues n packets of size bytes and reports how many were accepted.
func fill(q *PortQueue, s *netsim.Sim, n int, size netsim.Bytes, flags netsim.Flags) int {
	ok := 0
	for i := 0; i < n; i++ {
		if q.Enqueue(pkt(s, size, flags), s.Now()) {
			ok++
		}
	}
	return ok
}

func TestECNStepMarking(t *testing.T) {
	const K = 5
	tests := []struct {
		name    string
		cfg     QueueConfig
		waiting int // packets already queued when the probe arrives
		flags   netsim.Flags
		marked  bool
	}{
		{"K packets: below", QueueConfig{ECNPackets: K}, K - 1, netsim.FlagECT, false},
		{"K packets: at K", QueueConfig{ECNPackets: K}, K, netsim.FlagECT, true},
		{"K packets: above", QueueConfig{ECNPackets: K}, K + 3, netsim.FlagECT, true},
		{"K packets: non-ECT never marked", QueueConfig{ECNPackets: K}, K + 3, 0, false},
		{"K packets: empty queue", QueueConfig{ECNPackets: 1}, 0, netsim.FlagECT, false},
		{"bytes: below", QueueConfig{ECNBytes: 5000}, 4, netsim.FlagECT, false},
		{"bytes: at", QueueConfig{ECNBytes: 5000}, 5, netsim.FlagECT, true},
		{"bytes: non-ECT", QueueConfig{ECNBytes: 5000}, 9, 0, false},
		{"off", QueueConfig{}, 100, netsim.FlagECT, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := netsim.New(1)
			q := NewQueue(s, tc.cfg)
			fill(q, s, tc.waiting, 1000, 0) // non-ECT filler: never marked
			if q.Marked != 0 {
				t.Fatalf("filler marked %d", q.Marked)
			}
			p := pkt(s, 1000, tc.flags)
			if !q.Enqueue(p, 0) {
				t.Fatal("probe dropped")
			}
			if got := p.Flags.Has(netsim.FlagCE); got != tc.marked {
				t.Errorf("marked %v, want %v (queue had %d packets)", got, tc.marked, tc.waiting)
			}
			if want := map[bool]uint64{false: 0, true: 1}[tc.marked]; q.Marked != want {
				t.Errorf("Marked counter %d, want %d", q.Marked, want)
			}
		})
	}
}

func TestAlreadyMarkedNotRecounted(t *testing.T) {
	s := netsim.New(1)
	q := NewQueue(s, QueueConfig{ECNPackets: 1})
	fill(q, s, 1, 100, 0)
	p := pkt(s, 100, netsim.FlagECT|netsim.FlagCE)
	q.Enqueue(p, 0)
	if q.Marked != 0 || !p.Flags.Has(netsim.FlagCE) {
		t.Fatalf("marked %d, CE %v", q.Marked, p.Flags.Has(netsim.FlagCE))
	}
}

func TestDropTail(t *testing.T) {
	tests := []struct {
		name   string
		buffer netsim.Bytes
		sizes  []netsim.Bytes
		accept []bool
	}{
		{"exact fit", 3000, []netsim.Bytes{1000, 1000, 1000, 1}, []bool{true, true, true, false}},
		{"small after big refused", 2500, []netsim.Bytes{1000, 1000, 1000, 500}, []bool{true, true, false, true}},
		{"unlimited", 0, []netsim.Bytes{1 << 30, 1 << 30}, []bool{true, true}},
		{"packet larger than buffer", 999, []netsim.Bytes{1000}, []bool{false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := netsim.New(1)
			q := NewQueue(s, QueueConfig{Buffer: tc.buffer})
			var drops uint64
			for i, sz := range tc.sizes {
				p := pkt(s, sz, 0)
				got := q.Enqueue(p, 0)
				if got != tc.accept[i] {
					t.Fatalf("packet %d (%d B): accepted %v, want %v", i, sz, got, tc.accept[i])
				}
				if !got {
					drops++
				}
			}
			if q.Dropped != drops {
				t.Errorf("Dropped %d, want %d", q.Dropped, drops)
			}
			if tc.buffer > 0 && q.Bytes() > tc.buffer {
				t.Errorf("occupancy %d exceeds buffer %d", q.Bytes(), tc.buffer)
			}
		})
	}
}

func TestFIFOOrderAndRingGrowth(t *testing.T) {
	s := netsim.New(1)
	q := NewQueue(s, QueueConfig{})
	var seq int64
	next := int64(0)
	// Interleave to wrap the ring several times while it grows.
	for round := 0; round < 50; round++ {
		for i := 0; i < round%37+1; i++ {
			p := pkt(s, 100, 0)
			p.Seq = seq
			seq++
			q.Enqueue(p, 0)
		}
		for i := 0; i < round%23; i++ {
			p := q.Dequeue(0)
			if p == nil {
				break
			}
			if p.Seq != next {
				t.Fatalf("dequeued seq %d, want %d", p.Seq, next)
			}
			next++
		}
	}
	for p := q.Dequeue(0); p != nil; p = q.Dequeue(0) {
		if p.Seq != next {
			t.Fatalf("dequeued seq %d, want %d", p.Seq, next)
		}
		next++
	}
	if next != seq || q.Len() != 0 || q.Bytes() != 0 {
		t.Fatalf("drained %d of %d, len %d bytes %d", next, seq, q.Len(), q.Bytes())
	}
	if q.Enqueued != uint64(seq) || q.Dequeued != uint64(seq) {
		t.Errorf("counters enq %d deq %d, want %d", q.Enqueued, q.Dequeued, seq)
	}
}

func TestTimeAverageHandTrace(t *testing.T) {
	s := netsim.New(1)
	q := NewQueue(s, QueueConfig{})
	us := netsim.Microsecond
	// t=0..2us: 0 packets; 2..5us: 1 (500 B); 5..6us: 3 (1500 B); 6..10us: 2 (1000 B)
	q.Enqueue(pkt(s, 500, 0), 2*us)
	q.Enqueue(pkt(s, 500, 0), 5*us)
	q.Enqueue(pkt(s, 500, 0), 5*us)
	q.Dequeue(6 * us)
	// packets: (0*2 + 1*3 + 3*1 + 2*4)/10 = 14/10
	if got := q.MeanPackets(10 * us); math.Abs(got-1.4) > 1e-12 {
		t.Errorf("mean packets %v, want 1.4", got)
	}
	if got := q.MeanBytes(10 * us); math.Abs(got-700) > 1e-9 {
		t.Errorf("mean bytes %v, want 700", got)
	}
	if q.MaxPackets != 3 || q.MaxBytes != 1500 {
		t.Errorf("max %d pkts %d B, want 3 and 1500", q.MaxPackets, q.MaxBytes)
	}
	// Warm-up exclusion: from 10us, 2 packets held until 20us, then 0 until 30us.
	q.ResetStats(10 * us)
	if q.Enqueued != 0 || q.MaxPackets != 2 {
		t.Errorf("after reset enq %d max %d, want 0 and 2", q.Enqueued, q.MaxPackets)
	}
	q.Dequeue(20 * us)
	q.Dequeue(20 * us)
	if got := q.MeanPackets(30 * us); math.Abs(got-1.0) > 1e-12 {
		t.Errorf("mean packets after reset %v, want 1", got)
	}
}

func TestTimeAverageLongRunExact(t *testing.T) {
	// 1 MB held for 100 s: the byte-picosecond area is 1e26, far beyond
	// int64; the mean must still be exact to float precision.
	s := netsim.New(1)
	q := NewQueue(s, QueueConfig{})
	q.Enqueue(pkt(s, netsim.Megabyte, 0), 0)
	if got := q.MeanBytes(100 * netsim.Second); math.Abs(got-1e6) > 1e-6 {
		t.Fatalf("mean %v, want 1e6", got)
	}
}

func TestSeries(t *testing.T) {
	us := netsim.Microsecond
	t.Run("on change", func(t *testing.T) {
		s := netsim.New(1)
		q := NewQueue(s, QueueConfig{})
		sr := q.EnableSeries(0)
		q.Enqueue(pkt(s, 100, 0), us)
		q.Enqueue(pkt(s, 100, 0), us) // same instant: one sample
		q.Dequeue(3 * us)
		want := []Sample{{0, 0, 0}, {us, 200, 2}, {3 * us, 100, 1}}
		if len(sr.Samples) != len(want) {
			t.Fatalf("samples %v, want %v", sr.Samples, want)
		}
		for i := range want {
			if sr.Samples[i] != want[i] {
				t.Errorf("sample %d = %v, want %v", i, sr.Samples[i], want[i])
			}
		}
	})
	t.Run("grid", func(t *testing.T) {
		s := netsim.New(1)
		q := NewQueue(s, QueueConfig{})
		sr := q.EnableSeries(2 * us)
		q.Enqueue(pkt(s, 100, 0), us)   // level 1 from 1us
		q.Enqueue(pkt(s, 100, 0), 4*us) // level 2 from 4us
		q.Dequeue(5 * us)               // level 1 from 5us
		sr.Flush(8 * us)                // grid 0,2,4,6,8
		wantN := []int{0, 1, 2, 1, 1}
		if len(sr.Samples) != len(wantN) {
			t.Fatalf("samples %v", sr.Samples)
		}
		for i, w := range wantN {
			if sr.Samples[i].At != netsim.Time(i)*2*us || sr.Samples[i].Packets != w {
				t.Errorf("sample %d = %v, want t=%v n=%d", i, sr.Samples[i], netsim.Time(i)*2*us, w)
			}
		}
	})
}

func TestQueueConfigValidate(t *testing.T) {
	bad := []QueueConfig{
		{Buffer: -1},
		{ECNPackets: -3},
		{RED: &REDConfig{MinBytes: 10, MaxBytes: 5, MaxP: 0.1, Weight: 1}},
		{RED: &REDConfig{MinBytes: 1, MaxBytes: 5, MaxP: 1.5, Weight: 1}},
		{RED: &REDConfig{MinBytes: 1, MaxBytes: 5, MaxP: 0.1, Weight: 0}},
		{Shared: &SharedBuffer{Total: 0, Alpha: 1}},
		{Shared: &SharedBuffer{Total: 100, Alpha: math.NaN()}},
	}
	for i, c := range bad {
		if c.Validate() == nil {
			t.Errorf("config %d (%+v) accepted", i, c)
		}
	}
	good := QueueConfig{Buffer: 1000, ECNPackets: 4, RED: &REDConfig{MinBytes: 1, MaxBytes: 5, MaxP: 0.1, Weight: 0.002}, Shared: NewSharedBuffer(1000, 1)}
	if err := good.Validate(); err != nil {
		t.Errorf("good config refused: %v", err)
	}
}

// eagerAvg is the time average integrated at every change (the
// straightforward way), to check the lazy one against.
type eagerAvg struct {
	start, last netsim.Time
	b, n        uint64
	areaB       *big.Int
	areaN       *big.Int
}

func (e *eagerAvg) update(now netsim.Time, b, n uint64) {
	dt := big.NewInt(int64(now - e.last))
	e.areaB.Add(e.areaB, new(big.Int).Mul(new(big.Int).SetUint64(e.b), dt))
	e.areaN.Add(e.areaN, new(big.Int).Mul(new(big.Int).SetUint64(e.n), dt))
	e.last, e.b, e.n = now, b, n
}

// mean converts the exact area as the queue does: high and low 64-bit
// words, so equal areas give equal bits.
func (e *eagerAvg) mean(now netsim.Time, bytes bool) float64 {
	e.update(now, e.b, e.n)
	a := e.areaN
	if bytes {
		a = e.areaB
	}
	lo := new(big.Int).And(a, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi := new(big.Int).Rsh(a, 64).Uint64()
	return (float64(hi)*0x1p64 + float64(lo)) / float64(now-e.start)
}

// TestTimeAverageLazyMatchesEager drives queues (plain, control band,
// transmit rings) with random arrivals and departures over a long horizon,
// with warm-up resets, and checks that the lazily integrated means equal,
// bit for bit, the area integrated at every change with big integers.
func TestTimeAverageLazyMatchesEager(t *testing.T) {
	cfgs := map[string]QueueConfig{
		"plain":   {Buffer: 200 * netsim.Kilobyte},
		"control": {Buffer: 200 * netsim.Kilobyte, ControlFirst: true},
		"rings":   {Buffer: 200 * netsim.Kilobyte, ControlFirst: true, Rings: 2},
	}
	for name, cfg := range cfgs {
		t.Run(name, func(t *testing.T) {
			s := netsim.New(1)
			q := NewQueue(s, cfg)
			rng := rand.New(rand.NewPCG(5, 6))
			ref := &eagerAvg{areaB: new(big.Int), areaN: new(big.Int)}
			now := netsim.Time(0)
			for i := 0; i < 20000; i++ {
				now += netsim.Time(rng.Int64N(int64(50 * netsim.Millisecond)))
				switch r := rng.IntN(100); {
				case r < 2:
					q.ResetStats(now)
					ref.update(now, ref.b, ref.n)
					*ref = eagerAvg{start: now, last: now, b: uint64(q.Bytes()), n: uint64(q.Len()), areaB: new(big.Int), areaN: new(big.Int)}
				case r < 55:
					p := pkt(s, netsim.Bytes(1+rng.IntN(9000)), 0)
					if rng.IntN(4) == 0 {
						p.Payload = 0
					} else {
						p.Payload = p.Size
					}
					p.Ring = uint8(rng.IntN(2))
					if q.Enqueue(p, now) {
						ref.update(now, uint64(q.Bytes()), uint64(q.Len()))
					}
				default:
					if q.Dequeue(now) != nil {
						ref.update(now, uint64(q.Bytes()), uint64(q.Len()))
					}
				}
			}
			end := now + netsim.Second
			for _, bytes := range []bool{false, true} {
				got := q.MeanPackets(end)
				if bytes {
					got = q.MeanBytes(end)
				}
				if want := ref.mean(end, bytes); math.Float64bits(got) != math.Float64bits(want) || !(got > 0) {
					t.Fatalf("mean (bytes %v) %v, want %v", bytes, got, want)
				}
			}
		})
	}
}
