package inagg

import (
	"fmt"

	"syncsim/netsim"
)

// IncreaseMode is how an asynchronous worker grows its congestion window
// on an unmarked GACK.
type IncreaseMode uint8

// Increase modes.
const (
	// PerAck adds one packet per unmarked GACK: Sec. III-B2 of the PA-ATP
	// paper, "Once receiving a GACK packet, the worker will increase its
	// window by one. When network congestion occurs, the leading flow will
	// cut the window more aggressively than the straggling one." It is the
	// default. Read literally it doubles the window every round trip while
	// a cut (Eq. 1) comes at most once per round trip, so the window rises
	// to its cap (Params.CWDCapBDP) between cuts rather than settling below
	// it.
	PerAck IncreaseMode = iota
	// PerRTT grows CWD by one per unmarked GACK until the first cut (slow
	// start) and after it by ATPIncreaseBytes (1500 B, about five 310 B
	// packets) per round trip, spread over the GACKs of a window: the
	// additive increase of the ATP stack PA-ATP extends (the earlier
	// model).
	PerRTT
	numIncreaseModes
)

var increaseModeNames = [numIncreaseModes]string{"per-gack", "per-rtt"}

// String is the mode's name.
func (m IncreaseMode) String() string { return enumName(increaseModeNames[:], m, "increase") }

// IncreaseModeNames lists the increase modes' names, the default first.
func IncreaseModeNames() []string { return append([]string(nil), increaseModeNames[:]...) }

// ParseIncreaseMode maps a name to its IncreaseMode; the error lists the
// names.
func ParseIncreaseMode(name string) (IncreaseMode, error) {
	return parseEnum[IncreaseMode](increaseModeNames[:], name, "CWD increase")
}

// AWDScope is who holds PA-ATP's asynchronous degree window (see awdCtl).
type AWDScope uint8

// AWD scopes.
const (
	// AWDJob: one AWD per job, which every worker of the job applies and
	// every AACK any of them receives moves (Sec. III-B3, "each job
	// maintains the asynchronous degree window AWD"). The default.
	AWDJob AWDScope = iota
	// AWDWorker: each worker keeps its own AWD on the AACKs it receives,
	// with its own rounds (the earlier model).
	AWDWorker
	numAWDScopes
)

var awdScopeNames = [numAWDScopes]string{"job", "worker"}

// String is the scope's name.
func (s AWDScope) String() string { return enumName(awdScopeNames[:], s, "awd_scope") }

// AWDScopeNames lists the scopes' names, the default first.
func AWDScopeNames() []string { return append([]string(nil), awdScopeNames[:]...) }

// ParseAWDScope maps a name to its AWDScope; the error lists the names.
func ParseAWDScope(name string) (AWDScope, error) {
	return parseEnum[AWDScope](awdScopeNames[:], name, "AWD scope")
}

// PMaxMode is StrawAsyn+PC's p_max, the progress degree of the most
// leading position its progress-aware cut compares p with.
type PMaxMode uint8

// p_max modes of StrawAsyn+PC.
const (
	// PMaxAWD is the paper's definition, p_max = AWD / p_avg (Sec.
	// III-B2), with the AWD the job starts with (Params.InitAWD, or AWD*):
	// StrawAsyn+PC has PA-ATP's progress-aware cut but not its
	// asynchronous degree control, so its AWD neither bounds sending nor
	// moves. The default.
	PMaxAWD PMaxMode = iota
	// PMaxLeader is the most leading worker's progress degree,
	// (s_max - last_AACK) / p_avg, with s_max the largest sequence any of
	// the job's workers has sent, from the switch (the earlier model).
	PMaxLeader
	numPMaxModes
)

var pmaxModeNames = [numPMaxModes]string{"awd", "leader"}

// String is the mode's name.
func (m PMaxMode) String() string { return enumName(pmaxModeNames[:], m, "pmax") }

// PMaxModeNames lists the p_max modes' names, the default first.
func PMaxModeNames() []string { return append([]string(nil), pmaxModeNames[:]...) }

// ParsePMaxMode maps a name to its PMaxMode; the error lists the names.
func ParsePMaxMode(name string) (PMaxMode, error) {
	return parseEnum[PMaxMode](pmaxModeNames[:], name, "StrawAsyn+PC p_max")
}

