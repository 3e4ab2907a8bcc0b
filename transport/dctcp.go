package transport

import "syncsim/netsim"

// dctcpEstimator is the DCTCP sender's congestion estimate (Alizadeh et
// al., "Data Center TCP", SIGCOMM 2010, Sec. 3.1): it counts the bytes
// acknowledged, and those acknowledged with ECE, over one window of data
// (from the ACK that closes a window until sndNxt at that moment is
// acknowledged) and then folds the marked fraction into alpha.
type dctcpEstimator struct {
	alpha         float64
	g             float64
	end           int64 // the window closes when this byte is acknowledged
	acked, marked netsim.Bytes
}

// account records bytes reported received by one ACK (newly acknowledged
// bytes, or one segment for a duplicate ACK) and whether it echoed CE.
func (d *dctcpEstimator) account(b netsim.Bytes, ece bool) {
	d.acked += b
	if ece {
		d.marked += b
	}
}

// closeWindow updates alpha with Eq. 1 once the window has been
// acknowledged (ack >= end) and opens the next one, ending at sndNxt.
func (d *dctcpEstimator) closeWindow(ack, sndNxt int64) {
	if ack < d.end {
		return
	}
	d.alpha = DCTCPAlpha(d.alpha, d.g, MarkedFraction(d.marked, d.acked))
	d.acked, d.marked = 0, 0
	d.end = sndNxt
}
