package experiments

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// TickEvents is the number of simulator events a scenario lets pass
// between two calls of Run.Tick (netsim's Sim.SetMonitor period). At a
// few hundred nanoseconds per event a tick comes every tenth of a
// millisecond or so; even at a millisecond per event (a flow engine with
// ten thousand transfers) a stop request is seen within a quarter second.
const TickEvents = 256

// DefaultStallEvents is the least number of events a run must process
// without progress before it counts as stalled: a run that waits through
// a long quiet period with few events (an analytic model, a long compute
// phase) costs nothing and is not stopped.
const DefaultStallEvents = 1_000_000

// DefaultLivePeriod is how often (wall clock) a run refreshes what
// Runner.Live reports, unless Runner.LivePeriod says otherwise.
const DefaultLivePeriod = 100 * time.Millisecond

// Watch tells the harness what progress means in a run, so it can show
// how far the run is and end it when it stalls. A scenario calls
// Run.Watch once, after building and before simulating.
type Watch struct {
	// What names what Count counts, for messages ("results received by
	// the INA workers").
	What string
	// Count grows whenever the run makes progress (bytes delivered,
	// results received, synchronisations done). It is read a few times a
	// second of wall-clock time and at stall checkpoints, so it may cost
	// a loop over flows or workers. Without it the run is shown by its
	// simulated time only and never counts as stalled.
	Count func() float64
	// Goal is Count once the run's work is complete (0: unknown); with it
	// the progress display estimates the time left.
	Goal float64
	// Until is the simulated time in seconds at which the run ends at the
	// latest (0: none); used for the estimate when Goal is unknown.
	Until float64
	// Quiet is how long, in simulated seconds, the run may go without
	// progress by design (a compute phase, a retransmission timeout); it
	// is added to the stall limit.
	Quiet float64
	// Done, when set, reports that the run's work is complete, so a
	// quiet period after it is no stall.
	Done func() bool
}

// StallError ends a run that made no progress for longer than the stall
// limit while still processing events.
type StallError struct {
	What      string  // what did not grow (Watch.What)
	Since, At float64 // simulated seconds: last progress, detection
	Events    uint64  // events processed since the last progress
	Limit     float64 // the stall limit in simulated seconds
}

// Error implements error.
func (e *StallError) Error() string {
	return fmt.Sprintf("stalled: no progress in %s from %s to %s of simulated time (%d events); the run was ended "+
		"(--stall-ms sets the limit, %s; 0 turns the check off)",
		e.What, simTime(e.Since), simTime(e.At), e.Events, simTime(e.Limit))
}

// errHalted marks a run that a stop request ended before it finished.
var errHalted = errors.New("run halted")

// simTime formats simulated seconds with a unit.
func simTime(s float64) string {
	switch a := math.Abs(s); {
	case a == 0:
		return "0 s"
	case a < 1e-3:
		return fmt.Sprintf("%.4g us", s*1e6)
	case a < 1:
		return fmt.Sprintf("%.4g ms", s*1e3)
	}
	return fmt.Sprintf("%.4g s", s)
}

// Live is a snapshot of a run in progress, for progress displays.
type Live struct {
	Point, Trial int
	Seed         uint64
	Started      time.Time // wall clock
	SimSeconds   float64   // simulated time reached
	Events       uint64    // events processed
	Fraction     float64   // share of the work done, NaN when unknown
	Until        float64   // simulated end at the latest, 0 when unknown
	What         string    // Watch.What
}

// monitor is the harness's side of one run: the Runner creates it, the
// scenario's Sim calls Run.Tick every TickEvents events.
type monitor struct {
	done        <-chan struct{} // closed when the command is interrupted
	abandon     atomic.Bool     // set when a failure earlier in grid order makes the run useless
	stall       float64         // simulated seconds; 0: off
	stallEvents uint64

	watch     Watch
	watched   bool
	lastCount float64 // Count at the last change
	lastSim   float64 // simulated time of the last change
	lastEv    uint64  // events at the last change
	nextCheck float64 // simulated time of the next stall checkpoint
	ticks     uint64
	lastLive  time.Time
	period    time.Duration // how often to refresh the live snapshot
	err       error         // why the run was halted

	mu   sync.Mutex
	live Live
}

// Tick is called by the scenario's simulation every TickEvents events
// (see TickEvents), with the simulated time in seconds and the number of
// events processed. It returns false when the run must end now: the
// command was interrupted, or the run stalled. A run without a Runner
// (a test calling Experiment.Run directly) always continues.
func (r *Run) Tick(now float64, events uint64) bool {
	m := r.mon
	if m == nil {
		return true
	}
	select {
	case <-m.done:
		m.err = errHalted
		return false
	default:
	}
	if m.abandon.Load() {
		m.err = errHalted
		return false
	}
	if m.watched && m.stall > 0 && now >= m.nextCheck {
		if !m.check(now, events) {
			return false
		}
	}
	if m.ticks++; m.ticks&15 == 0 {
		if t := time.Now(); t.Sub(m.lastLive) >= m.period {
			m.lastLive = t
			m.update(now, events)
		}
	}
	return true
}

// Watch declares what progress means in this run (see Watch). Calling it
// again replaces the declaration.
func (r *Run) Watch(w Watch) {
	m := r.mon
	if m == nil {
		return
	}
	m.watch, m.watched = w, w.Count != nil
	if m.watched {
		m.lastCount, m.lastSim, m.lastEv = w.Count(), 0, 0
		m.nextCheck = m.checkEvery()
	}
	m.mu.Lock()
	m.live.Until, m.live.What = w.Until, w.What
	m.mu.Unlock()
}

// limit is the stall limit of the run in simulated seconds.
func (m *monitor) limit() float64 { return m.stall + m.watch.Quiet }

// checkEvery is the simulated time between stall checkpoints: a
// sixteenth of the limit, so a stall is found within 1/16 of it.
func (m *monitor) checkEvery() float64 { return m.limit() / 16 }

// check reads the progress count at a stall checkpoint. Checkpoints fall
// at fixed simulated times and ticks at fixed event counts, so whether a
// run stalls depends only on its parameters, seed and the limit.
func (m *monitor) check(now float64, events uint64) bool {
	m.nextCheck = now + m.checkEvery()
	c := m.watch.Count()
	if c != m.lastCount {
		m.lastCount, m.lastSim, m.lastEv = c, now, events
		return true
	}
	if m.watch.Done != nil && m.watch.Done() {
		return true
	}
	if now-m.lastSim >= m.limit() && events-m.lastEv >= m.stallEvents {
		m.err = &StallError{What: m.watch.What, Since: m.lastSim, At: now, Events: events - m.lastEv, Limit: m.limit()}
		return false
	}
	return true
}

// update refreshes the live snapshot.
func (m *monitor) update(now float64, events uint64) {
	f := math.NaN()
	{
		switch w := m.watch; {
		case w.Goal > 0 && w.Count != nil:
			f = math.Min(1, w.Count()/w.Goal)
		case w.Until > 0:
			f = math.Min(1, now/w.Until)
		}
	}
	m.mu.Lock()
	m.live.SimSeconds, m.live.Events, m.live.Fraction = now, events, f
	m.mu.Unlock()
}

// snapshot returns a copy of the live state.
func (m *monitor) snapshot() Live {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.live
}
