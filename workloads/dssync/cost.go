package dssync

import "math"

// CostModel holds the symbols of the DS-Sync paper's communication
// analysis (Sec. IV-A): N workers spread evenly over C racks of G, alpha
// the latency of one hop (one message), beta1 and beta2 the intra- and
// inter-rack transfer time of one byte, S the model size, L the number of
// layer-wise synchronisations, P parameter servers and k pipeline chunks.
// Times are in seconds, sizes in bytes.
type CostModel struct {
	N, C, G, L, P, K    int
	S                   float64
	Alpha, Beta1, Beta2 float64
}

// Cost is one row of Table II: its latency and transfer-delay terms.
type Cost struct{ Latency, Transfer float64 }

// Total is latency plus transfer delay.
func (c Cost) Total() float64 { return c.Latency + c.Transfer }

// PS is Table II's parameter server row: 2(N-1) L alpha and
// 2[(C-1) G S beta2 + (G-1) S beta1] / P (one server co-located with a
// worker, so N-1 workers push to it and pull from it: (C-1)G across the
// core, G-1 inside its rack).
func (m CostModel) PS() Cost {
	return Cost{2 * float64(m.N-1) * float64(m.L) * m.Alpha,
		2 * (float64(m.C-1)*float64(m.G)*m.S*m.Beta2 + float64(m.G-1)*m.S*m.Beta1) / float64(m.P)}
}

// Ring is Table II's ring all-reduce row: 2(N-1) L alpha and
// 2(N-1) S beta2 / N.
func (m CostModel) Ring() Cost {
	return Cost{2 * float64(m.N-1) * float64(m.L) * m.Alpha, 2 * float64(m.N-1) * m.S * m.Beta2 / float64(m.N)}
}

// DoubleTree is Table II's double binary tree row: 2(log N + k) L alpha
// and 2(log N + k) S beta2 / k (log base 2).
func (m CostModel) DoubleTree() Cost {
	f := 2 * (math.Log2(float64(m.N)) + float64(m.K))
	return Cost{f * float64(m.L) * m.Alpha, f * m.S * m.Beta2 / float64(m.K)}
}

// Hierarchical is Table II's hierarchical all-reduce row: 2(G+C-2) L alpha
// and 2(G-1) S beta1 / G + 2(C-1) S beta2 / C.
func (m CostModel) Hierarchical() Cost {
	return Cost{2 * float64(m.G+m.C-2) * float64(m.L) * m.Alpha,
		2*float64(m.G-1)*m.S*m.Beta1/float64(m.G) + 2*float64(m.C-1)*m.S*m.Beta2/float64(m.C)}
}

// Gossip is Table II's gossip row: 2 L alpha and at least 4 S beta2.
func (m CostModel) Gossip() Cost { return Cost{2 * float64(m.L) * m.Alpha, 4 * m.S * m.Beta2} }

// DSSyncInter is Table II's DS-Sync row for the inter-rack group of two
// that holds the bottleneck: 2 L alpha and 2 S beta2. A ring all-reduce
// of two moves S each way, 2(2-1)/2 S beta2 = S beta2, half the table's
// figure; the paper does not say whether its 2 S beta2 adds the two
// directions or charges the pair a link halved by the contention it
// isolates. On an uncontended fabric the simulated pair takes S beta2
// (TestTableIIAgainstSimulator).
func (m CostModel) DSSyncInter() Cost { return Cost{2 * float64(m.L) * m.Alpha, 2 * m.S * m.Beta2} }

// DSSyncIntra is Table II's DS-Sync row for an intra-rack group of G-1
// workers: 2 L (G-1) alpha and 2(G-2) S beta1 / (G-1) (the table writes
// the latency for a group of G; a ring of G-1 takes 2(G-2) steps).
func (m CostModel) DSSyncIntra() Cost {
	return Cost{2 * float64(m.L) * float64(m.G-1) * m.Alpha, 2 * float64(m.G-2) * m.S * m.Beta1 / float64(m.G-1)}
}
