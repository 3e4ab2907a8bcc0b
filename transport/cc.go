package transport

import "syncsim/netsim"

// This file holds the congestion-control math as plain functions of explicit
// state: each takes the current values and returns the new ones, so a
// table-driven test can check it against hand-computed numbers. The sender
// (sender.go) only sequences these calls.

// DefaultG is the DCTCP estimation gain g = 1/16 (Alizadeh et al., "Data
// Center TCP", SIGCOMM 2010, Sec. 3.1 and the g < 1.386/sqrt(2(C*RTT+K))
// bound of Sec. 3.4; 1/16 is the value used in the paper's experiments and
// the Linux default dctcp_shift_g = 4).
const DefaultG = 1.0 / 16

// DCTCPAlpha is the DCTCP congestion estimate update, once per window of
// data (DCTCP paper, Sec. 3.1, Eq. 1):
//
//	alpha <- (1 - g) * alpha + g * F
//
// where F in [0, 1] is the fraction of bytes acknowledged with ECE during the
// last window. F is clamped to [0, 1].
func DCTCPAlpha(alpha, g, f float64) float64 {
	if f < 0 {
		f = 0
	} else if f > 1 {
		f = 1
	}
	return (1-g)*alpha + g*f
}

// MarkedFraction is F = marked / acked, the fraction of acknowledged bytes
// that carried ECE in one observation window (0 when nothing was acked).
func MarkedFraction(marked, acked netsim.Bytes) float64 {
	if acked <= 0 {
		return 0
	}
	if marked >= acked {
		return 1
	}
	return float64(marked) / float64(acked)
}

// DCTCPCut is the DCTCP window reduction on an ECN echo, applied at most
// once per window of data (DCTCP paper, Sec. 3.1, Eq. 2):
//
//	cwnd <- cwnd * (1 - alpha/2)
//
// The result is truncated to whole bytes and floored at 2 MSS, the floor
// that Linux (tcp_dctcp.c, dctcp_ssthresh) and ns-3 (TcpDctcp::GetSsThresh)
// apply and that RFC 5681 Eq. 4 uses for ssthresh; a window already below
// the floor is never raised by a cut.
func DCTCPCut(cwnd netsim.Bytes, alpha float64, mss netsim.Bytes) netsim.Bytes {
	w := netsim.Bytes(float64(cwnd) * (1 - alpha/2))
	if w < 2*mss {
		w = 2 * mss
	}
	if w > cwnd {
		w = cwnd
	}
	return w
}

// SlowStart is the slow-start increase for one ACK that newly acknowledges
// acked bytes (RFC 5681 Sec. 3.1, Eq. 2): cwnd += min(acked, SMSS).
func SlowStart(cwnd, acked, mss netsim.Bytes) netsim.Bytes {
	if acked > mss {
		acked = mss
	}
	if acked < 0 {
		acked = 0
	}
	return cwnd + acked
}

// CongestionAvoidance is the congestion-avoidance increase with byte
// counting (RFC 5681 Sec. 3.1, the recommended method; RFC 3465): the newly
// acknowledged bytes accumulate in acc, and each time acc reaches cwnd the
// window grows by one SMSS and acc drops by the old cwnd. The window thus
// grows by one MSS per window of acknowledged data. It returns the new cwnd
// and accumulator.
func CongestionAvoidance(cwnd, acc, acked, mss netsim.Bytes) (netsim.Bytes, netsim.Bytes) {
	if acked > 0 {
		acc += acked
	}
	if acc >= cwnd {
		acc -= cwnd
		cwnd += mss
		if acc >= cwnd {
			// At most one SMSS per ACK (RFC 5681 Sec. 3.1): a huge
			// cumulative ACK does not buy several increases.
			acc = 0
		}
	}
	return cwnd, acc
}

// LossSsthresh is the slow-start threshold after a loss (RFC 5681 Sec. 3.1,
// Eq. 4): max(FlightSize / 2, 2 SMSS).
func LossSsthresh(flight, mss netsim.Bytes) netsim.Bytes {
	s := flight / 2
	if s < 2*mss {
		s = 2 * mss
	}
	return s
}

