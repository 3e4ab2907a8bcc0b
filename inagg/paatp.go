package inagg

import "syncsim/netsim"

// newPAATPCtl is PA-ATP's worker (Sec. III-B): dual sliding windows (CWD on
// GACKs, AWD on AACKs; snd_next below the smaller right edge), progress
// degree p = p_l / p_avg from last_GACK, last_AACK and the s_sum the switch
// carries in GACKs, window decreasing factor d = alpha^(1 - p/p_max) with
// p_max = AWD / p_avg (Eq. 1), and AWD driven by AECN (Eq. 2). Weights f
// and w default to 0.125 (Sec. V-A). Fast retransmission on AACK gaps and
// retransmissions to the PS are done by the worker for every hashed
// protocol. awd is the job's shared AWD (AWDJob) or nil.
func newPAATPCtl(p Params, maxCWD float64, pkt netsim.Bytes, awd *awdCtl, initAWD float64) *asyncCtl {
	return newAsyncCtl(p, maxCWD, p.F, atpIncrease(pkt), p.CWDIncrease == PerAck, true, true, awd, initAWD)
}
