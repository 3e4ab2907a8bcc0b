package netsim

import "testing"

// TestMonitorCadenceAndHalt checks that a monitor sees every k-th event
// with the clock of that event, halts the run when it answers false, and
// keeps later Runs from firing anything.
func TestMonitorCadenceAndHalt(t *testing.T) {
	s := New(1)
	r := &recorder{}
	for i := 1; i <= 100; i++ {
		s.Schedule(Time(10*i), r, 0, nil, int64(i))
	}
	var seen []uint64
	var clocks []Time
	s.SetMonitor(7, func(now Time, events uint64) bool {
		seen = append(seen, events)
		clocks = append(clocks, now)
		return events < 35
	})
	s.Run(Never)
	if want := []uint64{7, 14, 21, 28, 35}; len(seen) != len(want) {
		t.Fatalf("monitor calls at %v, want %v", seen, want)
	}
	for i, ev := range seen {
		if ev != uint64(7*(i+1)) || clocks[i] != Time(70*(i+1)) {
			t.Fatalf("call %d at event %d time %v, want event %d time %v", i, ev, clocks[i], 7*(i+1), Time(70*(i+1)))
		}
	}
	if !s.Halted() || len(r.fired) != 35 || s.Now() != 350 {
		t.Fatalf("halted=%v fired=%d now=%v; want true, 35, 350ps", s.Halted(), len(r.fired), s.Now())
	}
	s.Run(Never)
	if len(r.fired) != 35 {
		t.Fatalf("a halted Sim fired %d more events", len(r.fired)-35)
	}
}

// TestMonitorDoesNotChangeEvents checks that a run with a monitor that
// never halts fires exactly the events of a run without one.
func TestMonitorDoesNotChangeEvents(t *testing.T) {
	run := func(monitor bool) []Event {
		s := New(1)
		r := &recorder{}
		for i := 0; i < 1000; i++ {
			s.Schedule(Time(i%37), r, 0, nil, int64(i))
		}
		calls := 0
		if monitor {
			s.SetMonitor(3, func(Time, uint64) bool { calls++; return true })
		}
		s.Run(Never)
		if monitor && calls != 333 {
			t.Fatalf("monitor called %d times over 1000 events every 3, want 333", calls)
		}
		return r.fired
	}
	a, b := run(false), run(true)
	if len(a) != len(b) {
		t.Fatalf("%d events without a monitor, %d with", len(a), len(b))
	}
	for i := range a {
		if a[i].At != b[i].At || a[i].Arg != b[i].Arg {
			t.Fatalf("event %d differs: %v/%d vs %v/%d", i, a[i].At, a[i].Arg, b[i].At, b[i].Arg)
		}
	}
	s := New(1)
	s.SetMonitor(1, func(Time, uint64) bool { return false })
	s.SetMonitor(0, nil)
	s.Schedule(5, &recorder{}, 0, nil, 0)
	s.Run(Never)
	if s.Halted() {
		t.Fatal("a removed monitor still halted the run")
	}
}

// TestPokeHaltsBetweenCadences checks that a handler's Poke runs the
// monitor at once (with that event's clock and count) and that a false
// answer ends the run after the poking event, long before the cadence
// would have; a Poke without a monitor, or on a nil Sim, does nothing.
func TestPokeHaltsBetweenCadences(t *testing.T) {
	s := New(1)
	fired := 0
	for i := 1; i <= 100; i++ {
		s.At(Time(10*i), func() {
			fired++
			if fired == 5 {
				s.Poke()
			}
		})
	}
	var calls []uint64
	s.SetMonitor(1000, func(now Time, events uint64) bool {
		calls = append(calls, events)
		return now < 50
	})
	s.Run(Never)
	if len(calls) != 1 || calls[0] != 5 || !s.Halted() || fired != 5 || s.Now() != 50 {
		t.Fatalf("monitor calls %v, halted %v, fired %d, now %v; want [5], true, 5, 50ps", calls, s.Halted(), fired, s.Now())
	}

	quiet := New(1)
	quiet.At(10, quiet.Poke)
	quiet.Run(Never)
	if quiet.Halted() {
		t.Fatal("a Poke without a monitor halted the run")
	}
	var none *Sim
	none.Poke()
}