// FastRecoveryEntry is the window on entering NewReno fast recovery after
// the third duplicate ACK (RFC 6582 Sec. 3.2 step 2 and RFC 5681 Sec. 3.2
// step 4): ssthresh from LossSsthresh and cwnd = ssthresh + 3 SMSS, which
// inflates the window by the three segments that have left the network.
func FastRecoveryEntry(flight, mss netsim.Bytes) (cwnd, ssthresh netsim.Bytes) {
	ssthresh = LossSsthresh(flight, mss)
	return ssthresh + 3*mss, ssthresh
}

// PartialAckDeflate is the window after a partial ACK in NewReno fast
// recovery (RFC 6582 Sec. 3.2 step 5): deflate by the newly acknowledged
// bytes and, if at least one SMSS was acknowledged, add back one SMSS. The
// result is kept at or above one SMSS.
func PartialAckDeflate(cwnd, acked, mss netsim.Bytes) netsim.Bytes {
	cwnd -= acked
	if acked >= mss {
		cwnd += mss
	}
	if cwnd < mss {
		cwnd = mss
	}
	return cwnd
}

// FullAckWindow is the window on leaving NewReno fast recovery with a full
// ACK (RFC 6582 Sec. 3.2 step 3, option 1): min(ssthresh, max(FlightSize,
// SMSS) + SMSS), which avoids a burst when little data is outstanding.
func FullAckWindow(ssthresh, flight, mss netsim.Bytes) netsim.Bytes {
	if flight < mss {
		flight = mss
	}
	w := flight + mss
	if w > ssthresh {
		w = ssthresh
	}
	return w
}

// PRRWindow is the window during a proportional rate reduction (RFC 6937
// Sec. 3, with the slow-start reduction bound), as Linux's
// tcp_cwnd_reduction (net/ipv4/tcp_input.c) runs it in TCP_CA_CWR after a
// DCTCP cut: the sender may have inflight + sndcnt bytes outstanding,
// where, with prrDelivered bytes reported received and prrOut bytes sent
// since the reduction began from a window of prior bytes,
//
//	inflight > ssthresh:  sndcnt = ceil(prrDelivered * ssthresh / prior) - prrOut
//	otherwise:            sndcnt = min(ssthresh - inflight, max(prrDelivered - prrOut, delivered) + SMSS)
//
// so the window falls to ssthresh over one round trip, sending
// ssthresh/prior of what is delivered, instead of stopping until the
// flight drains below the cut window. Until the first segment of the
// reduction has left, sndcnt is at least one SMSS (Linux's "force a fast
// retransmit"). delivered is what this ACK reported; inflight is the
// outstanding bytes after it.
//
// ns-3.37's TcpPrrRecovery (src/internet/model/tcp-prr-recovery.cc) departs
// from this in three ways in CA_CWR: the entry ACK's bytes count twice
// (tcp-socket-base.cc runs DoRecovery from EnterCwr, line 1640, and again
// from ProcessAck, line 2115); the proportion is scaled by the bytes
// unacknowledged after the entry ACK (line 81) rather than the window
// before the cut; and below ssthresh it allows only delivered (line 113),
// the SMSS bonus needing retransmitted data acknowledged. Together they
// send more early in the reduction; scripts/ns3/compare-r1.sh measures
// what that does to R1.
func PRRWindow(ssthresh, prior, prrDelivered, prrOut, delivered, inflight, mss netsim.Bytes) netsim.Bytes {
	if prior <= 0 {
		prior = 1
	}
	var sndcnt netsim.Bytes
	if inflight > ssthresh {
		sndcnt = netsim.Bytes((int64(prrDelivered)*int64(ssthresh)+int64(prior)-1)/int64(prior)) - prrOut
	} else {
		sndcnt = min(ssthresh-inflight, max(prrDelivered-prrOut, delivered)+mss)
	}
	if prrOut == 0 {
		sndcnt = max(sndcnt, mss)
	}
	sndcnt = max(sndcnt, 0)
	return inflight + sndcnt
}