// Params are the worker-side protocol constants. Where the papers leave a
// constant open, the default and its source are noted.
type Params struct {
	// PayloadBytes is the gradient payload per packet; 0 selects the
	// protocol default (INAPayloadBytes, or BytePSPayloadBytes for BytePS).
	PayloadBytes netsim.Bytes
	// HeaderBytes is the header per packet and the acknowledgement size; 0
	// selects the protocol default (INAHeaderBytes or BytePSHeaderBytes).
	HeaderBytes netsim.Bytes

	// InitCWD is the initial congestion window in packets of the
	// asynchronous protocols (default 100, the window the public ATP client
	// starts each thread at, max_agtr_size_per_thread = 100 in in-ATP/ATP
	// client/p4ml_manager.cc:590; neither the ATP nor the PA-ATP paper
	// states one). ATP's thread windows start at ATPThreadWindow instead.
	InitCWD float64
	// BytePSInitCWD is BytePS's initial window in packets (default 10, the
	// initial window of RFC 6928 of the TCP BytePS runs over).
	BytePSInitCWD float64
	// InitAWD is PA-ATP's initial asynchronous degree window in packets
	// (StrawAsyn+PC's fixed one). The paper states none. 0 (the default)
	// starts every job at AWD* = eta (M + BDP) / N of Sec. III-C, with M
	// and N the aggregators and the jobs registered at the job's
	// aggregating switch when the job starts: the boundary at which Sec.
	// III-C's system "starts to be overloaded", about which AWD oscillates
	// in the steady state the paper analyses, so a job starts at its share
	// of the switch rather than far below it (AWD grows by one per round
	// trip, so from a small value it would take thousands of round trips to
	// reach a share of 40K aggregators).
	InitAWD float64
	// MaxWindow caps every window, AWD included, and how far a worker's
	// next new sequence may run past its last_AACK (it bounds the
	// per-sequence rings of workers, switch and PS); default 65536 packets.
	// It must exceed a switch's M = 40960 aggregators (10 MiB) for one job's
	// asynchrony to be able to fill the memory, as the strawman's is in
	// Sec. II-B3, and for AWD* = eta (M + BDP) / N to be reachable with one
	// job per switch. (The earlier 16384 capped every protocol's asynchrony
	// at 40 percent of the memory: StrawAsyn was never
	// "asynchronization-unlimited", and two jobs at a switch could never
	// reach the AECN threshold.)
	MaxWindow int
	// MaxCWD caps the congestion window of the asynchronous protocols, in
	// packets (ATP's thread windows are capped by ATPThreadWindow); 0 (the
	// default) sets it from CWDCapBDP.
	MaxCWD float64
	// CWDCapBDP caps the congestion window of the asynchronous protocols at
	// this many bandwidth-delay products of the aggregating switch
	// (AggregatorConfig.BDPPackets, the fabric's base RTT at line rate,
	// scaled to the protocol's packet size), unless MaxCWD is set. The
	// PA-ATP paper states no cap for PA-ATP; of the INA protocols it
	// builds on it says "each worker maintains a sliding congestion window
	// with a size less than bandwidth-delay product (BDP)" (Sec. II-A2), so
	// the default is 1. A GACK's round trip ends at the aggregating
	// switch, short of the base RTT's far host, so one BDP fills a path.
	// (The earlier model capped at 2, to leave room for round trips longer
	// than the base one.) Without an aggregator (BytePS) the cap is
	// MaxWindow.
	CWDCapBDP float64
	// CWDIncrease is the asynchronous window growth of StrawAsyn and
	// PA-ATP (default PerAck; see IncreaseMode). BytePS always uses PerRTT.
	CWDIncrease IncreaseMode
	// AWDScope is who holds AWD (default AWDJob; see AWDScope and awdCtl).
	AWDScope AWDScope
	// PCMax is StrawAsyn+PC's p_max (default PMaxAWD; see PMaxMode).
	PCMax PMaxMode
	// FrontLast makes a timeout of the protocols with GACKs recover the
	// front sequence (last_AACK + 1, GACKed but unanswered) after the
	// batch of unGACKed resends instead of before it (the earlier model).
	// The papers do not say; the default false follows the public ATP
	// client, which resends from last_ACK + 1 upward (see worker.timeout).
	// With it, a job of ina-leafspine (Hadoop at 0.2, seed 3) stalled for
	// 170 ms with its front's resend dropped at the PS's port at each of
	// ten expiries.
	FrontLast bool
	// NICQueuePackets bounds how many packets a worker keeps queued at its
	// host's NIC (the send-queue depth of the kernel-bypass stacks ATP and
	// PA-ATP use, or Linux's TCP small queues): a worker whose window
	// allows more waits until the NIC drains. Default 16; 0 disables the
	// bound.
	NICQueuePackets int

	// ATPThreads is the number of independent windows (sending threads)
	// of every ATP worker (default 12: the public ATP client's
	// thread_to_use, in-ATP/ATP client/main.cc:65). The worker's gradient is
	// split into this many parts of (nearly) equal size, one per thread;
	// see atpCtl.
	ATPThreads int
	// ATPThreadWindow caps each ATP thread's window and is its initial
	// value, in packets (default 100: max_agtr_size_per_thread, in-ATP/ATP
	// client/p4ml_manager.cc:589-590, the client's initial window
	// p4ml_manager.cc:163,177 and its cap MAX_BYTES = 100 packets,
	// common/CC_manager.h:4). It is also the number of aggregator indexes
	// each thread cycles through (the client's agtr_start_pos + (seq - 1)
	// mod max_agtr_size_per_thread, p4ml_manager.cc:387).
	ATPThreadWindow int
	// ATPCC enables ATP's window adjustment (default true, the ATP paper's
	// congestion control; common/CC_manager.h:30-48). False keeps every
	// thread window fixed at ATPThreadWindow, as the public client runs it
	// (CC_ENABLE false, client/p4ml_manager.cc:4).
	ATPCC bool
	// RTOBackoff says whether consecutive expiries double the
	// retransmission timeout of ATP, StrawAsyn (+PC, +AL) and PA-ATP, up
	// to MaxRTO. Default BackoffEach: fixed for ATP, as its public client
	// (in-ATP/ATP client/p4ml_manager.cc:161,240,255), doubled for
	// StrawAsyn and PA-ATP, where the client's fixed timer collapses the
	// paper's settings (see Backoff). BytePS, over TCP, always backs off
	// (RFC 6298 Sec. 5.5).
	RTOBackoff Backoff
	// ATPRecoverAll makes an ATP timeout resend every outstanding packet
	// lacking a result (one BDP at a time, one more per new result)
	// instead of the public client's rule (atpCtl.timeoutResend, from
	// client/p4ml_manager.cc:201-241: a silent thread resends from
	// last_ACK + 1 up to the first result it holds beyond it, or
	// last_ACK + 1 alone). Default false.
	ATPRecoverAll bool
	// ClientRecovery makes a timeout of StrawAsyn (+PC, +AL) and PA-ATP
	// resend as the public ATP client's thread does, on the worker's one
	// window: from last_AACK + 1 up to the first result beyond it, or
	// last_AACK + 1 alone, skipping GACKed sequences but the front. Default
	// false: the paper is silent, and the client has no GACKs, which tell
	// a PA-ATP worker which of its outstanding gradients reached the
	// switch; a timeout resends every outstanding sequence that has
	// neither a result nor a GACK, one BDP at a time and one more per new
	// result (as TCP recovers the holes its SACKs show, RFC 6675), and the
	// front. The client's rule on one window recovers a burst lost at the
	// tail of an iteration one sequence per timeout: on the quick idle
	// ina-leafspine point PA-ATP's AJCT rose from 0.81 to 24.8 ms with it
	// (2,599 timeouts against 85; ATP's twelve threads each recover their
	// own tail).
	ClientRecovery bool
	// LossCut applies TCP's loss response to the windows of StrawAsyn
	// (+PC, +AL) and PA-ATP: CWD halved (at most once per window) on a
	// fast retransmission and set to one packet, with ssthresh at half, on
	// a timeout. Default true: the paper's CWD is a DCTCP window (Sec.
	// III-B2, alpha "similar to DCTCP", f = 0.125), and a DCTCP sender
	// "MUST react to loss episodes in the same way as conventional TCP"
	// (RFC 8257 Sec. 3.5; Linux's dctcp_react_to_loss). False is the
	// public ATP client's, whose window changes only on the ECN echo of a
	// window-closing result (client/p4ml_manager.cc:485-494; its fast
	// retransmission at :451-483 and its timeout at :201-241 only resend):
	// without a cut the idle ina-leafspine point at gradient_scale 0.02
	// left 1 of 8 StrawAsyn jobs unfinished by 100 ms (10.6 ms with it).
	// BytePS, over TCP, always applies it.
	LossCut bool
	// ResultECN makes results (AACKs) ECN-capable, so that switch queues
	// mark them CE on their way back as they mark gradients, and a worker
	// takes a marked result as a congestion echo (ATP's window-closing
	// rule; a marked acknowledgement of the asynchronous windows). Default
	// true: ATP's switch marks every ATP packet that leaves a deep queue,
	// results included (in-ATP/ATP p4src/p4ml.p4:237-250), and its client
	// reads the result's ECN bit (client/p4ml_manager.cc:276,486-487);
	// PA-ATP builds on that switch program. The return path carries each
	// result to every worker, W copies made at the aggregating switch, so
	// it is the busier direction: without marks (false, the earlier model)
	// nothing slowed a job whose copies overran their uplinks, and on the
	// idle ina-leafspine point results were most of PA-ATP's drops.
	// SwitchML, without congestion control, ignores marks.
	ResultECN bool
	// Pull makes the first expiry of a protocol with GACKs ask the PS for
	// the results of sequences the switch or the PS acknowledged (KindPull)
	// instead of resending them; later expiries resend. Default true: the
	// paper is silent, and the public ATP client, which has no GACKs,
	// resends what is unacknowledged (client/p4ml_manager.cc:201-241); a
	// GACK acknowledges a gradient, so its result, lost on the way back,
	// is asked for, and the partial aggregate of a sequence that only waits
	// for a straggler is not released to the PS. Resending acknowledged
	// gradients at the first expiry (false) collapsed the quick idle
	// ina-leafspine point under PA-ATP: 7 of 8 jobs done by 400 ms, 7.6 M
	// drops, against an AJCT of 0.72 ms and 20 K drops with pulls.
	Pull bool
	// PullAfterReset pulls at every expiry that follows progress (a new
	// result or GACK that restarted the timer). Default true, the model
	// every published figure was measured with; false (rto_pull_again=
	// front) pulls a front once and resends it at the next expiry that
	// finds it still unanswered (worker.pullFirst), which cut the full-size
	// point's pulls 4.3x (docs/ina-reproduction.md "A full-size point")
	// and is not the default until the figures are rerun with it.
	PullAfterReset bool
	// GACKedFront makes a timeout of StrawAsyn (+PC, +AL) and PA-ATP that
	// finds every outstanding sequence GACKed and resends rather than
	// pulls resend the front (last_AACK + 1) alone, and end its recovery
	// round there, so that the results that follow resend nothing more:
	// the public ATP client resends last_ACK + 1 alone when it holds no
	// result beyond it (in-ATP/ATP client/p4ml_manager.cc:201-241). Default
	// false: up to one BDP of them from the front (worker.timeout), one more
	// for every result that does not move the front. On the full-size
	// point every worker of a VGG19 job, its timer expired, resent up to a
	// BDP of GACKed sequences the PS mostly held, and its port dropped the
	// one contribution it lacked among them (docs/ina-reproduction.md "A
	// full-size point").
	GACKedFront bool
	// RecoverGaps is what a timeout of StrawAsyn (+PC, +AL) and PA-ATP
	// that recovers unacknowledged sequences does with the GACKed
	// sequences below the highest result the worker holds that still lack
	// their own (worker.recoverGaps): GapsFront (the default) none but the
	// front; GapsBatch up to one batch (the CWD cap) of them at the
	// expiry; GapsPaced one at the expiry and two more per new result, as
	// TCP's slow start lets segments out after a timeout (RFC 5681 Sec.
	// 3.1), until the round reaches the highest result held at the expiry.
	// Batch and paced pull where the front is pulled and resend where it
	// is resent. Their partners' results came, so the PS has most likely
	// completed them and lost this worker's copy (a multicast result
	// dropped on the way down, its one fast retransmission answered before
	// the sequence completed or answered and lost too). Sec. III-B1
	// retransmits once "a sequence number gap in AACK is detected"; that
	// the gap is retried at each expiry, not once, is ours. Under
	// GapsFront an expiry that finds an unacknowledged sequence recovers
	// only the front among the GACKed ones, so a worker that lost a run of
	// results got them back one per expiry while AWD pinned its sending:
	// on the idle ina-leafspine point at gradient_scale 0.02 (PA-ATP, seed
	// 4) worker 10 of job 1 lacked 1,130 results scattered over 20,000
	// sequences at 20 ms, and the job's other workers, waiting for its new
	// gradients, crept until 140 ms (docs/ina-recovery.md, "The idle
	// fabric"). GapsBatch cures that crawl and, a BDP of pulls per worker
	// per expiry, is itself a burst where many workers expire together;
	// GapsPaced lets the same recovery out at the pace results come back.
	RecoverGaps GapRule

	// F is the weight of the ECN congestion level alpha (default 0.125,
	// PA-ATP Sec. V-A).
	F float64
	// W is the weight of the AECN occupancy level beta (default 0.125,
	// PA-ATP Sec. V-A).
	W float64
	// BytePSG is the DCTCP gain g of BytePS's window (default 1/16, DCTCP).
	BytePSG float64
	// InitAlpha is alpha before the first window of GACKs closes (default
	// 1, as Linux DCTCP (tcp_dctcp.c, dctcp_alpha_on_init) and ns-3's
	// TcpDctcp (DctcpAlphaOnInit) start it: the first congestion event
	// halves the window; the ATP client halves on every marked window,
	// which is alpha fixed at 1).
	InitAlpha float64
	// InitBeta is PA-ATP's AECN level beta before its first round ends.
	// The paper states none; its model gives beta's steady state, Sec.
	// III-C: "beta is approximated as beta ~ sqrt(2/AWD*)". A negative
	// value (the default, InitBetaSteady) starts beta there,
	// sqrt(2 / AWD_0) with AWD_0 the job's initial AWD (AWD*, or
	// InitAWD), the steady state of the AWD the job starts at. 1, the
	// earlier model (DCTCP's alpha start), halved AWD at the first AECN
	// mark, which at AWD* = 18,724 took some 9,400 round trips to grow
	// back.
	InitBeta float64
	// AWDRoundsElapsed makes an AACK that ends a round after k >= 1 RTTs
	// without an AECN mark add k to AWD (the earlier model). Default
	// false: one round, one beta update and +1, however long it lasted.
	// Sec. III-B3: "When no AACK is marked as AECN, AWD is additively
	// increased by one per RTT round", and beta's g_i is "the ratio of
	// packets marked with AECN in the last round", which needs AACKs in the
	// round: RTTs without an AACK (a stall, a wait for a straggler) are no
	// rounds, as Linux's DCTCP updates alpha per window of acknowledged
	// data, never for idle time.
	AWDRoundsElapsed bool
	// AWDCutPerWindow cuts AWD by Eq. 2 on an AECN mark at most once per
	// window of AACKs (awdCtl.cutAllowed), as ECN's and DCTCP's senders
	// react once per window of data. Default false: at most once per
	// smoothed GACK round trip, Sec. III-B3's "RTT round".
	AWDCutPerWindow bool

	// GapThreshold is how far past a missing result the results must
	// reach before the worker retransmits it (fast retransmit on an AACK
	// gap) under ATP, StrawAsyn (+PC, +AL) and PA-ATP. 0 (the default)
	// takes each protocol's: 1 for StrawAsyn and PA-ATP, Sec. III-B1, "once
	// a sequence number gap in AACK is detected, the workers quickly
	// retransmit the lost gradients"; 3 for ATP, TCP's duplicate-ACK
	// threshold. The public ATP client resends from last_ACK + 1 up to the
	// first out-of-order result as soon as one is pending (client/
	// p4ml_manager.cc:353-363,451-483), a threshold of 1; under it ATP's
	// results, which complete in the order of their last contributions
	// over twelve workers' paths, are out of order often enough that the
	// default idle ina-leafspine point collapsed (7 of 8 jobs done by 400
	// ms, 15 M drops, against 8 done at 6.8 ms with 3), so ATP keeps 3 as
	// a documented departure. BytePS, over TCP, always uses
	// BytePSGapThreshold.
	GapThreshold int
	// RTO is the retransmission timeout of ATP, StrawAsyn (+PC, +AL) and
	// PA-ATP: default 200 us, the receive timeout of the public ATP client
	// (in-ATP/ATP, client/p4ml_manager.cc: 0.0002 s without a result),
	// whose stack PA-ATP extends, doubled on consecutive expiries up to
	// MaxRTO (default 64 ms) where RTOBackoff says so.
	RTO, MaxRTO netsim.Time
	// RTOJitter spreads each arming of the retransmission timer of ATP,
	// StrawAsyn (+PC, +AL) and PA-ATP over [RTO, (1 + RTOJitter) RTO),
	// drawn on the worker's own stream. Default 0.25. The public ATP
	// client does not fire its timeout at an instant: it checks the time
	// since its last receive whenever its receive loop comes round
	// (client/p4ml_manager.cc:188-255), at a point that depends on what
	// the loop was doing. Without a spread the twelve workers of a job,
	// whose timers restart on the same multicast result, expire within
	// nanoseconds of one another every time, their resends reach the PS's
	// port in the same order, and the same worker's resend is dropped at
	// every expiry: traced on the idle ina-leafspine point (PA-ATP, seed
	// 1, timer doubling), job 7 stopped at its sequence 12,063 from 1.8 ms
	// to the 100 ms limit, worker 11's resend of it dropped at the PS's
	// port at each of its expiries, 20 us after worker 5's got through
	// (0: no spread).
	RTOJitter float64
	// BytePSRTO is BytePS's initial retransmission timeout (default 1 ms,
	// the datacenter RTO floor of the transport package's TCP: BytePS runs
	// over TCP), doubled like RTO.
	BytePSRTO netsim.Time

	// SwitchMLPool is SwitchML's slot pool per job, the packets a worker
	// keeps outstanding (default 256: the public p4app-switchML client's
	// general.max_outstanding_packets per worker, p4lang/p4app-switchML
	// dev_root/client_lib/src/config.cc:50 and configs/general.cfg:25-32).
	// The client divides it among SwitchMLThreads worker threads, each
	// with its own window, timers and UDP port
	// (backends/dpdk/dpdk_worker_thread.cc:82). Here the threads share the
	// worker's slots for their timers (slot i is thread i mod
	// SwitchMLThreads's); every slot is its own stream, as in the client: a
	// lost packet holds up its slot only (see SwitchMLInOrder). 0 sizes the
	// pool to the aggregator's
	// bandwidth-delay product instead (Sapio et al., NSDI 2021, size the
	// pool to the BDP). The switch reserves two copies of every slot
	// (SwitchML's shadow copies, dpdk_worker_thread.cc:87-94).
	SwitchMLPool int
	// SwitchMLTimeout is SwitchML's initial per-slot retransmission
	// timeout (default 10 ms: general.timeout, config.cc:59). It restarts
	// at this value every iteration and doubles under
	// SwitchMLTimeoutThreshold (see switchml_timer.go).
	SwitchMLTimeout netsim.Time
	// SwitchMLTimeoutThreshold is how many expiries double the timeout
	// (default 100: general.timeout_threshold, config.cc:60). The count
	// is over the worker's whole run, not per iteration, and restarts at
	// every doubling: with the defaults, at the 100th, 300th, 600th, ...
	// expiry (dpdk_worker_thread_utils.inc:229-244).
	SwitchMLTimeoutThreshold int
	// SwitchMLThresholdIncrement is how much the threshold grows at each
	// doubling (default 100: general.timeout_threshold_increment,
	// config.cc:61).
	SwitchMLThresholdIncrement int
	// SwitchMLThreads is the client's worker threads per worker (default
	// 4: general.num_worker_threads, config.cc:49). Slot i's timer belongs
	// to thread i mod SwitchMLThreads, which has its own timeout, backoff
	// count and threshold, and polls (dpdk_worker_thread.cc:146-153,
	// dpdk_worker_thread_utils.inc:229-230).
	SwitchMLThreads int
	// SwitchMLFirstTimeouts is how many timeouts the timers of an
	// iteration's first window run: the client arms its first batch for
	// the timeout times its window per thread, max_outstanding_pkts
	// (dpdk_worker_thread.cc:250-253), to cover building the batch on the
	// host. 1 (the default) arms them like the rest: the simulated host
	// builds no batch, so the slack covers nothing here, and a gradient
	// lost in the first burst of an iteration would wait 640 ms, dozens
	// of iterations of the other protocols (measured on the default
	// ina-leafspine point at load 0: 407 ms AJCT with the client's slack,
	// 14 ms without). 0 is the client's: the pool over the threads (64 of
	// the default 256 over 4).
	SwitchMLFirstTimeouts int
	// SwitchMLInOrder sends a SwitchML worker's sequences in order through
	// one window of the whole pool (s waits for the result of s - S and for
	// every sequence before it), the earlier model. Default false: each
	// slot is a stream of its own, as in the public client, which sends
	// s + S into a slot as soon as the result of s returns, whatever the
	// other slots do (p4lang/p4app-switchML dev_root/client_lib/src/
	// backends/dpdk/dpdk_worker_thread.cc:346-368). In order, a result lost
	// at one worker held up every slot of the job's other workers, each
	// of whose timers then expired (up to a pool of timeouts per worker for
	// one loss, which doubled the timeouts within a few losses).
	SwitchMLInOrder bool
}

