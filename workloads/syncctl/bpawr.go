package syncctl

import (
	"fmt"
	"math"
)

var inf = math.Inf(1)

// Training is a worker still computing, as BPAWR sees it (an element of
// the set S of Alg. 2): its ID, estimated bandwidth and the time Elapsed
// (seconds) since it started its current round of computation.
type Training struct {
	ID      int
	BW      float64
	Elapsed float64
}

// Candidate is an element (w_i, b_i, p_i) of the list C built by
// PredictWorkers: a computing worker and the probability that it becomes
// ready within the next slot.
type Candidate struct {
	ID   int
	BW   float64
	Prob float64
}

// Predictor returns the probability that worker w, which has been
// computing for elapsed seconds, becomes ready within the next dt seconds.
type Predictor func(w int, elapsed, dt float64) float64

// Eq4 is the predictor the paper uses (Eq. 4): P(T <= t+dt | T > t) is
// taken to equal F(t+dt), the unconditional CDF at t+dt. cdf(w) returns the
// CDF the controller believes worker w follows.
func Eq4(cdf func(w int) func(float64) float64) Predictor {
	return func(w int, elapsed, dt float64) float64 { return cdf(w)(elapsed + dt) }
}

// Conditional is the exact conditional probability
// (F(t+dt) - F(t)) / (1 - F(t)), offered as an alternative to Eq. 4 (which
// drops the conditioning). When F(t) = 1 the worker is overdue and is
// predicted to finish (probability 1).
func Conditional(cdf func(w int) func(float64) float64) Predictor {
	return func(w int, elapsed, dt float64) float64 {
		f := cdf(w)
		a := f(elapsed)
		if a >= 1 {
			return 1
		}
		return (f(elapsed+dt) - a) / (1 - a)
	}
}

// PredictWorkers is Alg. 2, lines 22-31: every computing worker whose
// bandwidth is strictly larger than b gets the probability of being ready
// within dt. The result keeps S's order.
func PredictWorkers(s []Training, dt, b float64, pred Predictor) []Candidate {
	c := make([]Candidate, 0, len(s))
	for _, w := range s {
		if w.BW > b {
			c = append(c, Candidate{ID: w.ID, BW: w.BW, Prob: pred(w.ID, w.Elapsed, dt)})
		}
	}
	return c
}

// CalcExpectedNewWorkerNum is Alg. 2, lines 32-34: the expected number of
// candidates ready within the slot, sum of p_i.
func CalcExpectedNewWorkerNum(c []Candidate) float64 {
	s := 0.0
	for _, x := range c {
		s += x.Prob
	}
	return s
}

// CalcExpectedBW is Alg. 2, lines 35-37: the probability-weighted average
// bandwidth of the candidates, sum p_i b_i / sum p_i (the text: "the
// weighted average bandwidth of workers in C"). It is 0 when no candidate
// has a positive probability.
func CalcExpectedBW(c []Candidate) float64 {
	num, den := 0.0, 0.0
	for _, x := range c {
		num += x.Prob * x.BW
		den += x.Prob
	}
	if den <= 0 {
		return 0
	}
	return num / den
}

// Decision is what BPAWR decides for a group.
type Decision int

const (
	// Hold: the group has fewer than p workers and must wait for more
	// (Alg. 2, lines 2-3).
	Hold Decision = iota
	// WaitReplace: waiting for the expected arrivals and replacing the
	// slow workers g_delta saves more than theta*dt (lines 16-17).
	WaitReplace
	// Launch: no waiting or replacement is worth it; synchronise now
	// (line 19).
	Launch
)

// String names the decision.
func (d Decision) String() string {
	switch d {
	case Hold:
		return "hold"
	case WaitReplace:
		return "wait-replace"
	}
	return "launch"
}

// KRounding is how Alg. 2, line 8 turns the expected number of ready
// workers, sum p_i, into a whole number k of virtual workers: the printed
// |.| is read as floor, or as rounding to the nearest integer.
type KRounding int

const (
	// KFloor inserts floor(sum p_i) virtual workers.
	KFloor KRounding = iota
	// KRound inserts round(sum p_i) virtual workers (halves up).
	KRound
)

// KRoundingNames are the parameter names of the two readings, in order.
var KRoundingNames = []string{"floor", "round"}

// String is "floor" or "round".
func (k KRounding) String() string { return KRoundingNames[k&1] }

