package transport

import (
	"math"

	"syncsim/netsim"
)

// TSQLimit is the most bytes a flow keeps queued in its own host under TCP
// small queues (Linux's tcp_small_queue_check, net/ipv4/tcp_output.c):
// about 1 ms at the pacing rate (rate >> sk_pacing_shift, with shift 10),
// at least two segments of seg bytes, at most capBytes
// (tcp_limit_output_bytes). The pacing rate is cwnd / srtt times 2 in slow
// start (cwnd < ssthresh) and 1.2 after it (tcp_update_pacing_rate); with
// no RTT sample yet, Linux divides by nothing and the cap binds.
func TSQLimit(cwnd, ssthresh netsim.Bytes, srtt netsim.Time, seg, capBytes netsim.Bytes) netsim.Bytes {
	if srtt <= 0 {
		return max(capBytes, 2*seg)
	}
	ratio := 1.2
	if cwnd < ssthresh {
		ratio = 2
	}
	rate := ratio * float64(cwnd) / srtt.Seconds() // bytes per second
	lim := rate / 1024                             // rate >> 10: about 1 ms
	if lim > float64(capBytes) || math.IsNaN(lim) {
		lim = float64(capBytes)
	}
	return max(netsim.Bytes(lim), 2*seg)
}

// TxDone implements netsim.TxNotifier: the flow's host took one of its
// packets for the wire, so that many fewer bytes of the flow wait there; a
// sender held back by TCP small queues sends again. A credit for the
// packet being sent (an idle NIC takes it at once) only counts: every
// path that sends ends in trySend.
func (f *Flow) TxDone(flow uint64, size netsim.Bytes) {
	if flow != f.ID || !f.tsq {
		return
	}
	f.inHost -= size
	if f.tsqWait && !f.sending && f.state == stateRunning {
		f.trySend()
	}
}

// tsqBlocked reports whether sending seg more bytes would take the flow
// past its TCP small queues limit. A flow with nothing in its host may
// always send.
func (f *Flow) tsqBlocked(seg netsim.Bytes) bool {
	if !f.tsq || f.inHost == 0 {
		return false
	}
	cfg := &f.st.cfg
	need := f.inHost + seg + cfg.HeaderBytes
	if need <= 2*(cfg.MSS+cfg.HeaderBytes) {
		return false // below the limit's floor of two segments
	}
	return need > TSQLimit(f.cwnd, f.ssthresh, f.rto.SRTT(), cfg.MSS+cfg.HeaderBytes, cfg.TSQBytes)
}

var _ netsim.TxNotifier = (*Flow)(nil)
