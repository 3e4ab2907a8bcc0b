package collective

import (
	"fmt"
	"math"
	"slices"

	"syncsim/netsim"
)

// EqualChunks splits size bytes into n chunks that differ by at most one
// byte (the first size mod n chunks get the extra byte) and sum to size.
func EqualChunks(size netsim.Bytes, n int) []netsim.Bytes {
	c := make([]netsim.Bytes, n)
	base, extra := size/netsim.Bytes(n), int(size%netsim.Bytes(n))
	for i := range c {
		c[i] = base
		if i < extra {
			c[i]++
		}
	}
	return c
}

// WeightedChunks splits size bytes into chunks proportional to weights,
// rounded to whole bytes by the largest-remainder method (ties to the
// lower index) so that they sum exactly to size. Weights must be finite,
// non-negative and not all zero.
func WeightedChunks(size netsim.Bytes, weights []float64) ([]netsim.Bytes, error) {
	if size < 0 {
		return nil, fmt.Errorf("negative size %d", size)
	}
	if len(weights) == 0 {
		return nil, fmt.Errorf("no weights")
	}
	sum := 0.0
	for i, w := range weights {
		if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
			return nil, fmt.Errorf("weight %d is %v: weights must be finite and non-negative", i, w)
		}
		sum += w
	}
	if sum <= 0 {
		return nil, fmt.Errorf("weights sum to %v: at least one must be positive", sum)
	}
	c := make([]netsim.Bytes, len(weights))
	frac := make([]float64, len(weights))
	var given netsim.Bytes
	for i, w := range weights {
		exact := float64(size) * (w / sum)
		f := math.Floor(exact)
		c[i] = netsim.Bytes(f)
		frac[i] = exact - f
		given += c[i]
	}
	// Float rounding can leave the floors a few bytes off in either
	// direction; hand out (or take back) the difference one byte at a
	// time by remainder.
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case frac[a] > frac[b]:
			return -1
		case frac[a] < frac[b]:
			return 1
		}
		return 0
	})
	for k := 0; given < size; k++ {
		i := order[k%len(order)]
		if weights[i] > 0 {
			c[i]++
			given++
		}
	}
	for k := len(order) - 1; given > size; k-- {
		i := order[(k%len(order)+len(order))%len(order)]
		if c[i] > 0 {
			c[i]--
			given--
		}
	}
	return c, nil
}

// checkHosts rejects empty and repeated participant lists.
func checkHosts(what string, hosts []netsim.NodeID) error {
	if len(hosts) == 0 {
		return fmt.Errorf("%s: no participants", what)
	}
	seen := make(map[netsim.NodeID]bool, len(hosts))
	for _, h := range hosts {
		if seen[h] {
			return fmt.Errorf("%s: node %d appears twice", what, h)
		}
		seen[h] = true
	}
	return nil
}

// finishSoon calls done (if any) through a zero-delay event.
func finishSoon(sim *netsim.Sim, done func()) {
	if done != nil {
		sim.AfterFunc(0, done)
	}
}
