package inagg

import "math"

// EWMA is the DCTCP-style moving average used for PA-ATP's congestion
// level alpha and aggregator occupancy level beta (Sec. III-B2/3):
// x_{i+1} = (1 - g) x_i + g * frac, where frac is the fraction of marked
// acknowledgements in the last round and g the weight (f or w).
func EWMA(x, g, frac float64) float64 { return (1-g)*x + g*frac }

// LocalProgress is PA-ATP's p_l = last_GACK - last_AACK (Sec. III-B2): the
// number of this worker's gradients waiting for aggregation.
func LocalProgress(lastGACK, lastAACK int64) float64 { return float64(lastGACK - lastAACK) }

// AverageProgress is p_avg = s_avg - last_AACK with s_avg = s_sum / N
// (Sec. III-B2): how far the job's workers are, on average, ahead of the
// aggregated results.
func AverageProgress(sSum int64, n int, lastAACK int64) float64 {
	return float64(sSum)/float64(n) - float64(lastAACK)
}

// ProgressDegree is p = p_l / p_avg (Sec. III-B2). It is 0 when p_avg <= 0
// (no worker is ahead of the results, so nobody leads).
func ProgressDegree(pl, pavg float64) float64 {
	if pavg <= 0 {
		return 0
	}
	return pl / pavg
}

// MaxProgressDegree is p_max = AWD / p_avg (Sec. III-B2). It is +Inf when
// p_avg <= 0.
func MaxProgressDegree(awd, pavg float64) float64 {
	if pavg <= 0 {
		return math.Inf(1)
	}
	return awd / pavg
}

// DecreaseFactor is PA-ATP's window decreasing factor
// d = alpha^(1 - p/p_max) (Sec. III-B2). The exponent is clamped to [0, 1]
// (p lies in [0, p_max] by definition): the most straggling worker
// (p = 0) gets DCTCP's d = alpha, the most leading one (p = p_max) d = 1.
func DecreaseFactor(alpha, p, pmax float64) float64 {
	r := 0.0
	if pmax > 0 && !math.IsInf(pmax, 1) {
		r = p / pmax
	}
	r = math.Min(1, math.Max(0, r))
	if r == 1 {
		return 1
	}
	return math.Pow(alpha, 1-r)
}

// CutCWD is Eq. 1: CWD_{i+1} = CWD_i (1 - d_i/2), floored at one packet.
func CutCWD(cwd, d float64) float64 { return math.Max(1, cwd*(1-d/2)) }

// CutAWD is Eq. 2: AWD_{i+1} = AWD_i (1 - beta_i/2), floored at one packet.
func CutAWD(awd, beta float64) float64 { return math.Max(1, awd*(1-beta/2)) }

// AECNThreshold is the aggregator-occupancy level eta (M + BDP) above which
// the switch marks AACKs with AECN (Sec. III-B3). M is the number of
// aggregators and bdp the bandwidth-delay product in packets.
func AECNThreshold(eta float64, m, bdp int) float64 { return eta * float64(m+bdp) }
