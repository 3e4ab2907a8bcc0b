package netsim

import (
	"fmt"
	"testing"
)

// calWorkload drives a calendar (with its overflow heap) and a plain
// binary heap through the same random monotone workload and fails at the
// first key they pop differently. Pushes are never before the last key
// popped, as in a simulation; times come from a mixture of equal times,
// near, mid-range and far distances and bursts of many keys at one time,
// so keys land in the ring, in full buckets and beyond the window.
func calWorkload(t *testing.T, seed uint64, ops int, logN, shift uint) {
	t.Helper()
	rng := Stream(seed, "calendar")
	far := &heap2{}
	c := newCalendar(far)
	c.resize(logN, shift, 0)
	ref := &heap2{}
	var now Time
	var seq uint64
	push := func(at Time) {
		seq++
		k := mkKey(at, seq, uint32(seq&(maxSlots-1)))
		c.push(k)
		ref.push(k)
	}
	pops := 0
	for op := 0; op < ops; op++ {
		switch r := rng.IntN(100); {
		case r < 45:
			var d Time
			switch rng.IntN(6) {
			case 0:
				d = 0
			case 1:
				d = Time(rng.IntN(8))
			case 2:
				d = Time(rng.IntN(5000))
			case 3:
				d = Time(rng.IntN(200_000))
			case 4:
				d = Time(rng.IntN(3_000_000))
			default:
				d = Time(rng.IntN(1 << 40))
			}
			push(now + d)
		case r < 47:
			at := now + Time(rng.IntN(3))*Time(rng.IntN(100_000))
			for i := rng.IntN(40); i >= 0; i-- {
				push(at)
			}
		default:
			until := Never
			if rng.IntN(20) == 0 {
				until = now + Time(rng.IntN(1000))
			}
			k, ok := c.take(until)
			var want key
			wantOK := ref.len() > 0 && ref.h[0].at <= until
			if wantOK {
				want = ref.pop()
			}
			if ok != wantOK || k != want {
				t.Fatalf("seed %d, op %d (pop %d): calendar gave (%v, %d, %v), heap (%v, %d, %v)",
					seed, op, pops, k.at, k.seq(), ok, want.at, want.seq(), wantOK)
			}
			if ok {
				now = k.at
				pops++
			}
		}
		if c.len()+far.len() != ref.len() {
			t.Fatalf("seed %d, op %d: calendar holds %d+%d keys, heap %d", seed, op, c.len(), far.len(), ref.len())
		}
	}
	for ref.len() > 0 {
		want := ref.pop()
		if k, ok := c.take(Never); !ok || k != want {
			t.Fatalf("seed %d, draining: calendar gave (%v, %d, %v), heap (%v, %d)", seed, k.at, k.seq(), ok, want.at, want.seq())
		}
	}
	if _, ok := c.take(Never); ok {
		t.Fatalf("seed %d: calendar not empty after the heap", seed)
	}
	if pops < ops/3 {
		t.Fatalf("seed %d: only %d pops", seed, pops)
	}
}

// TestCalendarMatchesHeap: the calendar and its overflow heap pop exactly
// the heap's sequence, from the initial geometry (which adapts as it
// goes) and from narrow and wide fixed starts.
func TestCalendarMatchesHeap(t *testing.T) {
	for _, g := range []struct{ logN, shift uint }{{calInitLog, calInitShift}, {6, 0}, {10, 4}, {8, 30}} {
		t.Run(fmt.Sprintf("log%d-shift%d", g.logN, g.shift), func(t *testing.T) {
			for seed := uint64(1); seed <= 4; seed++ {
				calWorkload(t, seed, 300_000, g.logN, g.shift)
			}
		})
	}
}

// TestCalendarAdapts: a hold workload of about 1,000 keys, 1-3 us
// ahead, leaves the initial 64-bucket ring for one of at least 2,048
// buckets whose window covers the distances, with few keys in the
// overflow heap.
func TestCalendarAdapts(t *testing.T) {
	rng := Stream(1, "adapt")
	far := &heap2{}
	c := newCalendar(far)
	var seq uint64
	for i := 0; i < 1000; i++ {
		seq++
		c.push(mkKey(Time(1_000_000+rng.IntN(2_000_000)), seq, 0))
	}
	for i := 0; i < 200_000; i++ {
		k, _ := c.take(Never)
		seq++
		c.push(mkKey(k.at+Time(1_000_000+rng.IntN(2_000_000)), seq, 0))
	}
	if n := c.mask + 1; n < 2048 {
		t.Errorf("ring of %d buckets for 1,000 keys", n)
	}
	if w := Time(c.mask+1) << c.shift; w < 3_000_000 {
		t.Errorf("window of %v for keys up to 3 us ahead", w)
	}
	if far.len() > 100 {
		t.Errorf("%d of 1,000 keys in the overflow heap", far.len())
	}
}
