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
	_        [64 - 12]byte
}

// spinFor is how long a parker spins before it blocks.
const spinFor = 200 * time.Microsecond

func newParker() parker { return parker{ch: make(chan struct{}, 1)} }

// wait returns once ready reports true. ready must turn true only by
// the waker's hand, which then calls wake.
func (p *parker) wait(ready func() bool) {
	if ready() {
		return
	}
	deadline := time.Now().Add(spinFor)
	for i := 1; ; i++ {
		if ready() {
			return
		}
		if i&63 == 0 && time.Now().After(deadline) {
			break
		}
	}
	p.sleeping.Store(1)
	if ready() {
		if p.sleeping.CompareAndSwap(1, 0) {
			return
		}
		<-p.ch // the waker saw us asleep and sent a token: take it
		return
	}
	<-p.ch
}

// wake is called after the waiter's condition turned true: it unblocks a
// waiter that went to sleep.
func (p *parker) wake() {
	if p.sleeping.CompareAndSwap(1, 0) {
		p.ch <- struct{}{}
	}
}
