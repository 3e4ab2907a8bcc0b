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
	inner syncctl.Executor
	cost  syncctl.CostModel
	alpha float64
	sum   float64
	n     int
}

// Start records the launch and runs the inner executor. With overlap each
// bucket's reduce is one synchronisation here, against Eq. 2 for its
// bytes.
func (e *srEq2Ratio) Start(c *syncctl.Cluster, group []int, bytes float64, done func()) {
	b := math.Inf(1)
	for _, w := range group {
		b = math.Min(b, c.BW(w))
	}
	want := e.cost.Time(len(group), bytes, b, e.alpha)
	start := c.Now()
	e.inner.Start(c, group, bytes, func() {
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
