package netsim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

type recorder struct {
	fired []Event
	s     *Sim
}

func (r *recorder) HandleEvent(ev Event) { r.fired = append(r.fired, ev) }

func TestEventOrderTimeThenSequence(t *testing.T) {
	if lifoTies {
		t.Skip("asserts first-scheduled-first order among ties; this build has the other (ties_lifo.go)")
	}
	for _, name := range []string{"heap", "btree"} {
		t.Run(name, func(t *testing.T) {
			var s *Sim
			if name == "heap" {
				s = New(1)
			} else {
				s = New(1, WithBtreeQueue())
			}
			r := &recorder{}
			rng := rand.New(rand.NewPCG(7, 7))
			type key struct {
				at  Time
				arg int64
			}
			var want []key
			for i := 0; i < 5000; i++ {
				at := Time(rng.IntN(200)) // many ties
				s.Schedule(at, r, 0, nil, int64(i))
				want = append(want, key{at, int64(i)})
			}
			slices.SortStableFunc(want, func(a, b key) int { return int(a.at - b.at) })
			s.Run(Never)
			if len(r.fired) != len(want) {
				t.Fatalf("fired %d events, want %d", len(r.fired), len(want))
			}
			for i, ev := range r.fired {
				if ev.At != want[i].at || ev.Arg != want[i].arg {
					t.Fatalf("event %d = (%v, %d), want (%v, %d)", i, ev.At, ev.Arg, want[i].at, want[i].arg)
				}
			}
		})
	}
}

func TestRunUntilAndStop(t *testing.T) {
	if lifoTies {
		t.Skip("asserts first-scheduled-first order among ties; this build has the other (ties_lifo.go)")
	}
	s := New(1)
	r := &recorder{}
	for _, at := range []Time{10, 20, 30, 40} {
		s.Schedule(at, r, 0, nil, int64(at))
	}
	s.Run(25)
	if len(r.fired) != 2 || s.Now() != 25 {
		t.Fatalf("after Run(25): fired %d, now %v; want 2, 25ps", len(r.fired), s.Now())
	}
	s.Schedule(30, HandlerFunc(func(Event) { s.Stop() }), 0, nil, 0)
	s.Run(Never)
	if !s.Stopped() || s.Now() != 30 || len(r.fired) != 3 {
		t.Fatalf("stop: stopped=%v now=%v fired=%d; want true, 30ps, 3", s.Stopped(), s.Now(), len(r.fired))
	}
	s.Run(Never)
	if len(r.fired) != 4 || s.Pending() != 0 {
		t.Fatalf("resume: fired %d pending %d", len(r.fired), s.Pending())
	}
}

func TestScheduleInPastPanics(t *testing.T) {
	s := New(1)
	s.Run(100)
	defer func() {
		if recover() == nil {
			t.Fatal("scheduling in the past did not panic")
		}
	}()
	s.Schedule(50, &recorder{}, 0, nil, 0)
}

func TestCancel(t *testing.T) {
	s := New(1)
	r := &recorder{}
	a := s.Schedule(10, r, 0, nil, 1)
	s.Schedule(20, r, 0, nil, 2)
	s.Cancel(a)
	s.Cancel(0) // no-op
	s.Run(Never)
	if len(r.fired) != 1 || r.fired[0].Arg != 2 {
		t.Fatalf("fired %+v, want only arg 2", r.fired)
	}
}

// TestCancelStaleBounded cancels 100 000 events after they fired, with a
// long-lived event pending, under both queues: stale cancellations cost
// nothing (the slab never holds more slots than events were ever pending
// at once), and a pending cancelled event still does not fire.
func TestCancelStaleBounded(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithBtreeQueue()}} {
		s := New(1, opts...)
		r := &recorder{}
		late := s.Schedule(Second, r, 0, nil, -1)
		s.Cancel(late)
		s.Schedule(2*Second, r, 0, nil, -2)
		for i := 0; i < 100000; i++ {
			id := s.After(1, r, 0, nil, int64(i))
			s.Run(s.Now() + 1)
			s.Cancel(id) // already fired
			if n := len(s.slab.s); n > 3 {
				t.Fatalf("after %d stale cancels: %d slab slots for at most 3 pending events", i+1, n)
			}
		}
		s.Run(Never)
		last := r.fired[len(r.fired)-1]
		if len(r.fired) != 100001 || last.Arg != -2 {
			t.Fatalf("fired %d events ending with %d; want 100001 ending with the kept one", len(r.fired), last.Arg)
		}
	}
}

