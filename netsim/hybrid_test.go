package netsim

import (
	"math/rand/v2"
	"testing"
)

// waves is a workload whose pending count swells from a few events to
// thousands and falls back, several times, so the hybrid queue switches
// between heap and calendar in both directions. Events fire at equal
// times, near, far and very far ahead; some are cancelled; timers move.
type waves struct {
	s       *Sim
	rng     *rand.Rand
	ids     []EventID
	fired   []Event
	left    int
	onCal   []bool // whether the calendar held the near events at each firing
	timers  [32]Timer
	nextArg int64
	phase   int // 0 swell, 1 ebb, 2 hold
	since   int // events fired when the phase began
}

func (w *waves) HandleEvent(ev Event) {
	w.fired = append(w.fired, ev)
	w.onCal = append(w.onCal, w.s.cal != nil)
	if ev.Kind >= 100 {
		return
	}
	if tm := &w.timers[w.rng.IntN(len(w.timers))]; w.rng.IntN(3) == 0 {
		tm.SetAfter(Time(w.rng.IntN(50_000)))
	}
	// Swell to 3,000 pending (1.5 children per event), ebb to 20 (0.75),
	// hold there for 40,000 events (one each), and again.
	p := w.s.Pending()
	switch {
	case w.phase == 0 && p > 3000, w.phase == 1 && p < 20:
		w.phase, w.since = w.phase+1, len(w.fired)
	case w.phase == 2 && len(w.fired)-w.since > 40_000:
		w.phase = 0
	}
	n := 1
	switch w.phase {
	case 0:
		n += w.rng.IntN(2)
	case 1:
		n = w.rng.IntN(4) / 2 * (1 + w.rng.IntN(2))
	}
	for ; n > 0 && w.left > 0; n-- {
		w.left--
		var d Time
		switch r := w.rng.IntN(64); {
		case r < 8:
			d = 0
		case r < 16:
			d = Time(w.rng.IntN(10))
		case r < 17:
			d = Time(w.rng.IntN(1_000_000))
		default:
			d = Time(w.rng.IntN(3000))
		}
		w.nextArg++
		w.ids = append(w.ids, w.s.After(d, w, 0, nil, w.nextArg))
	}
	if len(w.ids) > 0 && w.rng.IntN(5) == 0 {
		w.s.Cancel(w.ids[w.rng.IntN(len(w.ids))])
	}
}

// TestHybridQueueAgrees: the hybrid queue (heap, calendar and the
// switches between them) fires exactly the B-tree's sequence on the
// waves workload, and the run used both structures, switching both ways.
func TestHybridQueueAgrees(t *testing.T) {
	run := func(opts ...Option) *waves {
		s := New(1, opts...)
		w := &waves{s: s, rng: rand.New(rand.NewPCG(5, 6)), left: 200_000}
		for i := range w.timers {
			w.timers[i].Init(s, w, int32(100+i))
		}
		for i := 0; i < 20; i++ {
			w.nextArg++
			w.ids = append(w.ids, s.Schedule(Time(i%3), w, 0, nil, w.nextArg))
		}
		s.Run(Never)
		if s.Pending() != 0 {
			t.Fatalf("%d events left pending", s.Pending())
		}
		return w
	}
	hy, bt := run(), run(WithBtreeQueue())
	if len(hy.fired) < 50_000 || len(hy.fired) != len(bt.fired) {
		t.Fatalf("hybrid fired %d events, B-tree %d", len(hy.fired), len(bt.fired))
	}
	for i := range hy.fired {
		a, b := hy.fired[i], bt.fired[i]
		if a.At != b.At || a.Arg != b.Arg || a.Kind != b.Kind {
			t.Fatalf("event %d: hybrid (%v, %d, %d), B-tree (%v, %d, %d)", i, a.At, a.Arg, a.Kind, b.At, b.Arg, b.Kind)
		}
	}
	up, down := 0, 0
	for i := 1; i < len(hy.onCal); i++ {
		switch {
		case hy.onCal[i] && !hy.onCal[i-1]:
			up++
		case !hy.onCal[i] && hy.onCal[i-1]:
			down++
		}
	}
	if up < 2 || down < 2 {
		t.Errorf("the queue switched to the calendar %d times and back %d times; want at least 2 each", up, down)
	}
}

// TestHybridRenumbers: renumbering the sequence numbers while the
// calendar holds the near events keeps the order (the limit lowered so
// it happens every few hundred events).
func TestHybridRenumbers(t *testing.T) {
	run := func(limit uint64, opts ...Option) *waves {
		s := New(1, opts...)
		s.seqLimit = limit
		w := &waves{s: s, rng: rand.New(rand.NewPCG(7, 8)), left: 40_000}
		for i := range w.timers {
			w.timers[i].Init(s, w, int32(100+i))
		}
		for i := 0; i < 20; i++ {
			w.nextArg++
			s.Schedule(Time(i%3), w, 0, nil, w.nextArg)
		}
		s.Run(Never)
		return w
	}
	ref := run(maxSeq, WithBtreeQueue())
	got := run(5000)
	sawCal := false
	for _, c := range got.onCal {
		sawCal = sawCal || c
	}
	if !sawCal {
		t.Fatal("the calendar was never used")
	}
	if len(got.fired) != len(ref.fired) {
		t.Fatalf("renumbered run fired %d events, reference %d", len(got.fired), len(ref.fired))
	}
	for i := range got.fired {
		a, b := got.fired[i], ref.fired[i]
		if a.At != b.At || a.Arg != b.Arg || a.Kind != b.Kind {
			t.Fatalf("event %d: renumbered (%v, %d), reference (%v, %d)", i, a.At, a.Arg, b.At, b.Arg)
		}
	}
}
