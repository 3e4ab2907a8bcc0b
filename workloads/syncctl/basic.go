package syncctl

import (
	"fmt"
	"sort"

	"syncsim/netsim"
)

// AllReduce is bulk-synchronous all reduce: the controller waits until every
// (active) worker is ready and then synchronises all of them.
type AllReduce struct{}

// Name is "allreduce".
func (AllReduce) Name() string { return "allreduce" }

// Step launches everybody once everybody is ready.
func (AllReduce) Step(c *Cluster, _ int) netsim.Time {
	if q := c.Queue(); len(q) > 0 && len(q) == c.Active() {
		c.Launch(append([]int(nil), q...))
	}
	return 0
}

// PartialReduce is the original partial reduce (Miao et al., SIGMOD 2021;
// Sec. II-C of the selective-reduce paper): each time the ready queue holds
// p workers, the first p are popped and synchronised immediately.
type PartialReduce struct{ P int }

// NewPartialReduce checks p.
func NewPartialReduce(p int) (*PartialReduce, error) {
	if p < 1 {
		return nil, fmt.Errorf("partial reduce: p = %d, want >= 1", p)
	}
	return &PartialReduce{P: p}, nil
}

// Name is "partial-reduce".
func (*PartialReduce) Name() string { return "partial-reduce" }

// Step pops groups of exactly p workers in arrival order.
func (r *PartialReduce) Step(c *Cluster, _ int) netsim.Time {
	for len(c.Queue()) >= r.P {
		c.Launch(append([]int(nil), c.Queue()[:r.P]...))
	}
	return 0
}

// ProgressAware is the progress-aware selection of Fig. 3(d): once p
// workers are ready, the controller (which knows when computing workers
// will finish) waits while some computing worker will be ready within
// Horizon seconds, then synchronises every ready worker in one group.
type ProgressAware struct {
	P       int
	Horizon float64
}

// Name is "progress-aware".
func (*ProgressAware) Name() string { return "progress-aware" }

// Step implements the rule above.
func (s *ProgressAware) Step(c *Cluster, _ int) netsim.Time {
	if len(c.Queue()) < s.P || arrivingWithin(c, s.Horizon) {
		return 0
	}
	c.Launch(append([]int(nil), c.Queue()...))
	return 0
}

// BandwidthAware is the bandwidth-aware selection of Fig. 3(e): it waits
// like ProgressAware, then sorts the ready workers by bandwidth
// non-increasingly and slices the first floor(len/p)*p of them into groups
// of p (the time-minimising split of Sec. III-C); the rest stay queued.
type BandwidthAware struct {
	P       int
	Horizon float64
}

// Name is "bandwidth-aware".
func (*BandwidthAware) Name() string { return "bandwidth-aware" }

// Step implements the rule above.
func (s *BandwidthAware) Step(c *Cluster, _ int) netsim.Time {
	if len(c.Queue()) < s.P || arrivingWithin(c, s.Horizon) {
		return 0
	}
	q := append([]int(nil), c.Queue()...)
	sort.SliceStable(q, func(i, j int) bool { return c.BW(q[i]) > c.BW(q[j]) })
	for i := 0; i+s.P <= len(q); i += s.P {
		c.Launch(q[i : i+s.P])
	}
	return 0
}

// arrivingWithin reports whether a computing worker finishes within h
// seconds from now (inclusive).
func arrivingWithin(c *Cluster, h float64) bool {
	now := c.Now()
	for w := range c.N() {
		if t, ok := c.ReadyAt(w); ok && t <= now+h {
			return true
		}
	}
	return false
}
