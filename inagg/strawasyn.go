package inagg

import "syncsim/netsim"

// newStrawAsynCtl is the strawman asynchronous protocol of PA-ATP
// Sec. II-B3 and its Fig. 15 ablations: the switch answers every gradient
// with a GACK and each worker slides its own window on them, with
// DCTCP-style cuts (d = alpha, weight f), no progress awareness (unless pc)
// and no asynchrony limit (unless al: PA-ATP's AWD with AECN). awd is the
// job's shared AWD (AWDJob) or nil.
func newStrawAsynCtl(p Params, maxCWD float64, pkt netsim.Bytes, pc, al bool, awd *awdCtl, initAWD float64) *asyncCtl {
	return newAsyncCtl(p, maxCWD, p.F, atpIncrease(pkt), p.CWDIncrease == PerAck, pc, al, awd, initAWD)
}
