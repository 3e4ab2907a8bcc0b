package inagg

import (
	"math"

	"syncsim/netsim"
)

// ATPIncreaseBytes is the additive increase of ATP's window per window of
// results without ECN: one 1500 B MTU, as the public ATP client adds to its
// byte window (in-ATP/ATP, common/CC_manager.h:38). With 310 B packets that
// is about five packets per round trip.
const ATPIncreaseBytes = 1500

// atpIncrease is ATPIncreaseBytes in packets of pkt bytes: the additive
// increase per round trip of ATP and of the asynchronous protocols built on
// its stack (StrawAsyn, PA-ATP).
func atpIncrease(pkt netsim.Bytes) float64 { return float64(ATPIncreaseBytes) / float64(pkt) }

// Changes of an ATP thread window on a window-closing result.
const (
	atpKept      = iota // no window-closing result, or congestion control off
	atpHalved           // the closing result echoed ECN
	atpIncreased        // it did not
)

// atpWindow is the window of one ATP sending thread (Lao et al., NSDI
// 2021), as the public ATP client adjusts it (in-ATP/ATP,
// common/CC_manager.h:30-48, applied in client/p4ml_manager.cc:485-494):
// the aggregated results are the ACKs, and the window is adjusted once per
// window of results, on the first result at or past the window's end (the
// client's finish_window_seq; the client waits for exactly that result,
// which a loss would skip): halved when that result echoes ECN (the switch
// ORs the CE bits of the gradients it aggregates into the result, and the
// PS echoes them), grown by ATPIncreaseBytes otherwise. The window is kept
// in bytes, rounded down to whole packets after every change, at least one
// packet, at most max packets (the client's MAX_BYTES = 100 packets,
// CC_manager.h:4). It starts at max (client/p4ml_manager.cc:163,176-177).
// As in the client, losses and timeouts are repaired by resends and leave
// the window alone; ECN is the congestion signal. With cc false the window
// stays at max (the shipped client's CC_ENABLE false,
// client/p4ml_manager.cc:4).
//
// Where the marks come from: ATP's switch program marks in egress every
// packet that leaves a queue at least dqueue_alert_threshold deep
// (p4src/p4ml.p4:237-249; the comparison eg_intr_md.deq_qdepth >=
// register_lo in p4src/includes/common.p4:120-129, the register
// initialised to 1000 and written by nothing else in the repository).
// deq_qdepth counts Tofino buffer cells of 80 B, so the threshold is
// about 80 KB at dequeue, against DCTCP's K (30 KB at 100 Gbps in the
// leaf-spine) at enqueue; the aggregator ORs the marks of the gradients
// it sums (ecn_register, common.p4:131-141), which the CE flag of an
// aggregator models here. The simulator's queues mark at DCTCP's K at
// every port, the aggregating switch's included; the deeper threshold of
// ATP's own switch is not modelled.
type atpWindow struct {
	bytes    float64 // window in bytes, whole packets
	pkt      float64 // bytes per packet
	maxBytes float64
	wnd      int64 // window in packets
	winEnd   int64 // the result of this thread-local sequence or a later one closes the window
	cc       bool
}

func newATPWindow(maxPkts int64, pkt netsim.Bytes, cc bool) atpWindow {
	w := atpWindow{pkt: float64(pkt), maxBytes: float64(maxPkts) * float64(pkt), cc: cc}
	w.reset()
	return w
}

// reset starts the window at its cap, as the client starts every tensor.
func (w *atpWindow) reset() {
	w.bytes = w.maxBytes
	w.wnd = max(1, int64(math.Round(w.maxBytes/w.pkt)))
	w.winEnd = w.wnd - 1
}

// onResult applies the rule to a new result for thread-local sequence k
// (from 0) that echoes ECN or not, and reports the change.
func (w *atpWindow) onResult(k int64, ecn bool) int {
	if !w.cc || k < w.winEnd {
		return atpKept
	}
	change := atpIncreased
	if ecn {
		w.bytes /= 2
		change = atpHalved
	} else {
		w.bytes += ATPIncreaseBytes
	}
	w.bytes = math.Max(w.pkt, math.Min(w.bytes, w.maxBytes))
	w.wnd = max(1, int64(w.bytes/w.pkt))
	w.bytes = float64(w.wnd) * w.pkt // the client keeps whole packets
	w.winEnd = k + w.wnd
	return change
}
