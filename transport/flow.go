package transport

import (
	"math"

	"syncsim/netsim"
)

// Event kinds a Flow handles.
const (
	kindStart int32 = iota + 1
	kindRTO
	kindReady // a persistent connection's message has waited its StartLatency
)

// flowState is the sender's life cycle.
type flowState uint8

const (
	statePending  flowState = iota // waiting for StartLatency
	stateRunning                   // sending
	stateFinished                  // every byte acknowledged; endpoints closed
	stateStopped                   // Stop was called
)

// Flow is one transport connection: a sender endpoint on Src and a receiver
// endpoint on Dst. Exported fields are read-only for callers.
type Flow struct {
	ID       uint64
	Src, Dst netsim.NodeID
	// Size is the payload to move (0: long-lived).
	Size  netsim.Bytes
	Class uint8
	Tag   int64
	// Start is when Start was called; End is when the receiver held every
	// byte (0 until then). FCT = End - Start.
	Start, End netsim.Time

	// Retransmits counts retransmitted segments (fast retransmit, partial
	// ACKs and go-back-N after a timeout); FastRecoveries counts entries
	// into fast recovery; Timeouts counts RTO expiries.
	Retransmits, FastRecoveries, Timeouts uint64
	// Cuts counts DCTCP window reductions on ECN echoes.
	Cuts uint64

	st               *Stack
	cc               CC
	srcHost, dstHost *netsim.Host
	srcEP            int32
	// dstEP is the receiving endpoint's number as the sender addresses
	// it: netsim.EPByFlow until the first ACK of a posted flow tells it.
	dstEP int32
	// posted: the receiving endpoint lives in another partition and was
	// opened inside a window, so it is registered and unregistered by
	// messages to its partition (netsim.Sim.Post).
	posted       bool
	startLatency netsim.Time
	local        bool
	completed    bool
	state        flowState
	limit        int64 // Size, MaxInt64 for long-lived flows, or the sendable end of a connection
	rcv          receiver
	done         func(*Flow)
	bulkDone     func()
	bulkAcked    func() // netsim.BulkOpts.Acked: every byte acknowledged
	conn         *Conn  // set on a persistent connection's flow
	lastSend     netsim.Time

	// Sender sequence space, in payload bytes.
	sndUna, sndNxt, sndMax int64
	// Windows.
	cwnd, ssthresh, caAcc, maxCwnd netsim.Bytes
	// cwndLimited: the last send attempt stopped at the window with data
	// waiting (the window grows only when it limits, RFC 7661).
	cwndLimited bool
	// TCP small queues (Config.TSQBytes): tsq is set when the flow's
	// host credits it (netsim.TxNotifier); inHost is the bytes it has
	// handed to its host that the NIC has not yet taken for the wire;
	// tsqWait: the last send attempt stopped at the limit.
	tsq     bool
	tsqWait bool
	sending bool // inside Host.Send: a credit then only counts (TxDone)
	inHost  netsim.Bytes
	// Loss recovery (RFC 6582).
	dupacks     int
	inRecovery  bool
	partialSeen bool
	recover     int64
	// cwrEnd: no ECN window cut until this byte is acknowledged, so at
	// most one cut per window of data (DCTCP paper, Sec. 3.1).
	cwrEnd int64
	// inCWR: under CWRHold and CWRCut, a window reduction (an ECN cut or
	// a fast recovery entry) waits for an ACK above cwrEnd, and the window
	// does not grow meanwhile; a timeout ends it (Linux's TCP_CA_Loss
	// grows). prr: the reduction is an ECN cut paced by CWRHold, with the
	// window before the cut, the bytes delivered since and sndMax at the
	// cut (what was sent since is prr_out).
	inCWR, prr   bool
	prrPrior     netsim.Bytes
	prrDelivered netsim.Bytes
	prrBase      int64
	dctcp        dctcpEstimator

	rto   RTOEstimator
	timer netsim.Timer
}

func (f *Flow) init() {
	cfg := &f.st.cfg
	f.limit = int64(f.Size)
	if f.Size == 0 {
		f.limit = math.MaxInt64
	}
	f.cwnd = netsim.Bytes(cfg.InitCwndPkts) * cfg.MSS
	f.ssthresh = netsim.Bytes(math.MaxInt64)
	if cfg.MaxCwndPkts > 0 {
		f.maxCwnd = netsim.Bytes(cfg.MaxCwndPkts) * cfg.MSS
		f.cwnd = min(f.cwnd, f.maxCwnd)
	}
	f.recover = -1
	f.dctcp = dctcpEstimator{alpha: cfg.InitAlpha, g: cfg.G}
	f.rto = NewRTOEstimator(cfg.InitRTO, cfg.MinRTO, cfg.MaxRTO)
	f.timer.Init(f.srcHost.Sim(), f, kindRTO)
	f.rcv.f = f
}