// DefaultParams returns the defaults documented on Params.
func DefaultParams() Params {
	return Params{
		InitCWD:                    100,
		BytePSInitCWD:              10,
		MaxWindow:                  1 << 16,
		CWDCapBDP:                  1,
		CWDIncrease:                PerAck,
		AWDScope:                   AWDJob,
		PCMax:                      PMaxAWD,
		NICQueuePackets:            16,
		ATPThreads:                 12,
		ATPThreadWindow:            100,
		ATPCC:                      true,
		F:                          0.125,
		W:                          0.125,
		BytePSG:                    1.0 / 16,
		InitAlpha:                  1,
		InitBeta:                   InitBetaSteady,
		GapThreshold:               0,
		RTO:                        200 * netsim.Microsecond,
		RTOJitter:                  0.25,
		MaxRTO:                     64 * netsim.Millisecond,
		BytePSRTO:                  netsim.Millisecond,
		SwitchMLPool:               256,
		SwitchMLTimeout:            10 * netsim.Millisecond,
		SwitchMLTimeoutThreshold:   100,
		SwitchMLThresholdIncrement: 100,
		SwitchMLThreads:            4,
		SwitchMLFirstTimeouts:      1,
		Pull:                       true,
		PullAfterReset:             true,
		ResultECN:                  true,
		LossCut:                    true,
	}
}

