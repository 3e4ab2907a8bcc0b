package network

import "math"

// DCTCPSteadyState is the fluid sawtooth of N synchronised long-lived DCTCP
// flows on one bottleneck (Alizadeh et al., "Data Center TCP", SIGCOMM
// 2010, Sec. 3.3, and Alizadeh, Javanmard and Prabhakar, "Analysis of
// DCTCP", SIGMETRICS 2011). Quantities are in packets and round trips.
type DCTCPSteadyState struct {
	WStar     float64 // window per flow at which the queue reaches K: (C*RTT + K)/N
	Alpha     float64 // steady-state alpha, from alpha^2 (1 - alpha/4) = (2W*+1)/(W*+1)^2
	Amplitude float64 // queue oscillation A = N (W*+1) alpha / 2
	QMax      float64 // K + N: one more packet per flow after the marking RTT
	QMin      float64 // QMax - A
	PeriodRTT float64 // T_C = (W*+1) alpha / 2 round trips
}

// DCTCPAnalysis evaluates the SIGCOMM 2010 model for a bottleneck with
// bandwidth-delay product bdp packets, marking threshold k packets and n
// flows. alpha is found from the paper's exact relation by bisection; for
// large W* it approaches sqrt(2/W*) and A approaches (1/2) sqrt(2N(C*RTT+K)).
func DCTCPAnalysis(bdp, k float64, n int) DCTCPSteadyState {
	nf := float64(n)
	w := (bdp + k) / nf
	rhs := (2*w + 1) / ((w + 1) * (w + 1))
	lo, hi := 0.0, 1.0
	for i := 0; i < 100; i++ { // f(a) = a^2 (1 - a/4) is increasing on [0, 1]
		mid := (lo + hi) / 2
		if mid*mid*(1-mid/4) < rhs {
			lo = mid
		} else {
			hi = mid
		}
	}
	a := (lo + hi) / 2
	d := (w + 1) * a / 2
	st := DCTCPSteadyState{WStar: w, Alpha: a, Amplitude: nf * d, QMax: k + nf, PeriodRTT: d}
	st.QMin = st.QMax - st.Amplitude
	return st
}

// dctcpAmplitudeApprox is the closed form (1/2) sqrt(2N(C*RTT+K)) of the
// 2010 paper's Eq. (9), used in tests as a cross-check of DCTCPAnalysis.
func dctcpAmplitudeApprox(bdp, k float64, n int) float64 {
	return 0.5 * math.Sqrt(2*float64(n)*(bdp+k))
}
