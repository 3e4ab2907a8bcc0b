package netsim

import (
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// TestParkerRounds drives a coordinator and two workers through many
// rounds as the worker pool does (the coordinator moves an epoch, each
// worker runs the round once and counts itself off), with no spinning
// and with a little, so that wakes arrive late, after their waiter saw
// the condition and went on to wait for the next round. Every worker must
// run every round exactly once, in order, and the coordinator must never
// start a round before both finished the last.
func TestParkerRounds(t *testing.T) {
	for _, spin := range []time.Duration{0, time.Microsecond} {
		const workers, rounds = 2, 20000
		var epoch atomic.Uint64
		var pending atomic.Int32
		park := make([]parker, workers+1)
		for i := range park {
			park[i] = newParker()
		}
		ran := make([]uint64, workers+1)
		var bad atomic.Int32
		done := make(chan struct{})
		for w := 1; w <= workers; w++ {
			go func() {
				for r := uint64(1); r <= rounds; r++ {
					park[w].wait(spin, func() bool { return epoch.Load() >= r })
					if epoch.Load() != r || ran[w] != r-1 {
						bad.Add(1)
					}
					ran[w] = r
					if pending.Add(-1) == 0 {
						park[0].wake()
					}
				}
				done <- struct{}{}
			}()
		}
		for r := uint64(1); r <= rounds; r++ {
			pending.Store(workers)
			epoch.Add(1)
			for w := 1; w <= workers; w++ {
				park[w].wake()
			}
			park[0].wait(spin, func() bool { return pending.Load() == 0 })
			for w := 1; w <= workers; w++ {
				if ran[w] != r {
					t.Fatalf("spin %v: round %d ended with worker %d at round %d", spin, r, w, ran[w])
				}
			}
		}
		for w := 0; w < workers; w++ {
			<-done
		}
		if n := bad.Load(); n != 0 {
			t.Fatalf("spin %v: %d rounds run out of turn", spin, n)
		}
	}
}

// TestParkerLateWake: a wake meant for a round its waiter has already
// seen (it saw the condition while spinning and went on) arrives while
// the waiter sleeps for the next round. The waiter must look at its
// condition again and sleep on, not return before its round.
func TestParkerLateWake(t *testing.T) {
	p := newParker()
	var round atomic.Uint64
	round.Store(1)
	p.wait(0, func() bool { return round.Load() >= 1 }) // round 1, seen at once
	returned := make(chan struct{})
	go func() {
		p.wait(0, func() bool { return round.Load() >= 2 })
		close(returned)
	}()
	for p.sleeping.Load() != 1 {
		time.Sleep(10 * time.Microsecond)
	}
	time.Sleep(time.Millisecond) // asleep on its channel
	p.wake()                     // round 1's wake, late
	select {
	case <-returned:
		t.Fatal("the waiter for round 2 returned on round 1's late wake")
	case <-time.After(20 * time.Millisecond):
	}
	round.Store(2)
	p.wake()
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("the waiter for round 2 did not return after its wake")
	}
}

// TestParkerLine: a parker is one cache line in size.
func TestParkerLine(t *testing.T) {
	if sz := unsafe.Sizeof(parker{}); sz != 64 {
		t.Errorf("parker is %d bytes, not one cache line", sz)
	}
}
