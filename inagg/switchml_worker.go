package inagg

import (
	"cmp"
	"fmt"
	"slices"

	"syncsim/netsim"
)

var (
	_ controller = (*switchmlCtl)(nil)
	_ streamer   = (*switchmlCtl)(nil)
)

// switchmlCtl is SwitchML's worker: the pool is the window, and every
// outstanding packet has its own retransmission timer, run as the public
// client runs it (switchml_timer.go). The client's worker threads each own
// a share of the pool's slots with their own timeout, backoff and polls
// (p4lang/p4app-switchML dev_root/client_lib/src/backends/dpdk/
// dpdk_worker_thread.cc:82, :146-153, dpdk_worker_thread_utils.inc:229-230);
// here slot i belongs to thread i mod SwitchMLThreads.
//
// Each slot is a stream of its own, as in the client: the worker sends the
// first pool of an iteration's packets at once and, when the result of s
// arrives, sends s + S into the same slot at once
// (dpdk_worker_thread.cc:222-265 for the first batch, :346-368 for the
// reuse, pkt_id + batch_num_pkts), whatever the other slots do. A lost
// packet therefore holds up its own slot only. (Params.SwitchMLInOrder
// restores the earlier model, one window of the whole pool sent in sequence
// order, in which a result lost at one worker held up every slot of the
// job's other workers behind it: each of their pool's timers then expired,
// some 16 of 16 slots per worker on a hand-worked star, and the expiries
// doubled the timeouts within a few losses.)
type switchmlCtl struct {
	pool     int64
	slot     []int64       // sequence last sent into each slot, -1: none
	deadline []netsim.Time // when each slot's timer expires, -1: stopped
	threads  []smlThread
	first    netsim.Time // first-window timeouts, as a multiple
	expired  []int       // scratch: slots expired at a poll
	inOrder  bool        // Params.SwitchMLInOrder
	// ready are the iteration's sequences whose slot is free (the result
	// of s - S is back, or s is in the iteration's first pool), in the
	// order they became free, from head on.
	ready []int64
	head  int
}

// smlThread is one client worker thread's timer state.
type smlThread struct {
	backoff  smlBackoff
	poll     netsim.Timer // the next poll of the thread's slot timers
	lastPoll netsim.Time
	armed    int // the thread's slots whose timer runs
}

func newSwitchMLCtl(w *worker, pool int) *switchmlCtl {
	p := w.j.params
	n := min(p.SwitchMLThreads, pool)
	first := p.SwitchMLFirstTimeouts
	if first == 0 {
		first = max(1, pool/n) // the client's max_outstanding_pkts per thread
	}
	c := &switchmlCtl{
		pool:     int64(pool),
		slot:     make([]int64, pool),
		deadline: make([]netsim.Time, pool),
		threads:  make([]smlThread, n),
		first:    netsim.Time(first),
		inOrder:  p.SwitchMLInOrder,
	}
	for i := range c.slot {
		c.slot[i], c.deadline[i] = -1, -1
	}
	// A thread's polls follow its own clock, which started before the job
	// at no particular moment: each thread's polls get a phase drawn
	// uniformly within one timeout, so threads and workers do not resend
	// in lockstep.
	rng := w.host.Sim().Rand(fmt.Sprintf("inagg/switchml-poll/job%d/worker%d", w.j.cfg.ID, w.idx))
	for k := range c.threads {
		th := &c.threads[k]
		th.backoff = newSMLBackoff(&p)
		th.poll.Init(w.host.Sim(), w, evSlot+int32(k))
		th.lastPoll = w.j.cfg.Start - netsim.Time(rng.Int64N(int64(p.SwitchMLTimeout)))
	}
	return c
}

// thread is the thread that owns slot i.
func (c *switchmlCtl) thread(i int) *smlThread { return &c.threads[i%len(c.threads)] }

// allow: s may go into its slot once the result of s - S is back.
func (c *switchmlCtl) allow(w *worker, seq int64) bool {
	prev := seq - c.pool
	return prev <= w.lastAACK || w.flag(prev)&fResult != 0
}

// startIteration makes the iteration's first pool of sequences ready.
func (c *switchmlCtl) startIteration(w *worker) {
	c.ready, c.head = c.ready[:0], 0
	for s := w.iterBase; s < min(w.iterBase+c.pool, w.iterEnd); s++ {
		c.ready = append(c.ready, s)
	}
}

