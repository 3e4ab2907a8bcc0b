package netsim

import (
	"sync/atomic"
	"time"
)

// parker lets one goroutine wait for a condition that another makes
// true: it spins first, then blocks. The parallel engine's threads hand
// each other a window every few hundred microseconds; a thread that blocks
// at once sleeps its core, and waking a sleeping core costs tens to
// hundreds of microseconds on a virtual machine (an interrupt to a halted
// virtual CPU), which on the 128-host permutation was a tenth of each
// window. Spinning for up to spinFor keeps the core awake across the
// usual wait; a longer wait (a thread the operating system paused, a
// machine with more runnable threads than cores) blocks instead of
// burning a core.
type parker struct {
	sleeping atomic.Int32 // 1 while the waiter is blocked or about to block
	ch       chan struct{}
	_        [64 - 16]byte // a cache line in size, so waiters on different cores seldom share one
}

// spinFor is how long the parallel engine's threads spin before they
// block (Sim.SetSpin).
const spinFor = 200 * time.Microsecond

func newParker() parker { return parker{ch: make(chan struct{}, 1)} }

// wait returns once ready reports true, spinning for up to spin before
// it blocks. Whoever makes ready true calls wake after it.
func (p *parker) wait(spin time.Duration, ready func() bool) {
	if ready() {
		return
	}
	if spin > 0 {
		deadline := time.Now().Add(spin)
		for i := 1; ; i++ {
			if ready() {
				return
			}
			if i&63 == 0 && time.Now().After(deadline) {
				break
			}
		}
	}
	for {
		p.sleeping.Store(1)
		if ready() {
			if !p.sleeping.CompareAndSwap(1, 0) {
				<-p.ch // a waker saw us asleep and sent a token: take it
			}
			return
		}
		// A token may come from a waker of an earlier round that was slow
		// to call wake (its waiter saw the condition while spinning and
		// went on): each sleep takes exactly the one token its own
		// sleeping flag let through, and looks at the condition again.
		<-p.ch
		if ready() {
			return
		}
	}
}

// wake is called after the waiter's condition turned true: it unblocks a
// waiter that went to sleep (or, late, one waiting for a later round, which
// looks again and sleeps on).
func (p *parker) wake() {
	if p.sleeping.CompareAndSwap(1, 0) {
		p.ch <- struct{}{}
	}
}
