package inagg

import (
	"math"

	"syncsim/netsim"
)

// asyncCtl is the asynchronous worker window shared by BytePS, StrawAsyn,
// its ablations and PA-ATP: the congestion window CWD slides on GACKs
// (cumulative last_GACK; a result implies its GACK) and is cut on ECN
// echoes at most once per round trip by d/2, with d = alpha (DCTCP) or
// PA-ATP's progress-aware d = alpha^(1 - p/p_max) (Eq. 1). With the
// asynchrony limit, the window AWD also bounds sending: snd_next may not
// pass last_AACK + AWD (Sec. III-B1, Fig. 5); AWD grows by one per round
// of AACKs without AECN and is cut by Eq. 2 on AECN.
type asyncCtl struct {
	// configuration
	g        float64 // alpha weight (f, or DCTCP's g for BytePS)
	perAck   bool    // +1 per GACK (PA-ATP's rule) instead of slow start + ai per RTT
	progress bool    // progress-aware cuts
	limit    bool    // asynchrony limit (AWD)
	wgt      float64 // beta weight w
	maxw     float64 // AWD cap
	maxc     float64 // CWD cap
	ai       float64 // additive increase per round trip, packets

	// congestion window
	cwd, ssthresh float64
	alpha         float64
	acked, marked int
	alphaEnd      int64
	cutEnd        int64
	ssum, smax    int64 // last progress registers heard from the switch
	lastD         float64
	awd, beta     float64
	awdRound      netsim.Time // start of the current AWD round
	awdCutAt      netsim.Time // time of the last AWD cut
	srtt          netsim.Time // smoothed GACK round-trip time (RFC 6298 gain 1/8)
	roundResults  int
	roundAECN     int
	cuts, awdCuts uint64
	awdIncrements uint64
	awdPeakSum    float64 // sum of AWD just before each cut
	awdDropSum    float64 // sum of AWD reductions at cuts
}

func newAsyncCtl(p Params, maxCWD, g, ai float64, perAck, progress, limit bool, initAWD float64) *asyncCtl {
	c := &asyncCtl{g: g, perAck: perAck, progress: progress, limit: limit, wgt: p.W, maxw: float64(p.MaxWindow),
		maxc: maxCWD, ai: ai, cwd: math.Min(p.InitCWD, maxCWD), ssthresh: math.Inf(1), alpha: p.InitAlpha, beta: p.InitBeta}
	c.awd = math.Min(math.Max(1, initAWD), c.maxw)
	return c
}

func (c *asyncCtl) allow(w *worker, seq int64) bool {
	if seq > w.lastGACK+int64(c.cwd) {
		return false
	}
	return !c.limit || seq <= w.lastAACK+int64(c.awd)
}

func (c *asyncCtl) sent(*worker, int64, bool) {}

// onGACK updates alpha once per round (Sec. III-B2, "ECN feedback") and
// moves CWD: +1 (or +1/CWD) without CE, Eq. 1 with it.
func (c *asyncCtl) onGACK(w *worker, p *netsim.Packet) {
	ce := p.Flags&netsim.FlagECE != 0
	if p.Kind == KindGACK {
		c.ssum, c.smax = p.Ext[extSSum], p.Ext[extSMax]
		if p.Flags&netsim.FlagRetx == 0 && p.SentAt > 0 {
			r := w.j.net.Sim.Now() - p.SentAt
			if c.srtt == 0 {
				c.srtt = r
			} else {
				c.srtt += (r - c.srtt) / 8
			}
		}
	}
	c.acked++
	if ce {
		c.marked++
	}
	if w.lastGACK >= c.alphaEnd {
		c.alpha = EWMA(c.alpha, c.g, float64(c.marked)/float64(c.acked))
		c.acked, c.marked = 0, 0
		c.alphaEnd = w.sndNext
	}
	if ce {
		if w.lastGACK >= c.cutEnd {
			c.lastD = c.decrease(w)
			c.cwd = CutCWD(c.cwd, c.lastD)
			c.ssthresh = c.cwd
			c.cutEnd = w.sndNext
			c.cuts++
		}
		return
	}
	if c.perAck || c.cwd < c.ssthresh {
		c.cwd++
	} else {
		c.cwd += c.ai / c.cwd
	}
	c.cwd = math.Min(c.cwd, c.maxc)
}

// decrease is the window decreasing factor d of Sec. III-B2.
func (c *asyncCtl) decrease(w *worker) float64 {
	if !c.progress {
		return c.alpha
	}
	n := len(w.j.workers)
	pl := LocalProgress(w.lastGACK, w.lastAACK)
	pavg := AverageProgress(c.ssum, n, w.lastAACK)
	p := ProgressDegree(pl, pavg)
	var pmax float64
	if c.limit {
		pmax = MaxProgressDegree(c.awd, pavg) // PA-ATP: p_max = AWD / p_avg
	} else {
		// StrawAsyn+PC has no AWD: the most leading worker's progress
		// (s_max - last_AACK) stands in for it.
		pmax = MaxProgressDegree(float64(c.smax-w.lastAACK), pavg)
	}
	return DecreaseFactor(c.alpha, p, pmax)
}

// onResult runs the asynchronous degree control (Sec. III-B3). Its rounds
// are round-trip times (the smoothed RTT of GACKs): AWD is cut by Eq. 2 at
// most once per RTT when an AACK carries AECN, and grows by one for every
// RTT that passes without AECN; beta is updated once per round with the
// fraction of AECN-marked AACKs. (Rounds counted in AACKs would last AWD
// results, which for a straggling job is far longer than an RTT.)
func (c *asyncCtl) onResult(w *worker, _ int64, p *netsim.Packet) {
	if !c.limit || c.srtt == 0 {
		return
	}
	now := w.j.net.Sim.Now()
	aecn := p.Flags&netsim.FlagAECN != 0
	c.roundResults++
	if aecn {
		c.roundAECN++
		if now-c.awdCutAt >= c.srtt {
			prev := c.awd
			c.awd = CutAWD(c.awd, c.beta) // Eq. 2
			c.awdPeakSum += prev
			c.awdDropSum += prev - c.awd
			c.awdCutAt = now
			c.awdCuts++
		}
	}
	if rounds := (now - c.awdRound) / c.srtt; rounds >= 1 {
		c.beta = EWMA(c.beta, c.wgt, float64(c.roundAECN)/float64(c.roundResults))
		if c.roundAECN == 0 {
			c.awd = math.Min(c.awd+float64(rounds), c.maxw)
			c.awdIncrements += uint64(rounds)
		}
		c.roundResults, c.roundAECN = 0, 0
		c.awdRound = now
	}
}

func (c *asyncCtl) onLoss(w *worker) {
	if w.lastGACK < c.cutEnd {
		return
	}
	c.cwd = math.Max(1, c.cwd/2)
	c.ssthresh = c.cwd
	c.cutEnd = w.sndNext
}

func (c *asyncCtl) onTimeout(*worker) {
	c.ssthresh = math.Max(2, c.cwd/2)
	c.cwd = 1
}
