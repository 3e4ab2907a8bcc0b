package inagg

import (
	"math"

	"syncsim/netsim"
)

// ATPIncreaseBytes is the additive increase of ATP's window per window of
// results without ECN: one 1500 B MTU, as the public ATP client adds to its
// byte window (in-ATP/ATP, common/CC_manager.h). With 310 B packets that is
// about five packets per round trip.
const ATPIncreaseBytes = 1500

// atpIncrease is ATPIncreaseBytes in packets of pkt bytes: the additive
// increase per round trip of ATP and of the asynchronous protocols built on
// its stack (StrawAsyn, PA-ATP).
func atpIncrease(pkt netsim.Bytes) float64 { return float64(ATPIncreaseBytes) / float64(pkt) }

// atpCtl is ATP's worker window (Lao et al., NSDI 2021), as the public ATP
// client runs it: the aggregated results are the ACKs, so every worker of a
// job slides its window on the same results (synchronous congestion
// control), and the window is adjusted once per window of results, on the
// first result at or past the window's end (the client's
// finish_window_seq): halved when that result echoes ECN (the switch ORs
// the CE bits of the gradients it aggregates into the result, and the PS
// echoes them), grown by ATPIncreaseBytes otherwise. The window is kept in
// bytes, rounded down to whole packets after every change, at least one,
// at most MaxCWD (the
// client caps it at 100 packets per thread and runs several threads). As in
// the client, losses and timeouts are repaired by resends and leave the
// window alone; ECN is the congestion signal.
type atpCtl struct {
	bytes    float64 // window in bytes
	pkt      float64 // bytes per packet
	maxBytes float64
	wnd      int64 // window in whole packets
	winEnd   int64 // the result at or past this sequence closes the window
	cuts     uint64
}

func newATPCtl(p Params, maxCWD float64, pkt netsim.Bytes) *atpCtl {
	c := &atpCtl{pkt: float64(pkt), maxBytes: maxCWD * float64(pkt)}
	c.bytes = math.Min(p.InitCWD, maxCWD) * c.pkt
	c.wnd = c.packets()
	c.winEnd = c.wnd - 1
	return c
}

// packets is the window in whole packets, at least one.
func (c *atpCtl) packets() int64 { return max(1, int64(c.bytes/c.pkt)) }

// cwnd is the window in packets.
func (c *atpCtl) cwnd() float64 { return float64(c.wnd) }

func (c *atpCtl) allow(w *worker, seq int64) bool { return seq <= w.lastAACK+c.wnd }

func (c *atpCtl) sent(*worker, int64, bool) {}

func (c *atpCtl) onGACK(*worker, *netsim.Packet) {}

func (c *atpCtl) onResult(_ *worker, seq int64, p *netsim.Packet) {
	if seq < c.winEnd {
		return
	}
	if p.Flags&netsim.FlagECE != 0 {
		c.bytes /= 2
		c.cuts++
	} else {
		c.bytes += ATPIncreaseBytes
	}
	c.bytes = math.Max(c.pkt, math.Min(c.bytes, c.maxBytes))
	c.wnd = c.packets()
	c.bytes = float64(c.wnd) * c.pkt // the client keeps whole packets
	c.winEnd = seq + c.wnd
}

func (c *atpCtl) onLoss(*worker) {}

func (c *atpCtl) onTimeout(*worker) {}
