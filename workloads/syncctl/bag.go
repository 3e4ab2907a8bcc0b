package syncctl

import (
	"cmp"
	"slices"
)

// Member is a worker as the selection algorithms see it: its identifier
// and its (estimated) available bandwidth in bits/s. Virtual workers that
// BPAWR inserts for expected arrivals have ID Virtual.
type Member struct {
	ID int
	BW float64
}

// Virtual is the ID of a virtual worker (Alg. 2, line 11).
const Virtual = -1

// BAG is eta-based bandwidth-aware grouping, Alg. 1 of the selective-reduce
// paper. It sorts q by bandwidth non-increasingly (line 2; a stable sort,
// so ties keep q's order) and walks the list: while the current group has
// at most p members (line 6, "len(g) <= p", as printed) the worker joins
// unconditionally and sets the relaxed threshold b* = b_i (1 - eta)
// (lines 7-8); afterwards a worker joins if b_i >= b* (lines 9-10), else the
// group is closed and the worker opens the next one (lines 11-14) without
// touching b*. The last group is appended if non-empty (lines 17-19).
//
// As printed, line 6 admits p+1 workers unconditionally, so every group but
// the last has at least p+1 members; we follow the pseudocode literally
// (it is consistent with Alg. 3, line 8, which needs len(Q) > p).
// q is not modified.
func BAG(q []Member, p int, eta float64) [][]Member {
	l := make([]Member, len(q))
	copy(l, q)
	slices.SortStableFunc(l, func(a, b Member) int { return cmp.Compare(b.BW, a.BW) })
	var groups [][]Member
	var g []Member
	bstar := 0.0
	for _, w := range l {
		switch {
		case len(g) <= p:
			g = append(g, w)
			bstar = w.BW * (1 - eta)
		case w.BW >= bstar:
			g = append(g, w)
		default:
			groups = append(groups, g)
			g = []Member{w}
		}
	}
	if len(g) > 0 {
		groups = append(groups, g)
	}
	return groups
}

// minBW is the smallest bandwidth in g (+Inf for an empty group).
func minBW(g []Member) float64 {
	m := inf
	for _, w := range g {
		if w.BW < m {
			m = w.BW
		}
	}
	return m
}
