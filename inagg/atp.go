package inagg

import (
	"math"

	"syncsim/netsim"
)

// atpCtl is ATP's worker window (Lao et al., NSDI 2021, as PA-ATP Sec. II-A
// describes it): the aggregated results are the ACKs, so every worker of a
// job slides and grows its window on the same results (synchronous
// congestion control). The window grows by one per result in slow start and
// by one per round trip afterwards, and is halved at most once per round
// trip when a result echoes ECN (the switch ORs the CE bits of the
// gradients it aggregates and the PS echoes them) or a loss is detected.
// (The public ATP client halves on every echoed mark, adds 1500 B per
// unmarked result and caps the window at 100 packets, a setting tuned to
// its testbed; here the cap is MaxCWD and growth follows TCP, so that the
// baseline can fill 100 Gbps paths.)
type atpCtl struct {
	cwnd, ssthresh float64
	cutEnd         int64
	maxw           float64
}

func newATPCtl(p Params, maxCWD float64) *atpCtl {
	return &atpCtl{cwnd: math.Min(p.InitCWD, maxCWD), ssthresh: math.Inf(1), maxw: maxCWD}
}

func (c *atpCtl) allow(w *worker, seq int64) bool { return seq <= w.lastAACK+int64(c.cwnd) }

func (c *atpCtl) sent(*worker, int64, bool) {}

func (c *atpCtl) onGACK(*worker, *netsim.Packet) {}

func (c *atpCtl) onResult(w *worker, _ int64, p *netsim.Packet) {
	if p.Flags&netsim.FlagECE != 0 {
		c.cut(w)
		return
	}
	if c.cwnd < c.ssthresh {
		c.cwnd++
	} else {
		c.cwnd += 1 / c.cwnd
	}
	c.cwnd = math.Min(c.cwnd, c.maxw)
}

func (c *atpCtl) cut(w *worker) {
	if w.lastAACK < c.cutEnd {
		return // once per round trip
	}
	c.cwnd = math.Max(1, c.cwnd/2)
	c.ssthresh = c.cwnd
	c.cutEnd = w.sndNext
}

func (c *atpCtl) onLoss(w *worker) { c.cut(w) }

func (c *atpCtl) onTimeout(*worker) {
	c.ssthresh = math.Max(2, c.cwnd/2)
	c.cwnd = 1
}