// HandleEvent implements netsim.Handler for the start and RTO events.
func (f *Flow) HandleEvent(ev netsim.Event) {
	switch ev.Kind {
	case kindStart:
		f.begin()
	case kindRTO:
		f.onTimeout()
	}
}

// begin registers the endpoints and sends the first window.
func (f *Flow) begin() {
	if f.state != statePending {
		return // stopped before it began
	}
	if f.local {
		f.state = stateFinished
		f.complete()
		return
	}
	f.state = stateRunning
	f.srcEP = f.srcHost.Register(f)
	f.tsq = f.st.cfg.TSQBytes > 0 && f.srcHost.NICFlowControl()
	switch {
	case f.posted:
		f.postOpen()
	case !f.rcv.open:
		f.rcv.ep = f.dstHost.Register(&f.rcv)
		f.rcv.open = true
		f.dstEP = f.rcv.ep
	}
	f.trySend()
	f.dctcp.end = f.sndNxt
}

// complete records that the receiver holds every byte and notifies.
func (f *Flow) complete() {
	f.End = f.dstHost.Sim().Now()
	f.completed = true
	f.st.count(f.dstHost.Sim(), &f.st.Completed, ctrCompleted, 1)
	f.st.count(f.dstHost.Sim(), nil, ctrActive, -1)
	if f.done != nil {
		f.done(f)
	}
	if f.bulkDone != nil {
		f.bulkDone()
	}
}

// close stops the timer and releases both endpoints.
//
// On a partitioned network, a sender closing inside a window leaves the
// receiving endpoint of another partition open (touching it would race
// with that partition): it keeps acknowledging late segments, whose
// acknowledgements the closed sender's host discards as unclaimed.
func (f *Flow) close() {
	f.timer.Stop()
	f.srcHost.Unregister(f.srcEP)
	if f.posted {
		f.postClose()
		return
	}
	if f.rcv.open && (f.dstHost.Sim() == f.srcHost.Sim() || !f.st.net.Sim.InWindow()) {
		f.dstHost.Unregister(f.rcv.ep)
		f.rcv.open = false
	}
}

// Stop ends a flow (normally a long-lived one): no more segments are sent,
// both endpoints close, and packets still in flight are discarded on
// arrival. A flow that already completed is unaffected. Stopping a
// persistent connection's flow strands its undelivered messages: their
// dones never run.
func (f *Flow) Stop() {
	switch f.state {
	case stateFinished, stateStopped:
		return
	case stateRunning:
		f.close()
	}
	f.state = stateStopped
	if !f.completed && f.conn == nil { // connections are not in the counts
		f.st.count(f.srcHost.Sim(), nil, ctrActive, -1)
		f.st.count(f.srcHost.Sim(), &f.st.Stopped, ctrStopped, 1)
	}
}

// Done reports whether the receiver holds every byte.
func (f *Flow) Done() bool { return f.completed }

// FCT is the flow completion time End - Start (0 until done).
func (f *Flow) FCT() netsim.Time {
	if !f.Done() {
		return 0
	}
	return f.End - f.Start
}

// BytesAcked is the payload the sender has seen acknowledged.
func (f *Flow) BytesAcked() netsim.Bytes { return netsim.Bytes(f.sndUna) }

// Delivered is the payload the receiver holds in order.
func (f *Flow) Delivered() netsim.Bytes {
	if f.local && f.completed {
		return f.Size
	}
	return netsim.Bytes(f.rcv.nxt)
}

// Cwnd is the congestion window in bytes.
func (f *Flow) Cwnd() netsim.Bytes { return f.cwnd }

// Ssthresh is the slow-start threshold in bytes (MaxInt64 before the first
// congestion event).
func (f *Flow) Ssthresh() netsim.Bytes { return f.ssthresh }

// Alpha is DCTCP's congestion estimate (meaningless for NewReno).
func (f *Flow) Alpha() float64 { return f.dctcp.alpha }

// SRTT is the smoothed round-trip time (0 before the first sample).
func (f *Flow) SRTT() netsim.Time { return f.rto.SRTT() }

// RTO is the current retransmission timeout, backoff included.
func (f *Flow) RTO() netsim.Time { return f.rto.RTO() }

// CC is the flow's congestion control.
func (f *Flow) CC() CC { return f.cc }
