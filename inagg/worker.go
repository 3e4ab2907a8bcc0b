package inagg

import (
	"fmt"
	"math/rand/v2"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// controller is a protocol's sending policy at one worker: which sequence
// may go out now, and how acknowledgements, losses and timeouts move its
// windows. The worker does everything else (sequence bookkeeping, results,
// loss detection, iterations).
type controller interface {
	// allow reports whether sequence seq (the next new one) may be sent.
	allow(w *worker, seq int64) bool
	// sent is called after seq went out (retx: a retransmission).
	sent(w *worker, seq int64, retx bool)
	// onGACK is called for a new GACK, after last_GACK moved.
	onGACK(w *worker, p *netsim.Packet)
	// onResult is called for a new result for seq, after last_AACK moved.
	onResult(w *worker, seq int64, p *netsim.Packet)
	// onLoss is called when an AACK gap triggered retransmissions.
	onLoss(w *worker)
	// onTimeout is called when the retransmission timer expired.
	onTimeout(w *worker)
}

// Per-sequence flags kept by a worker.
const (
	fResult   uint8 = 1 << iota // aggregated result received
	fGACK                       // GACK received
	fFastRetx                   // fast-retransmitted after an AACK gap
	fSent                       // sent (ATP's threads leave labels below sndNext unsent)
)

// Worker event kinds.
const (
	evCompute int32 = 1
	evRTO     int32 = 2
	evWake    int32 = 3
	evSlot    int32 = 16 // SwitchML thread k's poll of its slot timers has kind evSlot + k
)

// WorkerStats are one worker's counters.
type WorkerStats struct {
	Sent        uint64       // gradient packets sent, retransmissions included
	SentBytes   netsim.Bytes // gradient bytes on the wire, retransmissions included
	Retransmits uint64       // retransmitted gradient packets
	FastRetx    uint64       // of which after an AACK gap
	Timeouts    uint64       // retransmission-timer expiries
	GACKs       uint64       // new GACKs received
	Results     uint64       // new results received
	DupResults  uint64       // results received again
	BadResults  uint64       // results whose sum or bitmap was wrong (must stay 0)
	Pulls       uint64       // result pulls sent after a timeout (protocols with GACKs)
}

// worker is one training worker's endpoint.
type worker struct {
	j    *Job
	idx  int
	host *netsim.Host
	ep   int32
	flow uint64
	ctl  controller
	strm streamer // ctl, if it runs several sequence streams (ATP), else nil

	flags []uint8 // per sequence, indexed by seq & mask
	mask  int64

	iter              int
	iterBase, iterEnd int64
	sndNext           int64 // next new sequence (with streams: one past the largest sent)
	lastAACK          int64 // all results up to here received
	lastGACK          int64 // all GACKs (or results) up to here received
	gapScan           int64 // sequences below were checked for AACK gaps
	resultsIter       int64
	done              bool

	// gateEnd is one past the last sequence of the iteration the worker
	// may send: iterEnd, or with JobConfig.Buckets one past the last
	// bucket backprop has produced; bk is that layer-by-layer compute
	// (buckets.go), else nil.
	gateEnd int64
	bk      *bucketRun

	rto         netsim.Timer
	backoff     uint
	wakePending bool
	// NIC credits (Params.NICQueuePackets on a host with NIC flow
	// control): inNIC counts the worker's packets its host holds (NIC
	// queue and backlog); nicHeld: pump stopped at the bound; sending:
	// inside Host.Send, where a credit only counts (TxDone).
	credits, nicHeld, sending bool
	inNIC                     int
	rng                       *rand.Rand // the timer's jitter (Params.RTOJitter), made at first use
	rtxNext, rtxEnd           int64      // timeout recovery round: next to resend, end
	// pulled is one past the front sequence (last_AACK + 1) whose result
	// a timeout last asked the PS for (0: none); pull is set while a
	// timeout pulls rather than resends the acknowledged front
	// (pullFirst).
	pulled int64
	pull   bool
	// hiResult is the highest sequence whose result the worker holds.
	hiResult int64
	// gapNext, gapEnd: the paced gap recovery round (GapsPaced), the next
	// sequence to look at and the highest result held at its expiry.
	gapNext, gapEnd int64

	finish []netsim.Time // when this worker finished each iteration
	// awdLog holds the inputs of the job's AWD seen since the last
	// barrier, on a partitioned network (partitioned.go).
	awdLog []awdInput
	stats  WorkerStats

	// awdBound reports whether AWD (not CWD) holds the worker's next new
	// sequence back, since awdSince; awdTime accumulates such time.
	awdBound bool
	awdSince netsim.Time
	awdTime  netsim.Time
}

func (w *worker) flag(seq int64) uint8 { return w.flags[seq&w.mask] }

// outstanding reports whether sent sequences still lack results.
func (w *worker) outstanding() bool { return w.sndNext > w.lastAACK+1 }

// startIteration begins iteration k with its compute phase.
func (w *worker) startIteration(k int) {
	w.iter = k
	w.iterBase = int64(k) * w.j.packets
	w.iterEnd = w.iterBase + w.j.packets
	w.gateEnd = w.iterEnd
	w.resultsIter = 0
	if w.strm != nil {
		w.strm.startIteration(w)
	}
	if w.bk != nil {
		w.bk.startIteration(w, k)
		return
	}
	var c netsim.Time
	if w.j.cfg.Compute != nil {
		c = w.j.cfg.Compute(w.idx, k)
		if c < 0 {
			c = 0
		}
	}
	w.host.Sim().After(c, w, evCompute, nil, int64(k))
}

// HandleEvent implements netsim.Handler: compute done, timer expiries.
func (w *worker) HandleEvent(ev netsim.Event) {
	switch {
	case ev.Kind == evCompute:
		w.pump()
	case ev.Kind == evLayer:
		w.bk.segmentDone(w, ev.Arg)
	case ev.Kind == evRTO:
		w.timeout()
	case ev.Kind == evWake:
		w.wakePending = false
		if !w.done {
			w.pump()
		}
	case ev.Kind >= evSlot:
		if c, ok := w.ctl.(*switchmlCtl); ok {
			c.pollTimers(w, int(ev.Kind-evSlot))
		}
	}
}

// pump sends new sequences while the protocol allows.
func (w *worker) pump() {
	nicq := w.j.params.NICQueuePackets
	w.nicHeld = false
	for {
		s, ok := w.nextNew()
		if !ok {
			break
		}
		if nicq > 0 && w.credits {
			// The host tells the worker when its NIC takes each of its
			// packets for the wire (TxDone), as Linux's TCP small
			// queues tell a socket.
			if w.inNIC >= nicq {
				w.nicHeld = true
				break
			}
		} else if nicq > 0 && w.nicBacklog() >= nicq {
			// Wait for the NIC to drain; wake up by then even if no
			// acknowledgement arrives (another job may own the backlog).
			if !w.wakePending {
				w.wakePending = true
				w.host.Sim().After(w.nicWait(), w, evWake, nil, 0)
			}
			break
		}
		w.markSent(s)
		w.transmit(s, false)
	}
	if w.j.cfg.Protocol != SwitchML && w.outstanding() && !w.rto.Armed() {
		w.armRTO()
	}
	if c, ok := w.ctl.(*asyncCtl); ok && c.limit {
		s := w.sndNext
		w.setAWDBound(s < w.gateEnd && s > w.lastAACK+int64(c.awd.awd) && s <= w.lastGACK+int64(c.cwd))
	}
}

// setAWDBound records whether AWD holds the worker back from now on: the
// next new sequence is past the AWD edge (last_AACK + AWD) though within
// the CWD edge (last_GACK + CWD), Sec. III-B1's Fig. 5 at T = 1.
func (w *worker) setAWDBound(b bool) {
	if b == w.awdBound {
		return
	}
	now := w.host.Sim().Now()
	if w.awdBound {
		w.awdTime += now - w.awdSince
	}
	w.awdBound, w.awdSince = b, now
}

// nextNew is the next new sequence the protocol lets the worker send now.
func (w *worker) nextNew() (int64, bool) {
	if w.strm != nil {
		return w.strm.nextSeq(w)
	}
	s := w.sndNext
	return s, s < w.gateEnd && s-w.lastAACK <= int64(w.j.params.MaxWindow) && w.ctl.allow(w, s)
}

// markSent books new sequence s as sent. Ring slots of the sequences
// sndNext passes are cleared (under ATP's threads some of them are other
// threads' sequences not sent yet); a stream sends such a sequence later,
// below sndNext.
func (w *worker) markSent(s int64) {
	for ; w.sndNext <= s; w.sndNext++ {
		w.flags[w.sndNext&w.mask] = 0
	}
	w.flags[s&w.mask] = fSent
}

// ringQueue is the port's queue if it has several transmit rings, else nil.
func ringQueue(pt *netsim.Port) netsim.RingQueue {
	if rq, ok := pt.Queue().(netsim.RingQueue); ok && rq.Rings() > 1 {
		return rq
	}
	return nil
}

// nicBacklog is how many packets the worker's NIC holds that the worker's
// next packet queues behind in its transmit ring: the ring's waiting packets
// when the NIC has several rings, else everything the port holds.
func (w *worker) nicBacklog() int {
	nic := w.host.NIC()
	if rq := ringQueue(nic); rq != nil {
		n := rq.RingLen(w.j.ring)
		if nic.Busy() {
			n++
		}
		return n
	}
	return nic.Backlog()
}

// nicWait is how long a worker whose NIC ring is full waits before it looks
// again: until a single FIFO has drained, or, with several rings served by
// deficit round robin, one round (a quantum of the other rings and one of
// its own packets), after which its ring has sent at least one packet.
func (w *worker) nicWait() netsim.Time {
	nic := w.host.NIC()
	pkt := w.j.hdr + w.j.payload
	if rq := ringQueue(nic); rq != nil {
		return netsim.TxTime(netsim.Bytes(rq.Rings()-1)*switchmodel.RingQuantum+pkt, nic.Link.Rate)
	}
	return netsim.TxTime(nic.Queue().Bytes()+pkt, nic.Link.Rate)
}

// packetToPS is a header-only packet of kind for sequence seq from this
// worker to its PS.
func (w *worker) packetToPS(kind uint8, seq int64) *netsim.Packet {
	j := w.j
	p := w.host.Sim().Packets().Get()
	p.Kind = kind
	p.Flow = w.flow
	p.Dst, p.DstEP = j.ps.host.ID(), j.ps.ep
	p.SrcEP = w.ep
	p.Seq = seq
	p.Size = j.hdr
	p.SentAt = w.host.Sim().Now()
	p.Ring = j.ring
	p.Ext[extJob] = int64(j.cfg.ID)
	p.Ext[extWorker] = int64(w.idx)
	return p
}

// transmit puts gradient packet seq on the wire.
func (w *worker) transmit(seq int64, retx bool) {
	j := w.j
	p := w.packetToPS(KindGradient, seq)
	p.Payload = j.payloadOf(seq)
	p.Size += p.Payload
	p.Flags = netsim.FlagECT
	if retx {
		p.Flags |= netsim.FlagRetx
	}
	p.Ext[extValue] = GradientValue(w.idx, seq)
	p.Ext[extBitmap] = int64(1) << uint(w.idx)
	if j.atpIdx != nil {
		p.Ext[extAgtr] = j.atpIndex(seq)
	}
	w.stats.Sent++
	w.stats.SentBytes += p.Size
	w.send(p)
	w.ctl.sent(w, seq, retx)
}

// send hands p to the worker's host, counting it among the packets the
// host holds for the worker when the NIC credits them.
func (w *worker) send(p *netsim.Packet) {
	if w.credits {
		w.inNIC++
	}
	w.sending = true
	w.host.Send(p)
	w.sending = false
}

// TxDone implements netsim.TxNotifier: the host's NIC took one of the
// worker's packets for the wire. A worker held back by its NIC bound sends
// again; a credit for the packet being sent (an idle NIC takes it at once)
// wakes it by an event instead, outside the sending code.
func (w *worker) TxDone(flow uint64, _ netsim.Bytes) {
	if flow != w.flow || !w.credits {
		return
	}
	w.inNIC--
	switch {
	case !w.nicHeld || w.done:
	case w.sending:
		if !w.wakePending {
			w.wakePending = true
			w.host.Sim().After(0, w, evWake, nil, 0)
		}
	default:
		w.pump()
	}
}

var _ netsim.TxNotifier = (*worker)(nil)

// retransmit resends seq (to the PS for ATP and PA-ATP; to the slot for
// SwitchML).
func (w *worker) retransmit(seq int64) {
	w.stats.Retransmits++
	w.transmit(seq, true)
}

// Receive implements netsim.Endpoint.
func (w *worker) Receive(p *netsim.Packet) {
	if w.done || p.Ext[extJob] != int64(w.j.cfg.ID) {
		w.host.Sim().Packets().Put(p)
		return
	}
	switch p.Kind {
	case KindGACK:
		w.onGACK(p)
	case KindResult:
		w.onResult(p)
	}
	w.host.Sim().Packets().Put(p)
}

func (w *worker) onGACK(p *netsim.Packet) {
	seq := p.Seq
	if seq <= w.lastGACK || seq >= w.sndNext {
		return
	}
	f := &w.flags[seq&w.mask]
	if *f&(fGACK|fResult) != 0 {
		return
	}
	*f |= fGACK
	w.stats.GACKs++
	before := w.lastGACK
	w.advanceGACK()
	if w.lastGACK > before && !w.awdBound {
		// Progress: the retransmission timer restarts. Not while AWD holds
		// the worker back: its sending is then pinned to last_AACK, and the
		// GACKs of the few sequences each +1 of AWD lets out say nothing
		// about the front result. Otherwise a front sequence whose
		// aggregate, result or resend was lost would never time out: every
		// round trip AWD grows by one, every worker sends one sequence,
		// which completes, its AACK ends the round, and the GACKs keep the
		// timer from expiring (seen with the job's shared AWD: a job crept
		// one sequence per round trip for 5 ms).
		w.backoff = 0
		w.armRTO()
	}
	w.ctl.onGACK(w, p)
	w.pump()
}

func (w *worker) advanceGACK() {
	for w.lastGACK+1 < w.sndNext && w.flags[(w.lastGACK+1)&w.mask]&(fGACK|fResult) != 0 {
		w.lastGACK++
	}
}

func (w *worker) onResult(p *netsim.Packet) {
	seq := p.Seq
	if seq <= w.lastAACK || seq >= w.sndNext || w.flags[seq&w.mask]&(fResult|fSent) != fSent {
		w.stats.DupResults++
		return
	}
	j := w.j
	n := len(j.workers)
	if p.Ext[extValue] != ExpectedSum(n, seq) || uint64(p.Ext[extBitmap]) != fullMask(n) {
		w.stats.BadResults++
	}
	gacked := w.flags[seq&w.mask]&fGACK != 0
	w.flags[seq&w.mask] |= fResult
	if seq > w.hiResult {
		w.hiResult = seq
	}
	w.stats.Results++
	w.resultsIter++
	moved := false
	for w.lastAACK+1 < w.sndNext && w.flags[(w.lastAACK+1)&w.mask]&fResult != 0 {
		w.lastAACK++
		moved = true
	}
	if w.lastGACK < w.lastAACK {
		w.lastGACK = w.lastAACK
	}
	w.advanceGACK()
	if p.Flags&netsim.FlagCE != 0 {
		// The result was marked on its way back (Params.ResultECN): it
		// echoes congestion as a marked gradient's echo does.
		p.Flags |= netsim.FlagECE
		if gacked {
			if c, ok := w.ctl.(*asyncCtl); ok {
				c.onPathMark(w)
			}
		}
	}
	if !gacked && j.cfg.Protocol.Async() {
		// The result implies the gradient was received: it stands in for
		// a GACK that is late or lost (its echo of CE included).
		w.ctl.onGACK(w, p)
	}
	w.ctl.onResult(w, seq, p)
	if w.bk != nil {
		w.bk.onResult(w, seq)
	}
	if j.cfg.Protocol != SwitchML {
		if w.rtxNext < w.rtxEnd {
			w.recoverSome(w.j.recoveryStep, w.gacks() && w.backoff == 0)
		}
		if w.gapNext < w.gapEnd {
			w.recoverGapRound(2)
		}
		w.detectGap(seq)
		if moved {
			w.backoff = 0
			if w.outstanding() {
				w.armRTO()
			} else {
				w.rto.Stop()
			}
		}
	}
	if w.resultsIter == j.packets {
		w.finishIteration()
		return
	}
	w.pump()
}

// detectGap fast-retransmits every sequence that results have passed by
// GapThreshold without its own result (Sec. III-B1: "once a sequence
// number gap in AACK is detected, the workers quickly retransmit the lost
// gradients").
func (w *worker) detectGap(seq int64) {
	if w.strm != nil {
		w.strm.detectGap(w, seq)
		return
	}
	hi := seq - w.j.gapThreshold()
	s := w.gapScan
	if s <= w.lastAACK {
		s = w.lastAACK + 1
	}
	lost := false
	for ; s <= hi; s++ {
		lost = w.fastRetransmit(s) || lost
	}
	if s > w.gapScan {
		w.gapScan = s
	}
	if lost {
		w.ctl.onLoss(w)
	}
}

// fastRetransmit resends sent sequence s once if it lacks its result, and
// reports whether it did.
func (w *worker) fastRetransmit(s int64) bool {
	f := &w.flags[s&w.mask]
	if *f&(fResult|fFastRetx|fSent) != fSent {
		return false
	}
	*f |= fFastRetx
	w.stats.FastRetx++
	w.retransmit(s)
	return true
}

// armRTO (re)starts the retransmission timer: rtoValue, plus a draw
// uniform in [0, RTOJitter x RTO) on the worker's own stream
// (Params.RTOJitter).
func (w *worker) armRTO() {
	d := w.rtoValue()
	if j := w.j.params.RTOJitter; j > 0 && w.j.cfg.Protocol != BytePS {
		if w.rng == nil {
			w.rng = w.host.Sim().Rand(fmt.Sprintf("inagg/rto/job%d/worker%d", w.j.cfg.ID, w.idx))
		}
		d += netsim.Time(w.rng.Float64() * j * float64(w.j.params.RTO))
	}
	w.rto.SetAfter(d)
}

// rtoValue is the current retransmission timeout with backoff.
func (w *worker) rtoValue() netsim.Time {
	r := w.j.params.RTO
	if w.j.cfg.Protocol == BytePS {
		r = w.j.params.BytePSRTO
	}
	if !w.j.params.RTOBackoff.Doubles(w.j.cfg.Protocol) {
		return r // the public ATP client's fixed timeout (Params.RTOBackoff)
	}
	for i := uint(0); i < w.backoff && r < w.j.params.MaxRTO; i++ {
		r *= 2
	}
	if r > w.j.params.MaxRTO {
		r = w.j.params.MaxRTO
	}
	return r
}

// timeout starts a recovery round: no result (and, under the protocols
// with GACKs, no GACK) arrived for a whole RTO, so the outstanding
// sequences still unacknowledged (including a lost tail that no later
// result can reveal as a gap) are presumed lost. They are resent in a
// window of one BDP (the CWD cap): a first batch now, then one more for
// every new result, so that a recovery does not flood the path whose
// losses caused it. Resends go to the PS (SwitchML: to the slot), which
// answers with the result if the sequence is already complete.
//
// Under the protocols with GACKs a GACKed gradient has reached the switch
// or the PS and is not resent: its result may simply wait for other
// workers, and resending it would flush its aggregator to the PS. When
// every outstanding sequence is GACKed, the worker pulls the missing
// results from the PS instead (KindPull), which recovers results lost at
// the tail, where no later result reveals a gap. A GACK does not make a
// contribution safe, though: the aggregate or partial aggregate that
// carries it to the PS can be lost. If the timer expires again with the
// pulls unanswered, the worker resends its gradients lacking results.
//
// The front sequence (last_AACK + 1) goes first: when the switch
// acknowledged it and its result never came, it is pulled (first expiry)
// or resent (later ones) ahead of the batch, as the public ATP client
// resends from last_ACK + 1 upward (in-ATP/ATP client/p4ml_manager.cc:
// 451-483). Behind the batch it reached the PS's port after a burst of
// one BDP from every worker of the job, whose timers expire together, and
// could be dropped at every expiry while its timer backed off to MaxRTO
// (Params.FrontLast keeps that order).
func (w *worker) timeout() {
	if w.done || !w.outstanding() {
		return
	}
	w.stats.Timeouts++
	w.ctl.onTimeout(w)
	w.pull = w.pullFirst()
	if w.pull {
		w.pulled = w.lastAACK + 2
	}
	c, atp := w.ctl.(*atpCtl)
	if (atp && !w.j.params.ATPRecoverAll) || (w.gacks() && w.j.params.ClientRecovery) {
		if atp {
			c.timeoutResend(w)
		} else {
			w.clientResend()
		}
		w.backoff++
		w.armRTO()
		return
	}
	w.rtxNext, w.rtxEnd = w.lastAACK+1, w.sndNext
	if w.gacks() && !w.j.params.FrontLast && w.skipToRecover() {
		// The front first (Params.FrontLast), then the batch.
		w.recoverFront()
		w.recoverSome(w.j.recoveryBatch, true)
		w.recoverGaps(w.j.recoveryBatch)
	} else if w.recoverSome(w.j.recoveryBatch, w.gacks()) {
		if w.gacks() {
			w.recoverFront()
			w.recoverGaps(w.j.recoveryBatch)
		}
	} else if w.gacks() {
		if w.pull {
			w.pullResults(w.j.recoveryBatch)
		} else {
			// Every outstanding sequence was acknowledged and still lacks
			// its result (its result was lost, or its aggregate after the
			// switch acknowledged it, or it waits for a straggler): resend
			// from the front, as the client resends from last_ACK + 1; the
			// PS answers a completed sequence's resend with its result, a
			// resend at the switch releases the partial aggregate (with
			// Params.Pull, at a first expiry, pulls ask the PS instead).
			w.rtxNext = w.lastAACK + 1
			if w.j.params.GACKedFront {
				// The front alone, and the round ends with it
				// (Params.GACKedFront).
				w.recoverSome(1, false)
				w.rtxNext = w.rtxEnd
			} else {
				w.recoverSome(w.j.recoveryBatch, false)
			}
		}
	}
	w.backoff++
	w.armRTO()
}

// clientResend is a timeout's recovery under the public ATP client's rule
// (in-ATP/ATP client/p4ml_manager.cc:201-241) on the worker's one stream
// (Params.ClientRecovery): the sequences from last_AACK + 1 up to the first
// one beyond it whose result has come, or last_AACK + 1 alone when none
// has, are resent at once. Under the protocols with GACKs a sequence of
// that range the switch or the PS acknowledged is not resent (its
// contribution is held there), the front excepted, which is resent as the
// client always resends last_ACK + 1 (pulled at a first expiry with
// Params.Pull).
func (w *worker) clientResend() {
	front := w.lastAACK + 1
	end := front + 1 // no result beyond the front: the front alone
	for s := front + 1; s < w.sndNext; s++ {
		if w.flags[s&w.mask]&fResult != 0 {
			end = s
			break
		}
	}
	for s := front; s < end && s < w.sndNext; s++ {
		f := w.flags[s&w.mask]
		switch {
		case f&(fResult|fSent) != fSent:
		case s != front && f&fGACK != 0:
		case f&fGACK != 0 && w.pull:
			w.stats.Pulls++
			w.send(w.packetToPS(KindPull, s))
		default:
			w.retransmit(s)
		}
	}
}

// skipToRecover moves the recovery round's cursor to the first sequence
// that is neither answered nor GACKed, and reports whether there is one.
func (w *worker) skipToRecover() bool {
	for ; w.rtxNext < w.rtxEnd; w.rtxNext++ {
		s := w.rtxNext
		if s > w.lastAACK && w.flags[s&w.mask]&(fResult|fGACK|fSent) == fSent {
			return true
		}
	}
	return false
}

// recoverFront recovers the front sequence (last_AACK + 1) when the switch
// acknowledged its gradient and its result did not come: a resend, as the
// ATP client resends last_ACK + 1 at every expiry (with Params.Pull, a pull
// at the first expiry and a resend after). The recovery round above skips GACKed sequences, and
// while AWD holds a worker back each +1 of AWD sends a new sequence, so
// there is nearly always an unGACKed one in flight: without this a result
// lost to this worker alone (a multicast copy dropped on its downlink, its
// fast retransmission's answer lost too) was never asked for again, the
// worker's sending stayed pinned to it, and the whole job crept at AWD's
// growth of one sequence per round trip, the timer backing off to MaxRTO
// (ina-leafspine on the 4 x 4 x 8 fabric at gradient_scale 0.02, seed 2:
// one job ran 680 ms against 3-17 ms for the others).
func (w *worker) recoverFront() {
	s := w.lastAACK + 1
	if s >= w.sndNext || w.flags[s&w.mask]&(fResult|fGACK|fSent) != fGACK|fSent {
		return
	}
	if w.pull {
		w.stats.Pulls++
		w.send(w.packetToPS(KindPull, s))
		return
	}
	w.retransmit(s)
}

// recoverGaps recovers the GACKed sequences behind the front that lack
// their result while a later one's came, by Params.RecoverGaps: up to n of
// them (GapsBatch), or one now and the rest at the pace of results
// (GapsPaced, recoverGapRound); pulled when this expiry pulls the front,
// else resent. recoverFront handles the front.
func (w *worker) recoverGaps(n int64) {
	switch w.j.params.RecoverGaps {
	case GapsBatch:
	case GapsPaced:
		n = 1
	default:
		return
	}
	w.gapNext, w.gapEnd = w.lastAACK+2, w.hiResult
	w.recoverGapRound(n)
	if w.j.params.RecoverGaps == GapsBatch {
		w.gapNext = w.gapEnd
	}
}

// recoverGapRound recovers up to n more sequences of the gap round, from
// gapNext up to (not including) gapEnd.
func (w *worker) recoverGapRound(n int64) {
	for ; w.gapNext < w.gapEnd && n > 0; w.gapNext++ {
		s := w.gapNext
		if s <= w.lastAACK || w.flags[s&w.mask]&(fResult|fGACK|fSent) != fGACK|fSent {
			continue
		}
		n--
		if w.pull {
			w.stats.Pulls++
			w.send(w.packetToPS(KindPull, s))
			continue
		}
		w.retransmit(s)
	}
}

// pullFirst reports whether this expiry asks the PS for the results of
// acknowledged sequences (Params.Pull) instead of resending them: when the
// front (last_AACK + 1) has not been pulled yet. An expiry that finds the
// front it pulled still unanswered resends: the PS could not answer, so a
// contribution it lacks was lost after its GACK (a partial aggregate
// dropped on the PS's port, or refused there for overlapping what it
// held), and only a resend brings it. With Params.PullAfterReset (the
// earlier model) every expiry after the timer was restarted by progress
// pulls (the backoff cleared), and a GACK restarts it: on the full-size
// ina-leafspine point a VGG19 job whose PS could not answer its pulls sent
// 271,162 of them in 2,624 expiries and crept about one sequence a round
// trip from 80 to 110 ms, the one new sequence a round GACKed between
// expiries (docs/ina-reproduction.md, "A full-size point"). At 2 percent
// of the models on 0.5 MiB (seed 1) pulling a front once cut the timeouts
// from 2,055 to 260 and the pulls from 18,767 to 885.
func (w *worker) pullFirst() bool {
	switch {
	case !w.j.params.Pull:
		return false
	case w.j.params.PullAfterReset:
		return w.backoff == 0
	}
	return w.pulled != w.lastAACK+2
}

// pullResults sends pulls for up to n outstanding sequences without
// results, oldest first.
func (w *worker) pullResults(n int64) {
	for s := w.lastAACK + 1; s < w.sndNext && n > 0; s++ {
		if w.flags[s&w.mask]&(fResult|fSent) != fSent {
			continue
		}
		w.stats.Pulls++
		w.send(w.packetToPS(KindPull, s))
		n--
	}
}

// gacks reports whether the protocol acknowledges gradients one by one.
func (w *worker) gacks() bool { return w.j.cfg.Protocol.Async() }

// recoverSome resends up to n of the sequences of the recovery round that
// still lack results (and GACKs, with skipGACKed); it reports whether it
// resent any.
func (w *worker) recoverSome(n int64, skipGACKed bool) bool {
	skip := fResult
	if skipGACKed {
		skip |= fGACK
	}
	sent := false
	for n > 0 && w.rtxNext < w.rtxEnd {
		s := w.rtxNext
		w.rtxNext++
		if s > w.lastAACK && w.flags[s&w.mask]&(skip|fSent) == fSent {
			w.retransmit(s)
			n--
			sent = true
		}
	}
	return sent
}

// finishIteration records the iteration and starts the next one.
func (w *worker) finishIteration() {
	now := w.host.Sim().Now()
	w.finish = append(w.finish, now)
	w.setAWDBound(false)
	w.rto.Stop()
	w.backoff = 0
	w.rtxNext = w.rtxEnd
	w.gapNext = w.gapEnd
	k := w.iter
	if k+1 < w.j.cfg.Iterations {
		w.startIteration(k + 1)
	} else {
		w.done = true
	}
	w.j.workerFinished(w, k, now)
}
