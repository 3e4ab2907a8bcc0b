package inagg

import (
	"fmt"
	"math"
)

// The steady-state model of PA-ATP's asynchronous degree control
// (Sec. III-C, Eq. 3-12). Quantities are in packets and RTT rounds: M
// aggregators, BDP packets, N straggling jobs whose AWD sawtooth is in
// phase, and the aggregation throughput C_A in packets per RTT.

// WindowSum is Eq. 3: R(t) = N AWD(t).
func WindowSum(n int, awd float64) float64 { return float64(n) * awd }

// AWDStar is the per-job window at which the system starts to be
// overloaded: AWD* = eta (M + BDP) / N (Sec. III-C).
func AWDStar(eta, m, bdp float64, n int) float64 { return eta * (m + bdp) / float64(n) }

// BetaApprox is the steady-state AECN level beta ~ sqrt(2 / AWD*), by the
// DCTCP analysis (Alizadeh et al. 2010) the paper cites.
func BetaApprox(awdStar float64) float64 { return math.Sqrt(2 / awdStar) }

// JobAmplitude is Eq. 4: S = (AWD* + 1) - (AWD* + 1)(1 - beta/2), the
// window amplitude of one job.
func JobAmplitude(awdStar, beta float64) float64 {
	return (awdStar + 1) - (awdStar+1)*(1-beta/2)
}

// Amplitude is Eq. 5 in its closed form: A = N S ~ 1/2 sqrt(2 N eta (M+BDP)).
func Amplitude(n int, eta, m, bdp float64) float64 {
	return 0.5 * math.Sqrt(2*float64(n)*eta*(m+bdp))
}

// Period is Eq. 6: the oscillation period T = S in RTT rounds, since each
// AWD grows by one per round: T = A / N = 1/2 sqrt(2 eta (M+BDP) / N).
// (The paper prints the radicand as 2 N eta (M+BDP) / N; only A/N is
// consistent with Eq. 5 and with the closed form of Eq. 12, which
// ModelAnalysis checks.)
func Period(n int, eta, m, bdp float64) float64 {
	return Amplitude(n, eta, m, bdp) / float64(n)
}

// RMax is Eq. 7: R_max = N (AWD* + 1) = eta (M + BDP) + N.
func RMax(eta, m, bdp float64, n int) float64 { return eta*(m+bdp) + float64(n) }

// OverflowFree reports Eq. 8: R_max < M + BDP - C_A, the condition under
// which overflowed packets do not block aggregation traffic.
func OverflowFree(rmax, m, bdp, ca float64) bool { return rmax < m+bdp-ca }

// EtaUpperBound is Eq. 9: eta < 1 - (C_A + N) / (M + BDP).
func EtaUpperBound(ca float64, n int, m, bdp float64) float64 {
	return 1 - (ca+float64(n))/(m+bdp)
}

// RMin is Eq. 10: R_min = R_max - A = R_max - 1/2 sqrt(2 N (R_max - N)).
func RMin(rmax float64, n int) float64 {
	return rmax - 0.5*math.Sqrt(2*float64(n)*(rmax-float64(n)))
}

// ThroughputPA is PA-ATP's mean throughput over a sawtooth period, in
// packets per RTT: Eq. 11 when R_min >= M, Eq. 12 otherwise.
func ThroughputPA(rmax, m, ca float64, n int) float64 {
	root := math.Sqrt(2 * float64(n) * (rmax - float64(n)))
	if RMin(rmax, n) >= m {
		return rmax - 0.25*root - m + ca // Eq. 11
	}
	if rmax <= m {
		return ca // the windows never reach past the aggregators: no spare traffic
	}
	return (rmax-m)*(rmax-m)/root + ca // Eq. 12
}

// ThroughputATP is ATP's throughput under synchronous congestion control:
// Thr_atp = C_A (Sec. III-C).
func ThroughputATP(ca float64) float64 { return ca }

// ModelInput are the parameters of the Sec. III-C analysis.
type ModelInput struct {
	M   float64 // aggregators
	BDP float64 // bandwidth-delay product, packets
	CA  float64 // aggregation throughput C_A, packets per RTT
	N   int     // straggling jobs
	// Eta is the AECN threshold; 0 sets it to its upper bound (Eq. 9), as
	// the paper does to maximise throughput, so that R_max = M + BDP - C_A.
	Eta float64
}

// ModelPoint is the analysis at one ModelInput.
type ModelPoint struct {
	Eta      float64 // threshold used
	EtaBound float64 // Eq. 9 upper bound
	AWDStar  float64 // eta (M+BDP)/N
	Beta     float64 // sqrt(2/AWD*)
	S        float64 // Eq. 4 per-job amplitude
	A        float64 // Eq. 5 total amplitude
	T        float64 // Eq. 6 period, RTT rounds
	RMax     float64 // Eq. 7
	RMin     float64 // Eq. 10
	ThrPA    float64 // Eq. 11/12, packets per RTT
	ThrATP   float64 // C_A
	Gain     float64 // ThrPA / ThrATP
	Eq12Mode bool    // R_min < M (Eq. 12 applies)
	Overflow bool    // Eq. 8 violated: R_max >= M + BDP - C_A
}

// ModelAnalysis evaluates Eq. 3-12 at in.
func ModelAnalysis(in ModelInput) (ModelPoint, error) {
	switch {
	case !(in.M > 0) || !(in.BDP >= 0) || in.N < 1:
		return ModelPoint{}, fmt.Errorf("model: need M > 0, BDP >= 0 and N >= 1 (got M=%v BDP=%v N=%d)", in.M, in.BDP, in.N)
	case !(in.CA > 0):
		return ModelPoint{}, fmt.Errorf("model: aggregation throughput C_A must be positive, got %v", in.CA)
	case in.Eta < 0 || in.Eta >= 1:
		return ModelPoint{}, fmt.Errorf("model: eta must be in [0, 1), got %v", in.Eta)
	}
	var p ModelPoint
	p.EtaBound = EtaUpperBound(in.CA, in.N, in.M, in.BDP)
	p.Eta = in.Eta
	if p.Eta == 0 {
		p.Eta = p.EtaBound
	}
	if !(p.Eta > 0) {
		return ModelPoint{}, fmt.Errorf("model: no feasible eta (Eq. 9 bound %v <= 0)", p.EtaBound)
	}
	p.AWDStar = AWDStar(p.Eta, in.M, in.BDP, in.N)
	p.Beta = BetaApprox(p.AWDStar)
	p.S = JobAmplitude(p.AWDStar, p.Beta)
	p.A = Amplitude(in.N, p.Eta, in.M, in.BDP)
	p.T = Period(in.N, p.Eta, in.M, in.BDP)
	p.RMax = RMax(p.Eta, in.M, in.BDP, in.N)
	p.RMin = RMin(p.RMax, in.N)
	p.Eq12Mode = p.RMin < in.M
	p.ThrPA = ThroughputPA(p.RMax, in.M, in.CA, in.N)
	p.ThrATP = ThroughputATP(in.CA)
	p.Gain = p.ThrPA / p.ThrATP
	p.Overflow = !OverflowFree(p.RMax, in.M, in.BDP, in.CA)
	return p, nil
}
