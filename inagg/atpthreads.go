package inagg

import (
	"fmt"

	"syncsim/netsim"
)

// MaxATPThreads bounds Params.ATPThreads (the public ATP client allows 20
// threads per application, MAX_THREAD_PER_APP in in-ATP/ATP
// client/p4ml_manager.h:40; the bound here only keeps per-worker state
// small).
const MaxATPThreads = 64

// streamer is a controller that runs several independent sequence
// streams and picks the worker's next new sequence itself (ATP's threads).
type streamer interface {
	// nextSeq is the next new sequence some stream may send now.
	nextSeq(w *worker) (int64, bool)
	// startIteration resets the streams for the worker's new iteration.
	startIteration(w *worker)
	// detectGap fast-retransmits the sequences of seq's stream that the
	// stream's results have passed by GapThreshold.
	detectGap(w *worker, seq int64)
}

var (
	_ controller = (*atpCtl)(nil)
	_ streamer   = (*atpCtl)(nil)
)

// atpThread is one ATP sending thread's stream in the current iteration.
// Its sequences are thread-local, from 0.
type atpThread struct {
	win     atpWindow
	size    int64 // packets of the thread's part of the gradient
	next    int64 // next new thread-local sequence
	lastAck int64 // all thread-local results up to here received
	gapScan int64 // thread-local sequences below were checked for gaps
	// heard is when the thread last received a result (or, after a
	// timeout, resent): the client's t1 (p4ml_manager.cc, the receive
	// loop's timeout check).
	heard netsim.Time
}

// atpCtl is an ATP worker as the public ATP client runs it: several
// sending threads (client/main.cc:65 thread_to_use = 12), each with its own
// window (atpWindow), its own sequence numbers from 1 per tensor and its
// own aggregator indexes (client/p4ml_manager.cc:657-759,
// main_receive_packet_loop 147-530). The client hands each tensor whole to
// the least-loaded thread (PushPull, p4ml_manager.cc:542-567) and the
// benchmark pushes one equal tensor per thread per round (main.cc:111-116),
// so a worker's gradient is cut into Params.ATPThreads contiguous parts of
// (nearly) equal size, one per thread, each thread sending its part in
// order. A thread may send thread-local sequence k while k <= its
// cumulative result + its window (p4ml_manager.cc:358,366, last_ACK of
// common/window_manager.h:24-33).
//
// Bookkeeping. The worker keeps one sequence space per iteration (the
// labels the switch, the PS and the gradient values use) and one flags
// ring. Which bytes of the gradient a packet carries does not change the
// network's behaviour, only which packets are in flight does, so thread
// t's k-th packet of an iteration is labelled iterBase + k*n + t (n the
// threads in use): the labels of the threads' parts interleave. While the
// threads progress at similar speeds the worker's outstanding labels then
// stay within about n windows of last_AACK, as with one window, and the
// worker's ring (min(P, MaxWindow) + 1 slots), the PS's and the switch's
// rings need no change. The controller owns the per-thread pointers (next,
// lastAck, gap scan); the worker keeps its cumulative last_AACK and its
// sndNext, which becomes one past the largest label sent (labels below it
// that a slow thread has not sent yet are cleared in the ring and carry no
// fSent flag, so neither a timeout nor a pull touches them). A thread whose
// window was cut to one packet does not block the others: each picks its
// own next label; only a thread more than MaxWindow labels ahead of the
// worker's last_AACK waits, which keeps every outstanding label inside the
// rings (it never binds while an iteration has at most MaxWindow packets,
// about 4 MB of gradient with the defaults). Fast
// retransmit runs per thread: a result of thread t reveals gaps in
// thread t's stream only. The retransmission timer stays per worker (it
// restarts when last_AACK moves, so it expires when any thread's oldest
// packet is stuck) and recovers every sent label still lacking a result.
type atpCtl struct {
	th     []atpThread
	n      int64 // threads in use: min(ATPThreads, packets per iteration)
	base   int64 // first label of the current iteration
	cursor int   // the thread the next pump looks at first (round robin)

	halvings, increases uint64 // window-closing results that halved or grew a window
}

func newATPCtl(p Params, packets int64, pkt netsim.Bytes) *atpCtl {
	n := min(int64(p.ATPThreads), packets)
	c := &atpCtl{th: make([]atpThread, n), n: n}
	for t := range c.th {
		c.th[t].win = newATPWindow(int64(p.ATPThreadWindow), pkt, p.ATPCC)
		c.th[t].size = (packets - int64(t) + n - 1) / n
	}
	c.reset(0)
	return c
}

func (c *atpCtl) reset(base int64) {
	c.base, c.cursor = base, 0
	for t := range c.th {
		th := &c.th[t]
		th.next, th.lastAck, th.gapScan, th.heard = 0, -1, 0, 0
		th.win.reset()
	}
}

// locate is the thread and thread-local sequence of label seq of the
// current iteration.
func (c *atpCtl) locate(seq int64) (int, int64) {
	off := seq - c.base
	if off < 0 {
		panic(fmt.Sprintf("inagg: ATP label %d precedes its iteration's first label %d", seq, c.base))
	}
	return int(off % c.n), off / c.n
}

// label is the worker's sequence of thread t's k-th packet.
func (c *atpCtl) label(t int, k int64) int64 { return c.base + k*c.n + int64(t) }