// ParseKRounding reads "floor" or "round".
func ParseKRounding(s string) (KRounding, error) {
	switch s {
	case "floor":
		return KFloor, nil
	case "round":
		return KRound, nil
	}
	return 0, fmt.Errorf("unknown k rounding %q (known: floor, round)", s)
}

// Of turns the expected count x >= 0 into k; a tolerance of 1e-9 absorbs
// the rounding of a sum of probabilities (three workers at 1/3 give 1).
func (k KRounding) Of(x float64) int {
	if k == KRound {
		return int(math.Floor(x + 0.5 + 1e-9))
	}
	return int(math.Floor(x + 1e-9))
}

// BPAWRParams are the tunables of Alg. 2.
type BPAWRParams struct {
	P          int     // minimum group size
	Eta        float64 // BAG relaxation
	Theta      float64 // waiting threshold factor
	Dt         float64 // waiting slot, seconds
	ModelBytes float64 // v
	// Seed is the reading of Alg. 1, line 6 used for g* (line 12).
	Seed BAGSeed
	// KRound is the reading of line 8.
	KRound KRounding
}

// BPAWRResult is BPAWR's answer for one group.
type BPAWRResult struct {
	Decision Decision
	// Delta are the workers of g not in g* (line 14), returned only with
	// WaitReplace (the printed algorithm returns the empty set otherwise).
	Delta []Member
	// K is the number of virtual workers inserted, floor(sum p_i) or
	// round(sum p_i) (line 8; the printed |.| around a non-negative sum is
	// read as the number of whole workers to insert, see KRounding), and
	// VirtualBW their bandwidth.
	K         int
	VirtualBW float64
	// TX is the time saved by the replacement (line 15), seconds.
	TX float64
}

// BPAWR is Alg. 2, bandwidth- and progress-aware waiting and replacement.
// s is the set S of computing workers that may still be waited for; the
// candidates it examines are removed from s (line 7) and the shrunk set is
// returned for the next group. g is a group produced by BAG.
//
// The printed pseudocode returns False both for "too small, wait" (line 3)
// and for "no waiting worth it" (line 19), while Alg. 3 launches a group
// when the flag is True; read literally no group would ever launch without
// a replacement. The text (Sec. III-D) is unambiguous about the intent
// ("if the saved time is larger than theta times ... BPAWR would decide to
// wait and replace; otherwise, no waiting and replacement"), so we return
// three outcomes: Hold (line 3), WaitReplace (line 17) and Launch (line 19),
// and SelectiveReduce launches exactly the Launch groups.
//
// t_X uses the approximation printed on line 15,
// 2v/min_{g} b - 2v/min_{g*} b (the alpha term is dropped).
func BPAWR(s []Training, g []Member, prm BPAWRParams, pred Predictor) (BPAWRResult, []Training) {
	if len(g) < prm.P {
		return BPAWRResult{Decision: Hold}, s
	}
	bhat := minBW(g)
	c := PredictWorkers(s, prm.Dt, bhat, pred)
	if len(c) > 0 {
		// line 7: S <- S \ C (C keeps S's order, so one merge pass).
		out := s[:0]
		j := 0
		for _, w := range s {
			if j < len(c) && c[j].ID == w.ID {
				j++
				continue
			}
			out = append(out, w)
		}
		s = out
	}
	k := prm.KRound.Of(CalcExpectedNewWorkerNum(c))
	vb := CalcExpectedBW(c)
	l := make([]Member, len(g), len(g)+k)
	copy(l, g)
	for range k {
		l = append(l, Member{ID: Virtual, BW: vb})
	}
	// G <- BAG(L); g* <- G[0] (lines 12-13): only the first group is
	// needed, the sorted prefix of L.
	sortByBW(l)
	m := bagGroupEnd(l, 0, prm.Seed.size(prm.P), prm.Eta)
	gstar := l[:m]
	// g_delta = g \ g* (line 14): the real workers after the prefix, in
	// bandwidth order.
	var delta []Member
	for _, w := range l[m:] {
		if w.ID != Virtual {
			delta = append(delta, w)
		}
	}
	bits := 8 * prm.ModelBytes
	tx := 2*bits/bhat - 2*bits/minBW(gstar)
	res := BPAWRResult{K: k, VirtualBW: vb, TX: tx}
	if tx > prm.Theta*prm.Dt {
		res.Decision = WaitReplace
		res.Delta = delta
		return res, s
	}
	res.Decision = Launch
	return res, s
}
