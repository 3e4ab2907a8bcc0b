package collective

import "syncsim/netsim"

// RingAllReduceTime is the cost model of a ring all-reduce, Eq. 2 of the
// selective-reduce paper (Sec. III-A, citing Fei et al., SIGCOMM 2021, and
// Patarasuk & Yuan, JPDC 2009, its refs. [74], [75]):
//
//	T = 2(n-1) alpha + 2 (n-1)/n * S / B
//
// for n workers, a buffer of S bytes, a per-step latency alpha and the
// bandwidth B of the slowest participant (the paper's beta = 1/min b_i).
// B is in bits/s, so the transfer term is 8 S 2(n-1) / (n B) seconds,
// computed exactly in integers and rounded up to the picosecond. n <= 1
// costs nothing; a non-positive bandwidth gives netsim.Never. (The
// paper's second line, 2 n alpha + 2 S / B, is its large-n approximation.)
func RingAllReduceTime(n int, size netsim.Bytes, bw netsim.Rate, alpha netsim.Time) netsim.Time {
	if n <= 1 {
		return 0
	}
	if bw <= 0 {
		return netsim.Never
	}
	steps := netsim.Time(2 * (n - 1))
	tx := netsim.TxTime(netsim.Bytes(2*(n-1))*size, netsim.Rate(n)*bw)
	return steps*alpha + tx
}
