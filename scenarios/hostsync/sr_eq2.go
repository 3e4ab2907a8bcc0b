package hostsync

import (
	"math"

	"syncsim/workloads/syncctl"
)

// srEq2Ratio wraps the executor and measures, for every completed
// synchronisation, its duration over Eq. 2's time (the cost model's) at
// the group's true bandwidths at launch: how far the fabric (shared
// links, background traffic, packets) or changing bandwidths move a
// synchronisation from the paper's model.
type srEq2Ratio struct {
	inner      syncctl.Executor
	cost       syncctl.CostModel
	modelBytes float64
	alpha      float64
	sum        float64
	n          int
}

// Start records the launch and runs the inner executor.
func (e *srEq2Ratio) Start(c *syncctl.Cluster, group []int, done func()) {
	b := math.Inf(1)
	for _, w := range group {
		b = math.Min(b, c.BW(w))
	}
	want := e.cost.Time(len(group), e.modelBytes, b, e.alpha)
	start := c.Now()
	e.inner.Start(c, group, func() {
		if want > 0 {
			e.sum += (c.Now() - start) / want
			e.n++
		}
		done()
	})
}

// mean is the mean ratio over completed synchronisations (NaN if none).
func (e *srEq2Ratio) mean() float64 {
	if e.n == 0 {
		return math.NaN()
	}
	return e.sum / float64(e.n)
}