// TestCancelReusedSlot checks that an EventID goes stale when its event
// fires, even though the next event reuses the same slab slot: cancelling
// it then leaves the new event alone.
func TestCancelReusedSlot(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithBtreeQueue()}} {
		s := New(1, opts...)
		r := &recorder{}
		a := s.Schedule(10, r, 0, nil, 1)
		s.Run(10)
		b := s.Schedule(20, r, 0, nil, 2)
		if uint32(a) != uint32(b) {
			t.Fatalf("slot not reused: %x then %x", a, b)
		}
		s.Cancel(a)
		s.Run(Never)
		if len(r.fired) != 2 || r.fired[1].Arg != 2 {
			t.Fatalf("fired %+v, want args 1 and 2", r.fired)
		}
		c := s.Schedule(30, r, 0, nil, 3)
		s.Cancel(c)
		s.Cancel(c)
		s.Cancel(EventID(1<<40 | 12345)) // never issued
		s.Run(Never)
		if len(r.fired) != 2 || s.Pending() != 0 {
			t.Fatalf("cancelled event fired or lingered: fired %d, pending %d", len(r.fired), s.Pending())
		}
	}
}

func TestTimer(t *testing.T) {
	tests := []struct {
		name string
		ops  func(tm *Timer, s *Sim)
		want []Time
	}{
		{"fires once", func(tm *Timer, s *Sim) { tm.Set(100) }, []Time{100}},
		{"moved later", func(tm *Timer, s *Sim) { tm.Set(100); tm.Set(250) }, []Time{250}},
		{"moved earlier", func(tm *Timer, s *Sim) { tm.Set(100); tm.Set(40) }, []Time{40}},
		{"stopped", func(tm *Timer, s *Sim) { tm.Set(100); tm.Stop() }, nil},
		{"rearmed after stop", func(tm *Timer, s *Sim) {
			tm.Set(100)
			tm.Stop()
			s.At(50, func() { tm.Set(70) })
		}, []Time{70}},
		{"moved repeatedly while running", func(tm *Timer, s *Sim) {
			tm.Set(100)
			for i := Time(1); i <= 9; i++ {
				at := i * 10
				s.At(at, func() { tm.Set(at + 100) })
			}
		}, []Time{190}},
		{"rearm from handler", nil, []Time{10, 20, 30}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New(1)
			r := &recorder{}
			var tm Timer
			if tc.ops == nil {
				n := 0
				tm.Init(s, HandlerFunc(func(ev Event) {
					r.fired = append(r.fired, ev)
					if n++; n < 3 {
						tm.SetAfter(10)
					}
				}), 3)
				tm.Set(10)
			} else {
				tm.Init(s, r, 3)
				tc.ops(&tm, s)
			}
			s.Run(Never)
			var got []Time
			for _, ev := range r.fired {
				got = append(got, ev.At)
				if ev.Kind != 3 {
					t.Errorf("timer event kind %d, want 3", ev.Kind)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("fired at %v, want %v", got, tc.want)
			}
			if tm.Armed() {
				t.Error("timer still armed after firing")
			}
		})
	}
}

func TestStreamsIndependentAndDeterministic(t *testing.T) {
	a1, a2, b := Stream(5, "a"), Stream(5, "a"), Stream(5, "b")
	c := Stream(6, "a")
	same, diffName, diffSeed := true, false, false
	for i := 0; i < 100; i++ {
		x, y, z, w := a1.Uint64(), a2.Uint64(), b.Uint64(), c.Uint64()
		same = same && x == y
		diffName = diffName || x != z
		diffSeed = diffSeed || x != w
	}
	if !same || !diffName || !diffSeed {
		t.Fatalf("same=%v diffName=%v diffSeed=%v; want all true", same, diffName, diffSeed)
	}
}

