package syncctl

import (
	"fmt"

	"syncsim/netsim"
)

// SyncRecord is one completed synchronisation.
type SyncRecord struct {
	Start, End netsim.Time
	Scale      int
}

// Syncs returns the completed synchronisations in completion order, when
// Config.Record was set (nil otherwise).
func (c *Cluster) Syncs() []SyncRecord { return c.log }

// Check verifies the cluster's books at the end of a run: the ready queue
// holds exactly the workers in the ready state, each once; the sum of
// completed group sizes equals the synchronisation rounds the workers
// completed; and every worker has completed as many computations as
// synchronisations, or one more (the one it waits to synchronise, or the
// one it is computing does not count yet).
func (c *Cluster) Check() error {
	inQueue := make([]bool, len(c.w))
	for _, w := range c.queue {
		if w < 0 || w >= len(c.w) {
			return fmt.Errorf("ready queue holds unknown worker %d", w)
		}
		if inQueue[w] {
			return fmt.Errorf("worker %d is in the ready queue twice", w)
		}
		inQueue[w] = true
	}
	rounds := 0
	for i := range c.w {
		x := &c.w[i]
		if (x.state == ready) != inQueue[i] {
			return fmt.Errorf("worker %d: ready state %v but in queue %v", i, x.state == ready, inQueue[i])
		}
		rounds += x.rounds
		extra := x.iters - x.rounds
		switch x.state {
		case ready, syncing:
			if extra != 1 {
				return fmt.Errorf("worker %d (%v): %d computations for %d synchronisations, want one more", i, x.state, x.iters, x.rounds)
			}
		default:
			if extra != 0 {
				return fmt.Errorf("worker %d (%v): %d computations for %d synchronisations, want equal", i, x.state, x.iters, x.rounds)
			}
		}
	}
	if rounds != c.syncScale {
		return fmt.Errorf("workers completed %d synchronisation rounds but groups summed to %d", rounds, c.syncScale)
	}
	return nil
}

// String names a worker state.
func (s wstate) String() string {
	switch s {
	case computing:
		return "computing"
	case ready:
		return "ready"
	case syncing:
		return "syncing"
	}
	return "finished"
}