// Validate reports the first invalid field.
func (p Params) Validate() error {
	switch {
	case p.PayloadBytes < 0 || p.HeaderBytes < 0:
		return fmt.Errorf("inagg: payload and header sizes must be non-negative (got %d, %d)", p.PayloadBytes, p.HeaderBytes)
	case !(p.InitCWD >= 1) || !(p.BytePSInitCWD >= 1):
		return fmt.Errorf("inagg: initial windows must be at least 1 packet, got %v and %v (BytePS)", p.InitCWD, p.BytePSInitCWD)
	case !(p.InitAWD >= 0):
		return fmt.Errorf("inagg: initial AWD must be non-negative, got %v", p.InitAWD)
	case p.MaxWindow < 2 || p.MaxWindow > 1<<22:
		return fmt.Errorf("inagg: maximum window must be in [2, %d], got %d", 1<<22, p.MaxWindow)
	case !(p.MaxCWD >= 0):
		return fmt.Errorf("inagg: maximum CWD must be non-negative, got %v", p.MaxCWD)
	case p.NICQueuePackets < 0:
		return fmt.Errorf("inagg: NIC queue bound must be non-negative, got %d", p.NICQueuePackets)
	case p.ATPThreads < 1 || p.ATPThreads > MaxATPThreads:
		return fmt.Errorf("inagg: ATP threads must be in [1, %d], got %d", MaxATPThreads, p.ATPThreads)
	case p.ATPThreadWindow < 1 || p.ATPThreadWindow > p.MaxWindow:
		return fmt.Errorf("inagg: ATP thread window must be in [1, %d] (the maximum window), got %d", p.MaxWindow, p.ATPThreadWindow)
	case !(p.CWDCapBDP > 0):
		return fmt.Errorf("inagg: CWD cap must be a positive number of BDPs, got %v", p.CWDCapBDP)
	case p.RTOBackoff >= numBackoffs:
		return fmt.Errorf("inagg: unknown timer rule %v", p.RTOBackoff)
	case p.CWDIncrease >= numIncreaseModes:
		return fmt.Errorf("inagg: unknown CWD increase mode %d", p.CWDIncrease)
	case p.AWDScope >= numAWDScopes:
		return fmt.Errorf("inagg: unknown AWD scope %d", p.AWDScope)
	case p.PCMax >= numPMaxModes:
		return fmt.Errorf("inagg: unknown StrawAsyn+PC p_max mode %d", p.PCMax)
	case !(p.F > 0 && p.F <= 1) || !(p.W > 0 && p.W <= 1) || !(p.BytePSG > 0 && p.BytePSG <= 1):
		return fmt.Errorf("inagg: EWMA weights must be in (0, 1] (f=%v w=%v g=%v)", p.F, p.W, p.BytePSG)
	case !(p.InitAlpha >= 0 && p.InitAlpha <= 1) || !(p.InitBeta <= 1) || (p.InitBeta < 0 && p.InitBeta != InitBetaSteady):
		return fmt.Errorf("inagg: initial alpha and beta must be in [0, 1], or beta %v for its steady state (got %v, %v)",
			InitBetaSteady, p.InitAlpha, p.InitBeta)
	case p.GapThreshold < 0:
		return fmt.Errorf("inagg: gap threshold must be at least 1 (0: each protocol's), got %d", p.GapThreshold)
	case !(p.RTOJitter >= 0 && p.RTOJitter <= 10):
		return fmt.Errorf("inagg: RTO jitter must be in [0, 10], got %v", p.RTOJitter)
	case p.RTO <= 0 || p.MaxRTO < p.RTO:
		return fmt.Errorf("inagg: need 0 < RTO <= MaxRTO (got %v, %v)", p.RTO, p.MaxRTO)
	case p.BytePSRTO <= 0 || p.MaxRTO < p.BytePSRTO:
		return fmt.Errorf("inagg: need 0 < BytePS RTO <= MaxRTO (got %v, %v)", p.BytePSRTO, p.MaxRTO)
	case p.SwitchMLPool < 0:
		return fmt.Errorf("inagg: SwitchML pool must be non-negative, got %d", p.SwitchMLPool)
	case p.SwitchMLTimeout <= 0:
		return fmt.Errorf("inagg: SwitchML timeout must be positive, got %v", p.SwitchMLTimeout)
	case p.SwitchMLTimeoutThreshold < 1 || p.SwitchMLThresholdIncrement < 0:
		return fmt.Errorf("inagg: SwitchML timeout threshold must be at least 1 and its increment non-negative (got %d, %d)",
			p.SwitchMLTimeoutThreshold, p.SwitchMLThresholdIncrement)
	case p.SwitchMLThreads < 1 || p.SwitchMLFirstTimeouts < 0:
		return fmt.Errorf("inagg: SwitchML needs at least 1 thread and non-negative first-window timeouts (got %d, %d)",
			p.SwitchMLThreads, p.SwitchMLFirstTimeouts)
	}
	return nil
}

