package syncctl

import "fmt"

// CostModel chooses the analytic all-reduce time of a group.
type CostModel int

const (
	// CostRing is the ring all-reduce cost, first line of Eq. 2:
	// T(g) = 2(|g|-1) alpha + 2 (|g|-1)/|g| * v / min_{k in g} b_k.
	CostRing CostModel = iota
	// CostApprox is the approximation on the second line of Eq. 2,
	// T(g) = 2|g| alpha + 2v / min b, which the motivating example of
	// Sec. II-D (Fig. 3) uses.
	CostApprox
)

// String names the model.
func (m CostModel) String() string {
	if m == CostApprox {
		return "approx"
	}
	return "ring"
}

// ParseCostModel reads "ring" or "approx".
func ParseCostModel(s string) (CostModel, error) {
	switch s {
	case "ring":
		return CostRing, nil
	case "approx":
		return CostApprox, nil
	}
	return 0, fmt.Errorf("unknown sync cost model %q (known: ring, approx)", s)
}

// Time is the all-reduce time in seconds of a group of m workers whose
// minimum bandwidth is minBW bits/s, for a model of modelBytes bytes and a
// per-hop latency of alpha seconds (Eq. 2).
func (m CostModel) Time(size int, modelBytes, minBW, alpha float64) float64 {
	if size <= 1 {
		return 0 // nothing to exchange
	}
	bits := 8 * modelBytes
	k := float64(size)
	if m == CostApprox {
		return 2*k*alpha + 2*bits/minBW
	}
	return 2*(k-1)*alpha + 2*(k-1)/k*bits/minBW
}

// Split returns Eq. 2's two terms for a group of size workers: the latency
// term in seconds (2(|g|-1) alpha, or 2|g| alpha for the approximation)
// and the volume in bits that the group's slowest worker must move
// (2(|g|-1)/|g| v, or 2v), so that Time = latency + volume / min b.
func (m CostModel) Split(size int, modelBytes, alpha float64) (latency, volume float64) {
	if size <= 1 {
		return 0, 0
	}
	bits := 8 * modelBytes
	k := float64(size)
	if m == CostApprox {
		return 2 * k * alpha, 2 * bits
	}
	return 2 * (k - 1) * alpha, 2 * (k - 1) / k * bits
}
