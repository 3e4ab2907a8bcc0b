package syncctl

import (
	"cmp"
	"fmt"
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

// BAGSeed is how many workers BAG admits to a group unconditionally before
// the bandwidth threshold b* applies. The paper is inconsistent: Alg. 1,
// line 6 ("if len(g) <= p") admits p+1, while the text of Sec. III-C says
// "BAG tries to select p workers to generate a group g and records the
// relaxed bandwidth threshold b*".
type BAGSeed int

const (
	// SeedPseudocode admits p+1 workers, as Alg. 1 line 6 is printed.
	SeedPseudocode BAGSeed = iota
	// SeedProse admits p workers, as the text of Sec. III-C says.
	SeedProse
)

// BAGSeedNames are the parameter names of the two readings, in order.
var BAGSeedNames = []string{"p+1", "p"}

// String is "p+1" or "p".
func (s BAGSeed) String() string {
	if s == SeedProse {
		return "p"
	}
	return "p+1"
}

// ParseBAGSeed reads "p+1" or "p".
func ParseBAGSeed(s string) (BAGSeed, error) {
	switch s {
	case "p+1":
		return SeedPseudocode, nil
	case "p":
		return SeedProse, nil
	}
	return 0, fmt.Errorf("unknown BAG seed %q (known: p+1, p)", s)
}

// size is the number of workers admitted unconditionally for minimum group
// size p.
func (s BAGSeed) size(p int) int {
	if s == SeedProse {
		return p
	}
	return p + 1
}

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
// p must be at least 1 (the controllers check it). q is not modified; the
// groups share one backing array, each capped at its own length.
func BAG(q []Member, p int, eta float64) [][]Member {
	return BAGWith(q, p, eta, SeedPseudocode)
}

// BAGWith is BAG with the chosen reading of line 6: seed SeedProse admits
// p workers unconditionally (len(g) < p), so groups but the last have at
// least p members.
func BAGWith(q []Member, p int, eta float64, seed BAGSeed) [][]Member {
	l := make([]Member, len(q))
	copy(l, q)
	sortByBW(l)
	var groups [][]Member
	start := 0
	for start < len(l) {
		end := bagGroupEnd(l, start, seed.size(p), eta)
		// Groups are consecutive runs of l; the capacity is capped so that
		// a caller appending to one group cannot overwrite the next.
		groups = append(groups, l[start:end:end])
		start = end
	}
	return groups
}

// sortByBW sorts l by bandwidth non-increasingly, keeping the order of
// ties (Alg. 1, line 2).
func sortByBW(l []Member) {
	slices.SortStableFunc(l, func(a, b Member) int { return cmp.Compare(b.BW, a.BW) })
}

// bagGroupEnd walks the sorted list l from start and returns the end of
// the group that starts there (lines 5-15). The first seed workers join
// unconditionally, each setting b* (lines 6-8; seed is p+1 as printed);
// then workers join while b_i >= b* (lines 9-10). A group opened at line
// 14 keeps the previous b* until its next seed, but that seed always comes
// (seed >= 1), so computing each group on its own gives the same groups as
// the single loop of Alg. 1.
func bagGroupEnd(l []Member, start, seed int, eta float64) int {
	i := start
	bstar := 0.0
	for ; i < len(l); i++ {
		switch {
		case i-start < seed:
			bstar = l[i].BW * (1 - eta)
		case l[i].BW >= bstar:
		default:
			return i
		}
	}
	return i
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