func TestPacketPoolReuse(t *testing.T) {
	var pp PacketPool
	a := pp.Get()
	a.Seq = 42
	pp.Put(a)
	b := pp.Get()
	if b != a || b.Seq != 0 || b.ID == 1 {
		t.Fatalf("reused packet not reset: same=%v seq=%d id=%d", b == a, b.Seq, b.ID)
	}
	c := pp.Clone(b)
	if c == b || pp.Live() != 2 || pp.Allocated() != 2 {
		t.Fatalf("clone: live %d allocated %d", pp.Live(), pp.Allocated())
	}
}

// chaos schedules new events from inside handlers (some at the current
// time, some at ties with pending events) and cancels some pending ones,
// recording what fires.
type chaos struct {
	s      *Sim
	rng    *rand.Rand
	ids    []EventID
	fired  []Event
	left   int
	timers [64]Timer
}

func (c *chaos) HandleEvent(ev Event) {
	c.fired = append(c.fired, ev)
	if ev.Kind >= 100 {
		return // a timer expiry (Kind 100 + timer index)
	}
	if tm := &c.timers[c.rng.IntN(len(c.timers))]; c.rng.IntN(2) == 0 {
		tm.SetAfter(Time(c.rng.IntN(8)))
	} else if c.rng.IntN(40) == 0 {
		tm.Stop()
	}
	for n := 1 + c.rng.IntN(2); n > 0 && c.left > 0; n-- {
		c.left--
		c.ids = append(c.ids, c.s.After(Time(c.rng.IntN(4)), c, 0, nil, int64(c.left)))
	}
	if len(c.ids) > 0 && c.rng.IntN(4) == 0 {
		c.s.Cancel(c.ids[c.rng.IntN(len(c.ids))])
	}
}

// TestQueuesAgreeUnderChurn runs the same self-scheduling, self-cancelling
// workload on the heap and on the B-tree and checks that both fire the same
// events in the same order, and that the order is (time, scheduling
// sequence): a handler's event for now fires after every event already
// queued for now.
func TestQueuesAgreeUnderChurn(t *testing.T) {
	var timerEvents uint64 // events the timers' own heap delivered (heap run)
	run := func(opts ...Option) []Event {
		s := New(1, opts...)
		c := &chaos{s: s, rng: rand.New(rand.NewPCG(3, 4)), left: 20000}
		for i := range c.timers {
			c.timers[i].Init(s, c, int32(100+i))
		}
		for i := 0; i < 50; i++ {
			c.ids = append(c.ids, s.Schedule(Time(i%5), c, -1, nil, int64(-i-1)))
		}
		s.Run(Never)
		if s.Pending() != 0 {
			t.Fatalf("%d events left pending", s.Pending())
		}
		timerEvents = s.Events()
		for _, ev := range c.fired {
			if ev.Kind < 100 {
				timerEvents--
			}
		}
		return c.fired
	}
	heap := run()
	if timerEvents < 500 {
		t.Errorf("only %d timer events: the timers' own heap was hardly exercised", timerEvents)
	}
	bt := run(WithBtreeQueue())
	// order is the scheduling order of the event with argument a: the 50
	// initial events (-1 ... -50) first, then handler events, whose
	// arguments count down from 19999.
	order := func(a int64) int64 {
		if a < 0 {
			return -a
		}
		return 50 + 20000 - a
	}
	if len(heap) < 2000 || len(heap) != len(bt) {
		t.Fatalf("heap fired %d events, B-tree %d", len(heap), len(bt))
	}
	for i := range heap {
		if heap[i].At != bt[i].At || heap[i].Arg != bt[i].Arg || heap[i].Kind != bt[i].Kind {
			t.Fatalf("event %d: heap (%v, %d), B-tree (%v, %d)", i, heap[i].At, heap[i].Arg, bt[i].At, bt[i].Arg)
		}
		// A build with last-scheduled-first ties (ties_lifo.go) has no
		// such order to check; the queues must still agree.
		if lifoTies || i == 0 || heap[i].Kind >= 100 || heap[i-1].Kind >= 100 {
			continue
		}
		if heap[i].At < heap[i-1].At || heap[i].At == heap[i-1].At && order(heap[i].Arg) < order(heap[i-1].Arg) {
			t.Fatalf("event %d (%v, arg %d) fired after (%v, arg %d)", i, heap[i].At, heap[i].Arg, heap[i-1].At, heap[i-1].Arg)
		}
	}
}