// nextSeq is the oldest ready sequence (Params.SwitchMLInOrder: the next
// in sequence order, once its slot is free). Either waits while the
// sequence would be more than MaxWindow past last_AACK, which keeps every
// outstanding sequence inside the worker's ring, or while backprop has not
// produced its bucket (worker.gateEnd).
func (c *switchmlCtl) nextSeq(w *worker) (int64, bool) {
	maxw := int64(w.j.params.MaxWindow)
	if c.inOrder {
		s := w.sndNext
		return s, s < w.gateEnd && s-w.lastAACK <= maxw && c.allow(w, s)
	}
	if c.head == len(c.ready) {
		return 0, false
	}
	s := c.ready[c.head]
	return s, s < w.gateEnd && s-w.lastAACK <= maxw
}

// detectGap: SwitchML recovers by timers only.
func (c *switchmlCtl) detectGap(*worker, int64) {}

// sent arms the slot's timer for a new packet (a resend's timer is re-armed
// by the poll that sent it). The first packet of an iteration starts the
// threads' job slices, which resets their timeouts
// (dpdk_worker_thread.cc:216); the first window's timers run
// SwitchMLFirstTimeouts timeouts (dpdk_worker_thread.cc:250-253).
func (c *switchmlCtl) sent(w *worker, seq int64, retx bool) {
	if retx {
		return
	}
	if !c.inOrder {
		if c.head == len(c.ready) || c.ready[c.head] != seq {
			panic(fmt.Sprintf("inagg: SwitchML worker %d sent sequence %d that is not the next ready one", w.idx, seq))
		}
		c.head++
		if c.head > 1024 && 2*c.head > len(c.ready) {
			c.ready = c.ready[:copy(c.ready, c.ready[c.head:])]
			c.head = 0
		}
	}
	p := &w.j.params
	if seq == w.iterBase {
		for k := range c.threads {
			c.threads[k].backoff.reset(p)
		}
	}
	i := int(seq % c.pool)
	th := c.thread(i)
	d := th.backoff.timeout
	if seq-w.iterBase < c.pool {
		d *= c.first
	}
	if c.deadline[i] < 0 {
		th.armed++
	}
	c.slot[i], c.deadline[i] = seq, w.host.Sim().Now()+d
	th.schedule(w)
}

// schedule arms the thread's next poll while any of its slot timers runs
// (the client polls regardless; polls with nothing to fire are skipped).
func (th *smlThread) schedule(w *worker) {
	if th.armed == 0 {
		th.poll.Stop()
		return
	}
	th.poll.Set(nextPoll(th.lastPoll, w.host.Sim().Now(), th.backoff.timeout))
}

// stop stops slot i's timer.
func (c *switchmlCtl) stop(i int) {
	if c.deadline[i] >= 0 {
		c.thread(i).armed--
		c.deadline[i] = -1
	}
}

func (c *switchmlCtl) onGACK(*worker, *netsim.Packet) {}

// onResult stops the slot's timer (dpdk_worker_thread.cc:350-351) and
// frees the slot for seq + S (:347, :355-368).
func (c *switchmlCtl) onResult(w *worker, seq int64, _ *netsim.Packet) {
	i := int(seq % c.pool)
	if c.slot[i] == seq {
		c.stop(i)
	}
	if next := seq + c.pool; !c.inOrder && next < w.iterEnd {
		c.ready = append(c.ready, next)
	}
}

func (c *switchmlCtl) onLoss(*worker) {}

func (c *switchmlCtl) onTimeout(*worker) {}

// pollTimers is thread k's rte_timer_manage: every one of its slot timers
// expired by now fires, earliest deadline first; each expiry counts towards
// the thread's backoff and resends its one packet, whose timer restarts
// with the (possibly doubled) timeout
// (dpdk_worker_thread_utils.inc:225-261).
func (c *switchmlCtl) pollTimers(w *worker, k int) {
	if k < 0 || k >= len(c.threads) {
		panic(fmt.Sprintf("inagg: SwitchML poll for thread %d of %d", k, len(c.threads)))
	}
	th := &c.threads[k]
	now := w.host.Sim().Now()
	th.lastPoll = now
	c.expired = c.expired[:0]
	for i := k; i < len(c.deadline); i += len(c.threads) {
		if d := c.deadline[i]; d >= 0 && d <= now {
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
		th.backoff.expire(w.j.params.SwitchMLThresholdIncrement)
		w.retransmit(seq)
		c.deadline[i] = now + th.backoff.timeout
	}
	th.schedule(w)
}
