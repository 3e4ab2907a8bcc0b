package transport

import "syncsim/netsim"

// This file is the sender's congestion-window-reduced state (Config.CWR):
// when an ECN echo may cut, what the window does until the cut is
// acknowledged, and the cut itself. sender.go calls it from Receive.

// cwrOver reports whether the last window reduction has been
// acknowledged, so that an ECN echo may cut again. Under CWRGrow an ACK
// reaching cwrEnd ends it; otherwise an ACK above cwrEnd does, as Linux
// leaves TCP_CA_CWR once snd_una is above high_seq (tcp_input.c,
// tcp_fastretrans_alert) and ns-3.37 once ackNumber > m_recover
// (tcp-socket-base.cc, TcpSocketBase::ReceivedAck).
func (f *Flow) cwrOver() bool {
	if f.st.cfg.CWR == CWRGrow {
		return f.sndUna >= f.cwrEnd
	}
	return f.sndUna > f.cwrEnd
}

// cwrAck runs the reduced state on a new ACK outside fast recovery
// (sndUna already advanced past acked bytes) and reports whether the
// window may grow on it. While a reduction is unacknowledged it may not;
// CWRHold sets the window by proportional rate reduction instead. The ACK
// that ends a reduction restores cwnd = ssthresh after PRR (Linux's
// tcp_end_cwnd_reduction, ns-3's exit from CA_CWR) and grows it, as both
// stacks do; an ECN echo about to cut does not grow it (both stacks enter
// CWR before their congestion-avoidance step: tcp_fastretrans_alert runs
// before tcp_cong_control, EnterCwr before ProcessAck).
func (f *Flow) cwrAck(acked netsim.Bytes, ece bool) bool {
	if f.st.cfg.CWR == CWRGrow {
		return true
	}
	if f.inCWR {
		if !f.cwrOver() {
			if f.prr {
				f.prrDelivered += acked
				f.cwnd = PRRWindow(f.ssthresh, f.prrPrior, f.prrDelivered, netsim.Bytes(f.sndMax-f.prrBase),
					acked, netsim.Bytes(f.sndNxt-f.sndUna), f.st.cfg.MSS)
			}
			return false
		}
		if f.prr {
			f.cwnd = f.ssthresh
		}
		f.inCWR, f.prr = false, false
	}
	return !(ece && f.cwrOver())
}

// cwrRecovery marks a fast-recovery entry as a reduction (cwrEnd is set
// by the caller): the window does not grow until it is acknowledged.
func (f *Flow) cwrRecovery() {
	f.inCWR, f.prr = f.st.cfg.CWR != CWRGrow, false
}

// cwrCut is the DCTCP window cut on an ECN echo (Eq. 2 via DCTCPCut) for
// an ACK that reported delivered bytes received. CWRGrow and CWRCut set
// cwnd to the cut window at once; CWRHold keeps it as ssthresh and paces
// the window down to it (PRRWindow), starting with this ACK. Under CWRHold
// and CWRCut the reduction ends after an ACK above sndNxt now (Linux's
// high_seq = snd_nxt in tcp_init_cwnd_reduction, ns-3's m_recover =
// m_highTxMark in EnterCwr); under CWRGrow the caller sets cwrEnd after
// sending.
func (f *Flow) cwrCut(delivered netsim.Bytes) {
	mss := f.st.cfg.MSS
	f.ssthresh = DCTCPCut(f.cwnd, f.dctcp.alpha, mss)
	f.caAcc = 0
	f.Cuts++
	switch f.st.cfg.CWR {
	case CWRGrow, CWRCut:
		f.cwnd = f.ssthresh
	case CWRHold:
		f.prr, f.prrPrior, f.prrDelivered, f.prrBase = true, f.cwnd, delivered, f.sndMax
		f.cwnd = PRRWindow(f.ssthresh, f.prrPrior, delivered, 0, delivered, netsim.Bytes(f.sndNxt-f.sndUna), mss)
	}
	if f.st.cfg.CWR != CWRGrow {
		f.cwrEnd, f.inCWR = f.sndNxt, true
	}
}
