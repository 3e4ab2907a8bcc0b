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
	// PerRTT grows CWD by one per unmarked GACK until the first cut (slow
	// start) and after it by ATPIncreaseBytes (1500 B, about five 310 B
	// packets) per round trip, spread over the GACKs of a window, the
	// additive increase of the ATP stack PA-ATP extends (StrawAsyn, the
	// ablations and PA-ATP share it with ATP, so the comparison isolates
	// the asynchrony). It is the default: read literally, "+1 per GACK"
	// is slow start for ever, which doubles the window every round trip
	// while a cut can at most halve it once per round trip, so the window
	// never settles below its cap and the aggregating switch's downlinks
	// overflow when many workers converge on it. (Measured: three jobs of 8
	// workers and 2 MB gradients on a 4x4x8 leaf-spine dropped about
	// 30 000 packets under PA-ATP and 1 000 000 under StrawAsyn with
	// PerAck, and none with one packet per round trip.)
	PerRTT IncreaseMode = iota
	// PerAck adds one packet per unmarked GACK, Sec. III-B2 of the PA-ATP
	// paper read literally ("once receiving a GACK packet, the worker will
	// increase its window by one").
	PerAck
)

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
	// InitAWD is PA-ATP's initial asynchronous degree window in packets.
	// 0 (the default) starts every job at AWD* = eta (M + BDP) / N of
	// Sec. III-C, with N the number of jobs registered at the aggregator
	// when the job starts: the operating point of the model. The paper
	// does not state an initial value.
	InitAWD float64
	// MaxWindow caps every window (and bounds the per-sequence rings of
	// workers, switch and PS); default 16384 packets, 5 MB of 310 B
	// packets, far beyond any BDP in the papers.
	MaxWindow int
	// MaxCWD caps the congestion window of the asynchronous protocols, in
	// packets (ATP's thread windows are capped by ATPThreadWindow). 0 (the default) caps it at twice the
	// aggregating switch's BDP (AggregatorConfig.BDPPackets, scaled to this
	// protocol's packet size). PA-ATP Sec. II-A notes that INA workers keep
	// windows below the BDP; the cap leaves room for round trips longer
	// than the configured one (ATP's result clock runs through the PS).
	// Without an aggregator (BytePS) the default cap is MaxWindow.
	MaxCWD float64
	// CWDIncrease is the asynchronous window growth of StrawAsyn and
	// PA-ATP (default PerRTT; see IncreaseMode). BytePS always uses PerRTT.
	CWDIncrease IncreaseMode
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
	// ATPBackoff doubles ATP's retransmission timeout on consecutive
	// expiries, as the other window protocols do (up to MaxRTO). Default
	// false: the public client resends on a fixed 200 us receive timeout
	// (in-ATP/ATP client/p4ml_manager.cc, the timeout check of the
	// receive loop), and with a worker-wide timer backed off to MaxRTO a
	// job whose oldest packet stayed stuck through a burst of losses waits
	// up to 64 ms with every thread idle.
	ATPBackoff bool
	// ATPRecoverAll makes an ATP timeout resend every outstanding packet
	// lacking a result (a window at a time, as the asynchronous protocols
	// recover) instead of the client's per-thread rule (atpCtl.timeoutResend:
	// a silent thread resends from last_ACK + 1 up to its first result
	// beyond it, or last_ACK + 1 alone). Default false.
	ATPRecoverAll bool

	// F is the weight of the ECN congestion level alpha (default 0.125,
	// PA-ATP Sec. V-A).
	F float64
	// W is the weight of the AECN occupancy level beta (default 0.125,
	// PA-ATP Sec. V-A).
	W float64
	// BytePSG is the DCTCP gain g of BytePS's window (default 1/16, DCTCP).
	BytePSG float64
	// InitAlpha and InitBeta are alpha and beta before the first round
	// ends (default 1, as Linux DCTCP initialises alpha: the first
	// congestion event halves the window).
	InitAlpha, InitBeta float64

	// GapThreshold is how far past a missing result the results must
	// reach before the worker retransmits it (fast retransmit on an AACK
	// gap, Sec. III-B1); default 3, TCP's duplicate-ACK threshold.
	GapThreshold int
	// RTO is the retransmission timeout of ATP, StrawAsyn (+PC, +AL) and
	// PA-ATP: default 200 us, the receive timeout of the public ATP client
	// (in-ATP/ATP, client/p4ml_manager.cc: 0.0002 s without a result),
	// whose stack PA-ATP extends. For the asynchronous protocols, unlike
	// the client, consecutive expiries double it up to MaxRTO (default
	// 64 ms), so that a wait for a straggling worker does not become a
	// stream of resends; ATP keeps it fixed, as the client does, unless
	// ATPBackoff is set.
	RTO, MaxRTO netsim.Time
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
	// worker's slots for their timers, but the worker keeps one window of
	// the whole pool over its sequences: it keeps the client's total
	// outstanding, and a lost packet holds up the worker where the client
	// holds up one thread's share. 0 sizes the pool to the aggregator's
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
}

// DefaultParams returns the defaults documented on Params.
func DefaultParams() Params {
	return Params{
		InitCWD:                    100,
		BytePSInitCWD:              10,
		MaxWindow:                  1 << 14,
		CWDIncrease:                PerRTT,
		NICQueuePackets:            16,
		ATPThreads:                 12,
		ATPThreadWindow:            100,
		ATPCC:                      true,
		F:                          0.125,
		W:                          0.125,
		BytePSG:                    1.0 / 16,
		InitAlpha:                  1,
		InitBeta:                   1,
		GapThreshold:               3,
		RTO:                        200 * netsim.Microsecond,
		MaxRTO:                     64 * netsim.Millisecond,
		BytePSRTO:                  netsim.Millisecond,
		SwitchMLPool:               256,
		SwitchMLTimeout:            10 * netsim.Millisecond,
		SwitchMLTimeoutThreshold:   100,
		SwitchMLThresholdIncrement: 100,
		SwitchMLThreads:            4,
		SwitchMLFirstTimeouts:      1,
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
	case p.CWDIncrease > PerAck:
		return fmt.Errorf("inagg: unknown CWD increase mode %d", p.CWDIncrease)
	case !(p.F > 0 && p.F <= 1) || !(p.W > 0 && p.W <= 1) || !(p.BytePSG > 0 && p.BytePSG <= 1):
		return fmt.Errorf("inagg: EWMA weights must be in (0, 1] (f=%v w=%v g=%v)", p.F, p.W, p.BytePSG)
	case !(p.InitAlpha >= 0 && p.InitAlpha <= 1) || !(p.InitBeta >= 0 && p.InitBeta <= 1):
		return fmt.Errorf("inagg: initial alpha and beta must be in [0, 1] (got %v, %v)", p.InitAlpha, p.InitBeta)
	case p.GapThreshold < 1:
		return fmt.Errorf("inagg: gap threshold must be at least 1, got %d", p.GapThreshold)
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
