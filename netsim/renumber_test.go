package netsim

import (
	"slices"
	"testing"
)

// traceHandler records the events it receives and schedules more: each
// event schedules up to two at coarse times (many ties, so the sequence
// order decides), some through timers and some cancelled.
type traceHandler struct {
	s      *Sim
	rng    interface{ IntN(int) int }
	trace  []int64
	timers [4]Timer
	ids    []EventID
	left   int
}

func (h *traceHandler) HandleEvent(ev Event) {
	h.trace = append(h.trace, int64(ev.At), ev.Arg, int64(ev.Kind))
	if h.left <= 0 {
		return
	}
	for i := 0; i < 1+h.rng.IntN(2) && h.left > 0; i++ {
		h.left--
		at := h.s.Now() + Time(h.rng.IntN(4))*Nanosecond
		switch h.rng.IntN(5) {
		case 0:
			h.timers[h.rng.IntN(4)].Set(at + Time(h.rng.IntN(3))*Nanosecond)
		case 1:
			if n := len(h.ids); n > 0 {
				h.s.Cancel(h.ids[n-1])
				h.ids = h.ids[:n-1]
			}
			fallthrough
		default:
			h.ids = append(h.ids, h.s.Schedule(at, h, int32(i), nil, int64(h.left)))
		}
	}
}

func runTrace(limit uint64, opts ...Option) []int64 {
	s := New(3, opts...)
	if limit > 0 {
		s.seqLimit = limit
	}
	h := &traceHandler{s: s, rng: s.Rand("trace"), left: 40000}
	for i := range h.timers {
		h.timers[i].Init(s, h, int32(10+i))
	}
	for i := 0; i < 8; i++ {
		s.Schedule(Time(i%3)*Nanosecond, h, 0, nil, int64(-i))
	}
	s.Run(Never)
	return h.trace
}

// TestRenumberKeepsOrder: with the sequence limit lowered so that the
// pending events are renumbered hundreds of times, the Sim fires exactly
// the events, in exactly the order, of a Sim that never renumbers, on the
// heap and on the B-tree.
func TestRenumberKeepsOrder(t *testing.T) {
	want := runTrace(0)
	if len(want) < 3*20000 {
		t.Fatalf("trace has %d entries, the workload is too small", len(want)/3)
	}
	for _, limit := range []uint64{50, 97, 1000} {
		if got := runTrace(limit); !slices.Equal(got, want) {
			t.Errorf("heap, limit %d: the event order changed", limit)
		}
		if got := runTrace(limit, WithBtreeQueue()); !slices.Equal(got, want) {
			t.Errorf("B-tree, limit %d: the event order changed", limit)
		}
	}
}
