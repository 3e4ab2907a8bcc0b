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
// asynchrony limit, the window AWD (awdCtl) also bounds sending: snd_next
// may not pass last_AACK + AWD (Sec. III-B1, Fig. 5).
type asyncCtl struct {
	// configuration
	g        float64 // alpha weight (f, or DCTCP's g for BytePS)
	perAck   bool    // +1 per GACK (Sec. III-B2) instead of slow start + ai per RTT
	progress bool    // progress-aware cuts
	limit    bool    // asynchrony limit (AWD)
	leader   bool    // StrawAsyn+PC: p_max from the leading worker (PMaxLeader)
	maxc     float64 // CWD cap
	ai       float64 // additive increase per round trip, packets (PerRTT)
	lossCut  bool    // TCP's loss response (Params.LossCut; always for BytePS)

	// congestion window
	cwd, ssthresh float64
	alpha         float64
	acked, marked int
	alphaEnd      int64
	cutEnd        int64
	ssum, smax    int64 // last progress registers heard from the switch
	lastD         float64
	cuts          uint64

	// awd is the asynchronous degree window: the job's, shared by its
	// workers (AWDJob), or the worker's own (AWDWorker).
	awd *awdCtl
	// log, when set, takes the inputs of the job's shared awd instead of
	// awd itself, to be folded at the next barrier of a partitioned run
	// (partitioned.go); awd then changes only there.
	log *[]awdInput
}

// awdCtl is PA-ATP's asynchronous degree control (Sec. III-B3): AWD grows
// by one per round of AACKs without AECN and is cut by Eq. 2 on AECN; beta
// is the EWMA (weight w) of the fraction of AECN-marked AACKs per round.
// Its rounds are round-trip times (the smoothed RTT of GACKs): AWD is cut
// at most once per RTT when an AACK carries AECN, and grows by one for
// every RTT that passes without AECN; beta is updated once per round.
// (Rounds counted in AACKs would last AWD results, which for a straggling
// job is far longer than an RTT.)
//
// Sec. III-B3 says "each job maintains the asynchronous degree window AWD"
// (and Sec. III-A: "each job maintains an asynchronous degree window AWD
// to limit the maximum difference between the progress of leading worker
// and straggling worker"), while Fig. 5 draws AWD in each worker's window
// structure. The AACKs are what drive AWD, and the switch multicasts every
// AACK, with its AECN bit, to all the job's workers, so each worker can
// hold the same AWD by running the same rule on the same stream. With
// AWDJob (the default) the job's workers share one awdCtl: every AACK any
// of them receives counts towards the job's round (each sequence's AACK
// reaches every worker, so the marked fraction is the fraction of marked
// sequences), the first worker to see an AECN mark in a round cuts the
// job's AWD, and the RTT of the rounds is smoothed over all the workers'
// GACKs. With AWDWorker each worker keeps its own copy, whose rounds start
// at its own AACKs and run on its own RTT, so the copies drift apart by a
// few packets (the earlier model).
type awdCtl struct {
	wgt, maxw     float64 // beta weight w, AWD cap
	elapsed       bool    // +1 per RTT elapsed in a round (Params.AWDRoundsElapsed)
	perWindow     bool    // Eq. 2 at most once per window of AACKs (Params.AWDCutPerWindow), not once per RTT
	awd, beta     float64
	round         netsim.Time // start of the current round (-1: before the first AACK)
	cutAt         netsim.Time // time of the last cut (-1: none)
	cutEnd        int64       // the highest sequence sent at the last cut (-1: none)
	srtt          netsim.Time // smoothed GACK round-trip time (RFC 6298 gain 1/8)
	results, aecn int         // AACKs and AECN-marked AACKs in the round
	cuts          uint64
	increments    uint64
	peakSum       float64 // sum of AWD just before each cut
	dropSum       float64 // sum of AWD reductions at cuts
}

func newAWDCtl(p Params, initAWD float64) *awdCtl {
	a := &awdCtl{wgt: p.W, maxw: float64(p.MaxWindow), beta: p.InitBeta, round: -1, cutAt: -1, cutEnd: -1,
		elapsed: p.AWDRoundsElapsed, perWindow: p.AWDCutPerWindow}
	a.set(initAWD)
	if p.InitBeta == InitBetaSteady {
		a.beta = BetaApprox(a.awd)
	}
	return a
}

// start sets the initial AWD, and beta at its steady state for it unless
// Params.InitBeta fixes beta.
func (a *awdCtl) start(awd float64, p Params) {
	a.set(awd)
	if p.InitBeta == InitBetaSteady {
		a.beta = math.Min(1, BetaApprox(a.awd))
	}
}