// InitBetaSteady as Params.InitBeta starts beta at its steady state
// sqrt(2 / AWD_0) (Sec. III-C).
const InitBetaSteady = -1

// ATPGapThreshold is ATP's default fast-retransmit threshold (see
// Params.GapThreshold).
const ATPGapThreshold = 3

// BytePSGapThreshold is BytePS's fast-retransmit threshold: TCP's three
// duplicate ACKs (RFC 5681 Sec. 3.2).
const BytePSGapThreshold = 3

// SwitchMLLongestWait is the longest a SwitchML worker waits for a result
// by design before it resends, its timeout not yet doubled: a first-window
// timer of a default pool and up to one poll period after it.
func (p Params) SwitchMLLongestWait() netsim.Time {
	first := p.SwitchMLFirstTimeouts
	if first == 0 {
		pool := p.SwitchMLPool
		if pool == 0 {
			pool = 1 << 13 // one BDP: at most the P4 program's 8192 slots
		}
		first = max(1, pool/max(1, p.SwitchMLThreads))
	}
	return p.SwitchMLTimeout * netsim.Time(first+1)
}

// sizes returns the header and payload bytes of proto under p.
func (p Params) sizes(proto Protocol) (hdr, payload netsim.Bytes) {
	hdr, payload = INAHeaderBytes, INAPayloadBytes
	if proto == BytePS {
		hdr, payload = BytePSHeaderBytes, BytePSPayloadBytes
	}
	if p.HeaderBytes > 0 {
		hdr = p.HeaderBytes
	}
	if p.PayloadBytes > 0 {
		payload = p.PayloadBytes
	}
	return hdr, payload
}
