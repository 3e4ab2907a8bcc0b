package inagg

import "syncsim/netsim"

// The public p4app-switchML client's retransmission timer (DPDK backend,
// built with TIMEOUTS), as plain state and functions a table test can call.
// References are to p4lang/p4app-switchML, dev_root/client_lib/src:
//
//   - One timer per outstanding packet (slot), armed with the worker
//     thread's current timeout when the packet is sent
//     (backends/dpdk/dpdk_worker_thread.cc:382) and stopped when its result
//     arrives (:351). Packets of the first window are armed for the timeout
//     times the window, max_outstanding_pkts (:250-253), to cover the time
//     a host takes to build the first batch.
//   - Expired timers run only when the thread polls them, which it does
//     once the last poll is more than one current timeout ago (:293-296):
//     a timer fires at the first poll at or after its deadline, and all
//     timers expired by then fire together.
//   - An expiry resends that one packet and re-arms its timer with the
//     current timeout (backends/dpdk/dpdk_worker_thread_utils.inc:247-261).
//   - Backoff: every expiry counts; when the count reaches the threshold
//     (timeout_threshold, default 100, config.cc:60) the count restarts
//     from 0, the threshold grows by timeout_threshold_increment (default
//     100, config.cc:61) and the timeout doubles, before the resend
//     (dpdk_worker_thread_utils.inc:229-244). Count and threshold are
//     static thread_local: they live as long as the worker thread and are
//     never reset. The timeout goes back to general.timeout (default 10
//     ms, config.cc:59) at the start of every job slice
//     (dpdk_worker_thread.cc:216), here every iteration. With the defaults
//     the timeout doubles at the 100th, 300th, 600th, 1000th, ... expiry
//     of a worker's life, the doubled value holding until its iteration
//     ends.
//
// Each of the client's worker threads keeps this state for its share of a
// worker's slots (config.cc:49-50, dpdk_worker_thread.cc:82); see
// switchmlCtl and Params.SwitchMLThreads.

// smlBackoff is a worker's timeout and backoff state (timer_cycles_,
// timeouts_counter and timeout_threshold of the client).
type smlBackoff struct {
	timeout   netsim.Time // current timeout
	count     int         // expiries since the last doubling
	threshold int         // expiries that trigger the next doubling
}

// newSMLBackoff is the state of a worker thread that has just started.
func newSMLBackoff(p *Params) smlBackoff {
	return smlBackoff{timeout: p.SwitchMLTimeout, threshold: p.SwitchMLTimeoutThreshold}
}

// reset starts a job slice (here an iteration): the timeout returns to
// its initial value; count and threshold carry on
// (dpdk_worker_thread.cc:216).
func (b *smlBackoff) reset(p *Params) { b.timeout = p.SwitchMLTimeout }

// maxSMLTimeout bounds the doubled timeout so that it cannot overflow the
// clock; the client's 64-bit cycle count would take some 40 doublings.
const maxSMLTimeout = 1000 * netsim.Second

// expire counts one expiry and doubles the timeout when the count reaches
// the threshold (dpdk_worker_thread_utils.inc:231-244). It reports whether
// the timeout doubled.
func (b *smlBackoff) expire(increment int) bool {
	b.count++
	if b.count < b.threshold {
		return false
	}
	b.count = 0
	b.threshold += increment
	b.timeout = min(2*b.timeout, maxSMLTimeout)
	return true
}

// nextPoll is the first poll of the client's timers at or after now, when
// the last poll was at last and polls follow each other one period apart
// (dpdk_worker_thread.cc:293): last + k period for the least k >= 1 that
// is not before now.
func nextPoll(last, now, period netsim.Time) netsim.Time {
	if now <= last {
		return last + period
	}
	k := (now - last + period - 1) / period
	return last + k*period
}