// set sets AWD to v, within [1, the cap].
func (a *awdCtl) set(v float64) { a.awd = math.Min(math.Max(1, v), a.maxw) }

// sample feeds one GACK round-trip time into the smoothed RTT.
func (a *awdCtl) sample(r netsim.Time) {
	if a.srtt == 0 {
		a.srtt = r
	} else {
		a.srtt += (r - a.srtt) / 8
	}
}

// onAACK runs Sec. III-B3 on one AACK, for sequence seq, received at
// time now, marked with AECN or not, hi being the highest sequence the job
// has sent as far as the receiving worker knows: Eq. 2 on a mark at most
// once per window (see cutAllowed), and at the end of every round (the
// first AACK at least one RTT after the round began) beta's update and,
// without marks in the round, +1 (with elapsed, +1 per RTT elapsed).
// Before the first RTT sample there are no rounds; the first round starts
// at the first AACK after it.
func (a *awdCtl) onAACK(now netsim.Time, aecn bool, seq, hi int64) {
	if a.srtt == 0 {
		return
	}
	if a.round < 0 {
		a.round = now
	}
	a.results++
	if aecn {
		a.aecn++
		if a.cutAllowed(now, seq) {
			prev := a.awd
			a.awd = CutAWD(a.awd, a.beta) // Eq. 2
			a.peakSum += prev
			a.dropSum += prev - a.awd
			a.cutAt = now
			a.cutEnd = max(hi, seq)
			a.cuts++
		}
	}
	if rounds := (now - a.round) / a.srtt; rounds >= 1 {
		a.beta = EWMA(a.beta, a.wgt, float64(a.aecn)/float64(a.results))
		if a.aecn == 0 {
			if !a.elapsed {
				rounds = 1
			}
			a.awd = math.Min(a.awd+float64(rounds), a.maxw)
			a.increments += uint64(rounds)
		}
		a.results, a.aecn = 0, 0
		a.round = now
	}
}

// cutAllowed reports whether an AECN mark on the AACK of sequence seq,
// arriving at now, may cut AWD. By default at most once per smoothed GACK
// round trip (Sec. III-B3: Eq. 2 per "RTT round"). With
// Params.AWDCutPerWindow, once per window of AACKs instead: not until the
// AACK is for a sequence sent after the last cut (beyond the highest
// sequence sent then), as the CWD is cut at most once per window of GACKs
// (Sec. III-B2), as ECN's sender reacts at most once per window of data
// (RFC 3168 Sec. 6.1.2; DCTCP, RFC 8257 Sec. 3.3) and as Sec. III-C's
// sawtooth cuts once a period (Eq. 4). The occupancy falls only as the
// sequences in flight at a cut complete, which for a job whose leaders
// have filled the memory lasts as long as its slowest worker takes to
// catch up, so once per round trip a mark reports the same overload again
// and again: on the full-size ina-leafspine point a lone VGG19 job's AWD
// went from 37,508 to 9.5 in 21 cuts within 0.4 ms and grew back by one a
// round for the rest of the run (docs/ina-reproduction.md, "A full-size
// point"). Once per window keeps AWD up, but at 2 percent of the models
// with 0.5 MiB of memory it let the occupancy stay above the threshold
// ten times as long (41,469 marks against 3,842) and was slower.
func (a *awdCtl) cutAllowed(now netsim.Time, seq int64) bool {
	if a.cutAt < 0 {
		return true
	}
	if !a.perWindow {
		return now-a.cutAt >= a.srtt
	}
	return seq > a.cutEnd
}

// newAsyncCtl builds an asynchronous window. awd is the asynchronous degree
// window to use (the job's, shared), or nil for one of the worker's own
// starting at initAWD.
func newAsyncCtl(p Params, maxCWD, g, ai float64, perAck, progress, limit bool, awd *awdCtl, initAWD float64) *asyncCtl {
	c := &asyncCtl{g: g, perAck: perAck, progress: progress, limit: limit, leader: progress && !limit && p.PCMax == PMaxLeader,
		maxc: maxCWD, ai: ai, cwd: math.Min(p.InitCWD, maxCWD), ssthresh: math.Inf(1), alpha: p.InitAlpha, awd: awd, lossCut: p.LossCut}
	if c.awd == nil {
		c.awd = newAWDCtl(p, initAWD)
	}
	return c
}

func (c *asyncCtl) allow(w *worker, seq int64) bool {
	if seq > w.lastGACK+int64(c.cwd) {
		return false
	}
	return !c.limit || seq <= w.lastAACK+int64(c.awd.awd)
}

func (c *asyncCtl) sent(*worker, int64, bool) {}

