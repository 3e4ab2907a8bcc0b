package netsim

import (
	"fmt"
	"math"
	"testing"
)

// nopHandler ignores events.
type nopHandler struct{}

func (nopHandler) HandleEvent(Event) {}

// BenchmarkScheduler measures one pop plus one push of a key (the "hold"
// model) with a steady number of pending events, on each queue. Increments
// are drawn from a small range with frequent ties, as packet events on a
// few link rates are.
func BenchmarkScheduler(b *testing.B) {
	impls := []struct {
		name string
		mk   func() keyQueue
	}{
		{"heap2", func() keyQueue { return &heap2{} }},
		{"heap4", func() keyQueue { return &heap4{} }},
		{"btree", func() keyQueue { return newBtreeQueue() }},
		{"calendar", func() keyQueue { return newCalQueue() }},
	}
	for _, pending := range []int{16, 64, 256, 1_000, 100_000, 1_000_000} {
		for _, im := range impls {
			b.Run(fmt.Sprintf("%s/pending=%d", im.name, pending), func(b *testing.B) {
				q := im.mk()
				rng := Stream(1, "bench")
				var seq uint64
				for i := 0; i < pending; i++ {
					seq++
					q.push(mkKey(Time(rng.IntN(1<<20)), seq, uint32(i)))
				}
				incs := make([]Time, 4096)
				for i := range incs {
					incs[i] = Time(rng.IntN(1<<20)) + 1
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					k := q.pop()
					seq++
					q.push(mkKey(k.at+incs[i&4095], seq, k.slot()))
				}
			})
		}
	}
}

// BenchmarkSimHold measures the whole Sim loop with a steady number of
// pending events: every fired event schedules one more at a random later
// time, through the slab and the queue, on each queue: the default
// hybrid, and its heap and calendar held on their own. allocs/op must be
// 0.
func BenchmarkSimHold(b *testing.B) {
	for _, pending := range []int{16, 64, 256, 1_000, 100_000} {
		for _, q := range []struct {
			name string
			opts []Option
		}{
			{"hybrid", nil},
			{"heap2", []Option{withSwitch(math.MaxInt, 0)}},
			{"calendar", []Option{withSwitch(0, 0)}},
			{"btree", []Option{WithBtreeQueue()}},
		} {
			b.Run(fmt.Sprintf("%s/pending=%d", q.name, pending), func(b *testing.B) {
				s := New(1, q.opts...)
				rng := Stream(1, "bench")
				incs := make([]Time, 4096)
				for i := range incs {
					incs[i] = Time(rng.IntN(1<<20)) + 1
				}
				h := &holdHandler{s: s, incs: incs}
				for i := 0; i < pending; i++ {
					s.Schedule(incs[i&4095], h, 0, nil, 0)
				}
				h.left = b.N
				b.ReportAllocs()
				b.ResetTimer()
				s.Run(Never)
			})
		}
	}
}

// holdHandler reschedules itself until left reaches 0.
type holdHandler struct {
	s    *Sim
	incs []Time
	i    int
	left int
}

func (h *holdHandler) HandleEvent(ev Event) {
	if h.left <= 0 {
		h.s.Stop()
		return
	}
	h.left--
	h.i++
	h.s.Schedule(ev.At+h.incs[h.i&4095], h, 0, ev.P, ev.Arg)
}

// BenchmarkSimDispatch measures the full Sim loop: schedule and fire one
// event per iteration through a Handler.
func BenchmarkSimDispatch(b *testing.B) {
	s := New(1)
	h := nopHandler{}
	for i := 0; i < 64; i++ {
		s.Schedule(Time(i), h, 0, nil, 0)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.After(64, h, 0, nil, 0)
		s.Run(s.Now() + 1)
	}
}

// echo bounces every packet back to its sender, keeping a fixed number of
// packets circulating.
type echo struct {
	h *Host
}

func (e echo) Receive(p *Packet) {
	p.Dst, p.DstEP = p.Src, p.SrcEP
	p.SrcEP = 0
	e.h.Send(p)
}

// BenchmarkPacketPath measures the per-packet kernel path: host NIC
// serialisation, link propagation and delivery to an endpoint, with packets
// bouncing between two hosts. It reports allocations per packet hop (0).
func BenchmarkPacketPath(b *testing.B) {
	s := New(1)
	net := NewNetwork(s)
	x, y := net.AddHost("x"), net.AddHost("y")
	net.Connect(x.ID(), y.ID(), 100*Gbps, Microsecond, nil, nil)
	ex, ey := x.Register(echo{x}), y.Register(echo{y})
	for i := 0; i < 32; i++ {
		p := s.Packets().Get()
		p.Dst, p.DstEP, p.SrcEP, p.Size = y.ID(), ey, ex, 1500
		x.Send(p)
	}
	s.Run(100 * Microsecond) // warm up rings
	b.ReportAllocs()
	b.ResetTimer()
	start := net.Stats().Delivered
	for net.Stats().Delivered-start < uint64(b.N) {
		s.Run(s.Now() + 10*Microsecond)
	}
}

// calQueue is the calendar with its overflow heap as a keyQueue, for the
// benchmarks.
type calQueue struct {
	c *calendar
}

func newCalQueue() *calQueue { return &calQueue{c: newCalendar(&heap2{})} }

func (q *calQueue) push(k key) { q.c.push(k) }

func (q *calQueue) pop() key {
	k, _ := q.c.take(Never)
	return k
}

func (q *calQueue) min() (key, bool) {
	p := q.c.head()
	if f := q.c.far; len(f.h) > 0 && (p == nil || lt(&f.h[0], p) != 0) {
		return f.h[0], true
	}
	if p == nil {
		return key{}, false
	}
	return *p, true
}

func (q *calQueue) len() int { return q.c.len() + q.c.far.len() }
