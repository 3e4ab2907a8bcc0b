package syncctl_test

import (
	"slices"

	"syncsim/netsim"
	"syncsim/workloads/syncctl"
)

// guide:scheme-controller

// PairedReduce is the worked example of docs/extending.md, "Adding a host
// synchronisation scheme": it waits until 2p workers are ready, then
// launches them as two groups of p sorted by bandwidth, the fastest p
// together and the slowest p together, so a slow worker never slows a
// fast group's ring (Eq. 2 charges a group its slowest member).
type PairedReduce struct{ P int }

// Name is the scheme's name in messages and CSVs.
func (*PairedReduce) Name() string { return "paired-reduce" }

// Step is called whenever a worker joins the ready queue (w >= 0) or a
// wait the controller asked for ends (w = -1); it launches groups with
// c.Launch and returns how long to wait before being called again
// without a new worker (0: until the next one).
func (s *PairedReduce) Step(c *syncctl.Cluster, w int) netsim.Time {
	if q := c.Queue(); len(q) >= min(2*s.P, c.Active()) {
		ready := slices.Clone(q)
		slices.SortStableFunc(ready, func(a, b int) int { // fastest first
			return -cmpFloat(c.BW(a), c.BW(b))
		})
		c.Launch(ready[:min(s.P, len(ready))])
		c.Launch(ready[min(s.P, len(ready)):])
	}
	return 0
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// guide:end
