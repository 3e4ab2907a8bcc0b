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
// long-lived event pending, under both queues: the stale entries are
// dropped, so the bookkeeping stays within 2 x Pending + 64, and a
// pending cancelled event still does not fire.
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
			if n := s.cancelledEntries(); n > 2*s.Pending()+64 {
				t.Fatalf("after %d stale cancels: %d entries for %d pending events", i+1, n, s.Pending())
			}
		}
		s.Run(Never)
		last := r.fired[len(r.fired)-1]
		if len(r.fired) != 100001 || last.Arg != -2 {
			t.Fatalf("fired %d events ending with %d; want 100001 ending with the kept one", len(r.fired), last.Arg)
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