// onGACK updates alpha once per round (Sec. III-B2, "ECN feedback") and
// moves CWD: with CE, Eq. 1 at most once per round; without, +1 per GACK
// (Sec. III-B2, "once receiving a GACK packet, the worker will increase
// its window by one"; PerAck) or slow start and then ai per round trip
// (PerRTT). The window stays within the cap (Params.CWDCapBDP).
func (c *asyncCtl) onGACK(w *worker, p *netsim.Packet) {
	ce := p.Flags&netsim.FlagECE != 0
	if p.Kind == KindGACK {
		c.ssum, c.smax = p.Ext[extSSum], p.Ext[extSMax]
		if p.Flags&netsim.FlagRetx == 0 && p.SentAt > 0 {
			now := w.host.Sim().Now()
			if c.log != nil {
				*c.log = append(*c.log, awdInput{at: now, rtt: now - p.SentAt, smp: true})
			} else {
				c.awd.sample(now - p.SentAt)
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
		c.cutOnce(w)
		return
	}
	if c.perAck || c.cwd < c.ssthresh {
		c.cwd++
	} else {
		c.cwd += c.ai / c.cwd
	}
	c.cwd = math.Min(c.cwd, c.maxc)
}

// onPathMark counts a result marked CE on its way back to the worker
// (Params.ResultECN) as a marked echo: it enters alpha's window as a
// marked acknowledgement and cuts CWD by Eq. 1, at most once per window,
// as a marked GACK does. Results are the data of the return path, as
// gradients are of the forward one; without this no window hears of the
// queues the results' multicast copies build.
func (c *asyncCtl) onPathMark(w *worker) {
	c.acked++
	c.marked++
	c.cutOnce(w)
}

// cutOnce cuts CWD by Eq. 1 unless it was cut in the window of data still
// being acknowledged (at most one cut per window, Sec. III-B2).
func (c *asyncCtl) cutOnce(w *worker) {
	if w.lastGACK < c.cutEnd {
		return
	}
	c.lastD = c.decrease(w)
	c.cwd = CutCWD(c.cwd, c.lastD)
	c.ssthresh = c.cwd
	c.cutEnd = w.sndNext
	c.cuts++
}

// decrease is the window decreasing factor d of Sec. III-B2,
// alpha^(1 - p/p_max) with p = p_l / p_avg and p_max = AWD / p_avg, so
// that p/p_max = p_l / AWD. StrawAsyn+PC keeps no asynchrony control, so
// its AWD is the job's initial one (init_awd_pkts, or AWD*) and never
// moves; with PMaxLeader its p_max is instead the most leading worker's
// progress degree, (s_max - last_AACK) / p_avg (the earlier model).
func (c *asyncCtl) decrease(w *worker) float64 {
	if !c.progress {
		return c.alpha
	}
	n := len(w.j.workers)
	pl := LocalProgress(w.lastGACK, w.lastAACK)
	pavg := AverageProgress(c.ssum, n, w.lastAACK)
	p := ProgressDegree(pl, pavg)
	pmax := MaxProgressDegree(c.awd.awd, pavg)
	if c.leader {
		pmax = MaxProgressDegree(float64(c.smax-w.lastAACK), pavg)
	}
	return DecreaseFactor(c.alpha, p, pmax)
}

// onResult runs the asynchronous degree control on an AACK (see awdCtl).
func (c *asyncCtl) onResult(w *worker, _ int64, p *netsim.Packet) {
	if !c.limit {
		return
	}
	hi := max(c.smax, w.sndNext-1)
	if c.log != nil {
		*c.log = append(*c.log, awdInput{at: w.host.Sim().Now(), aecn: p.Flags&netsim.FlagAECN != 0, seq: p.Seq, hi: hi})
		return
	}
	c.awd.onAACK(w.host.Sim().Now(), p.Flags&netsim.FlagAECN != 0, p.Seq, hi)
}

// onLoss halves CWD, at most once per window, on a fast retransmission:
// TCP's loss response, which BytePS (over TCP) always applies and the
// other asynchronous protocols only with Params.LossCut (the public ATP
// client leaves its window alone on a loss).
func (c *asyncCtl) onLoss(w *worker) {
	if !c.lossCut || w.lastGACK < c.cutEnd {
		return
	}
	c.cwd = math.Max(1, c.cwd/2)
	c.ssthresh = c.cwd
	c.cutEnd = w.sndNext
}

// onTimeout sets CWD to one packet and ssthresh to half the window (RFC
// 5681 Sec. 3.1), under the same rule as onLoss.
func (c *asyncCtl) onTimeout(*worker) {
	if !c.lossCut {
		return
	}
	c.ssthresh = math.Max(2, c.cwd/2)
	c.cwd = 1
}
