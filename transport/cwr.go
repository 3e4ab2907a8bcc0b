package transport

import (
	"fmt"
	"strings"
)

// CWR selects what a DCTCP sender's window does in the congestion window
// reduced state: from an ECN window cut until the data outstanding at the
// cut (Flow.cwrEnd, Linux's high_seq) is acknowledged.
//
// Linux (net/ipv4/tcp_input.c) enters TCP_CA_CWR on an ECE ACK in
// tcp_enter_cwr / tcp_init_cwnd_reduction (high_seq = snd_nxt, ssthresh
// from tcp_dctcp.c's dctcp_ssthresh), never raises cwnd while there
// (tcp_cong_control calls tcp_cong_avoid only outside
// tcp_in_cwnd_reduction), and leaves it in tcp_fastretrans_alert once
// snd_una is above high_seq ("CWR is to be held something *above*
// high_seq"), setting cwnd = ssthresh in tcp_end_cwnd_reduction. ns-3.37
// (src/internet/model/tcp-socket-base.cc) does the same: EnterCwr (line
// 1621) sets ssthresh from TcpDctcp::GetSsThresh and m_recover =
// m_highTxMark, the CA_CWR branch of ProcessAck (line 2108) never calls
// IncreaseWindow, and CWR ends when ackNumber > m_recover (line 1864),
// with cwnd = ssthresh.
type CWR uint8

// CWR modes.
const (
	// CWRGrow keeps slow start and congestion avoidance running between
	// a cut and its acknowledgement, as the DCTCP paper's fluid analysis
	// assumes (Alizadeh et al., SIGCOMM 2010, Sec. 3.3): the window is
	// cut at once, at most once per window of data, and grows on every
	// ACK.
	CWRGrow CWR = iota
	// CWRHold is Linux's and ns-3's CWR: after a DCTCP cut the window
	// does not grow (no slow start, no congestion-avoidance increase)
	// until an ACK passes the data outstanding at the cut, and the ECE
	// ACK that cuts does not grow it either (both stacks enter CWR before
	// their congestion-avoidance step); the next cut waits for the same
	// ACK. The reduction is paced by proportional rate reduction
	// (PRRWindow, RFC 6937) as Linux's tcp_cwnd_reduction paces it: on
	// each ACK the window is the flight plus ssthresh/prior of what was
	// delivered, so the sender keeps sending at the reduced rate instead
	// of stopping until the flight drains; the ACK that ends the
	// reduction sets the window to the cut window (ssthresh). ns-3.37's
	// default TcpPrrRecovery paces it too, with three departures from
	// Linux (see PRRWindow).
	CWRHold
	// CWRCut is CWRHold with the window cut at once: cwnd drops to
	// cwnd * (1 - alpha/2) on the ECE ACK and the sender waits until the
	// flight falls below it, as ns-3.37 does with TcpClassicRecovery
	// (tcp-recovery-ops.cc, EnterRecovery sets cwnd = ssthresh).
	CWRCut
)

var cwrNames = [...]string{CWRGrow: "grow", CWRHold: "hold", CWRCut: "cut"}

// String is the lower-case name used on the command line.
func (c CWR) String() string {
	if int(c) < len(cwrNames) {
		return cwrNames[c]
	}
	return fmt.Sprintf("cwr(%d)", uint8(c))
}

// CWRNames lists the accepted CWR mode names.
func CWRNames() []string { return append([]string(nil), cwrNames[:]...) }

// ParseCWR maps "grow", "hold" or "cut" (case-insensitive) to its CWR mode.
func ParseCWR(name string) (CWR, error) {
	for i, n := range cwrNames {
		if strings.EqualFold(name, n) {
			return CWR(i), nil
		}
	}
	return 0, fmt.Errorf("unknown DCTCP CWR mode %q (allowed: %s)", name, strings.Join(cwrNames[:], ", "))
}
