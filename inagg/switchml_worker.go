package inagg

import (
	"cmp"
	"slices"

	"syncsim/netsim"
)

// switchmlCtl is SwitchML's worker: the pool is the window, and every
// outstanding packet has its own retransmission timer, run as the public
// client runs it (switchml_timer.go).
type switchmlCtl struct {
	pool     int64
	slot     []int64       // sequence last sent into each slot, -1: none
	deadline []netsim.Time // when each slot's timer expires, -1: stopped
	armed    int           // slots whose timer runs
	backoff  smlBackoff
	poll     netsim.Timer // the next poll of the slot timers
	lastPoll netsim.Time
	expired  []int // scratch: slots expired at a poll
}

func newSwitchMLCtl(w *worker, pool int) *switchmlCtl {
	p := &w.j.params
	c := &switchmlCtl{
		pool:     int64(pool),
		slot:     make([]int64, pool),
		deadline: make([]netsim.Time, pool),
		backoff:  newSMLBackoff(p),
		lastPoll: w.j.cfg.Start,
	}
	for i := range c.slot {
		c.slot[i], c.deadline[i] = -1, -1
	}
	c.poll.Init(w.j.net.Sim, w, evSlot)
	return c
}

// allow: s may go into its slot once the result of s - S is back.
func (c *switchmlCtl) allow(w *worker, seq int64) bool {
	prev := seq - c.pool
	return prev <= w.lastAACK || w.flag(prev)&fResult != 0
}

// sent arms the slot's timer for a new packet (a resend's timer is re-armed
// by the poll that sent it). The first packet of an iteration starts a job
// slice, which resets the timeout (dpdk_worker_thread.cc:216); the first
// window's timers run SwitchMLFirstTimeouts timeouts
// (dpdk_worker_thread.cc:250-253).
func (c *switchmlCtl) sent(w *worker, seq int64, retx bool) {
	if retx {
		return
	}
	p := &w.j.params
	if seq == w.iterBase {
		c.backoff.reset(p)
	}
	d := c.backoff.timeout
	if seq-w.iterBase < c.pool {
		d *= netsim.Time(p.SwitchMLFirstTimeouts)
	}
	c.arm(int(seq%c.pool), seq, w.j.net.Sim.Now()+d)
	c.schedule(w)
}

// arm sets slot i's timer for seq to expire at t.
func (c *switchmlCtl) arm(i int, seq int64, t netsim.Time) {
	if c.deadline[i] < 0 {
		c.armed++
	}
	c.slot[i], c.deadline[i] = seq, t
}

// stop stops slot i's timer.
func (c *switchmlCtl) stop(i int) {
	if c.deadline[i] >= 0 {
		c.armed--
		c.deadline[i] = -1
	}
}

// schedule arms the poll for the next poll time while any slot timer runs
// (the client polls regardless; polls with nothing to fire are skipped).
func (c *switchmlCtl) schedule(w *worker) {
	if c.armed == 0 {
		c.poll.Stop()
		return
	}
	c.poll.Set(nextPoll(c.lastPoll, w.j.net.Sim.Now(), c.backoff.timeout))
}

func (c *switchmlCtl) onGACK(*worker, *netsim.Packet) {}

// onResult stops the slot's timer (dpdk_worker_thread.cc:350-351).
func (c *switchmlCtl) onResult(w *worker, seq int64, _ *netsim.Packet) {
	i := int(seq % c.pool)
	if c.slot[i] == seq {
		c.stop(i)
	}
}

func (c *switchmlCtl) onLoss(*worker) {}

func (c *switchmlCtl) onTimeout(*worker) {}

// pollTimers is the client's rte_timer_manage: every slot timer expired by
// now fires, earliest deadline first; each expiry counts towards the
// backoff and resends its one packet, whose timer restarts with the
// (possibly doubled) timeout (dpdk_worker_thread_utils.inc:225-261).
func (c *switchmlCtl) pollTimers(w *worker) {
	now := w.j.net.Sim.Now()
	c.lastPoll = now
	c.expired = c.expired[:0]
	for i, d := range c.deadline {
		if d >= 0 && d <= now {
			c.expired = append(c.expired, i)
		}
	}
	slices.SortStableFunc(c.expired, func(a, b int) int { return cmp.Compare(c.deadline[a], c.deadline[b]) })
	for _, i := range c.expired {
		seq := c.slot[i]
		if w.done || seq <= w.lastAACK || w.flag(seq)&fResult != 0 || seq >= w.sndNext {
			c.stop(i) // a result stops its timer; none can be pending here
			continue
		}
		w.stats.Timeouts++
		c.backoff.expire(w.j.params.SwitchMLThresholdIncrement)
		w.retransmit(seq)
		c.deadline[i] = now + c.backoff.timeout
	}
	c.schedule(w)
}