// cwnd is the worker's total window: the sum of its threads' windows.
func (c *atpCtl) cwnd() float64 {
	var s int64
	for t := range c.th {
		s += c.th[t].win.wnd
	}
	return float64(s)
}

// threadWindows are the threads' windows in packets.
func (c *atpCtl) threadWindows() []float64 {
	out := make([]float64, len(c.th))
	for t := range c.th {
		out[t] = float64(c.th[t].win.wnd)
	}
	return out
}

func (c *atpCtl) startIteration(w *worker) {
	c.reset(w.iterBase)
	for t := range c.th {
		c.th[t].heard = w.host.Sim().Now()
	}
}

// nextSeq is the next packet of the first thread, from the cursor on,
// whose window lets it out, whose label is within MaxWindow of last_AACK
// and whose bucket backprop has produced (worker.gateEnd).
func (c *atpCtl) nextSeq(w *worker) (int64, bool) {
	maxw := int64(w.j.params.MaxWindow)
	for i := 0; i < len(c.th); i++ {
		t := (c.cursor + i) % len(c.th)
		th := &c.th[t]
		if th.next >= th.size || th.next > th.lastAck+th.win.wnd {
			continue
		}
		if seq := c.label(t, th.next); seq < w.gateEnd && seq-w.lastAACK <= maxw {
			return seq, true
		}
	}
	return 0, false
}

// allow reports whether seq is its thread's next packet and inside the
// thread's window.
func (c *atpCtl) allow(_ *worker, seq int64) bool {
	t, k := c.locate(seq)
	th := &c.th[t]
	return k == th.next && k < th.size && k <= th.lastAck+th.win.wnd
}

// sent moves the thread's next pointer past a new packet; the next pump
// starts at the following thread, so that threads take turns at the NIC.
func (c *atpCtl) sent(_ *worker, seq int64, retx bool) {
	if retx {
		return
	}
	t, k := c.locate(seq)
	if k != c.th[t].next {
		panic(fmt.Sprintf("inagg: ATP thread %d sent local sequence %d, expected %d", t, k, c.th[t].next))
	}
	c.th[t].next++
	c.cursor = (t + 1) % len(c.th)
}

func (c *atpCtl) onGACK(*worker, *netsim.Packet) {}

// onResult moves the thread's cumulative result and applies its window
// rule.
func (c *atpCtl) onResult(w *worker, seq int64, p *netsim.Packet) {
	t, k := c.locate(seq)
	th := &c.th[t]
	th.heard = w.host.Sim().Now()
	for th.lastAck+1 < th.next && w.flag(c.label(t, th.lastAck+1))&fResult != 0 {
		th.lastAck++
	}
	switch th.win.onResult(k, p.Flags&netsim.FlagECE != 0) {
	case atpHalved:
		c.halvings++
	case atpIncreased:
		c.increases++
	}
}

// detectGap fast-retransmits the packets of seq's thread that the
// thread's results have passed by GapThreshold without their own result
// (the client resends last_ACK + 1 up to the first pending result,
// p4ml_manager.cc:451-483).
func (c *atpCtl) detectGap(w *worker, seq int64) {
	t, k := c.locate(seq)
	th := &c.th[t]
	hi := k - w.j.gapThreshold()
	s := max(th.gapScan, th.lastAck+1)
	for ; s <= hi; s++ {
		w.fastRetransmit(c.label(t, s))
	}
	th.gapScan = max(th.gapScan, s)
}

func (c *atpCtl) onLoss(*worker) {}

func (c *atpCtl) onTimeout(*worker) {}

// timeoutResend is ATP's recovery when the worker's retransmission timer
// expires, as the public client's receive loop does it per thread
// (in-ATP/ATP client/p4ml_manager.cc, the check of time_span against
// timeout_value = 0.0002 s): a thread that has packets outstanding and
// has heard nothing for the timeout resends from its last_ACK + 1 up to
// the first result it holds beyond it (the front of its pending queue),
// or only last_ACK + 1 when it holds none, and restarts its clock. The
// worker's timer restarts whenever last_AACK moves, so it expires at most
// one timeout after the oldest thread stopped hearing; threads that are
// hearing results resend nothing. It reports whether anything was resent.
func (c *atpCtl) timeoutResend(w *worker) bool {
	labels := c.timeoutLabels(w, w.host.Sim().Now())
	for _, s := range labels {
		w.retransmit(s)
	}
	return len(labels) > 0
}

// timeoutLabels are the labels timeoutResend resends at time now, thread
// by thread; the threads that resend restart their clocks.
func (c *atpCtl) timeoutLabels(w *worker, now netsim.Time) []int64 {
	rto := w.j.params.RTO
	var out []int64
	for t := range c.th {
		th := &c.th[t]
		if th.lastAck+1 >= th.next || now-th.heard < rto {
			continue
		}
		end := th.lastAck + 2 // no result beyond last_ACK: resend last_ACK + 1 alone
		for k := th.lastAck + 1; k < th.next; k++ {
			if w.flag(c.label(t, k))&fResult != 0 {
				end = k
				break
			}
		}
		for k := th.lastAck + 1; k < end && k < th.next; k++ {
			out = append(out, c.label(t, k))
		}
		th.heard = now
	}
	return out
}
