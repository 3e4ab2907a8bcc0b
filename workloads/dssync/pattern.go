package dssync

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Group is a set of workers that average their models with each other in
// one iteration, by an all-reduce in the listed order (rack order, so a
// group's ring crosses each rack boundary as few times as possible).
type Group []int

// Grouping is the partition of all workers that one iteration uses: its
// W_k (Sec. IV-B).
type Grouping []Group

// Pattern is DS-Sync's periodic divide-and-shuffle pattern: iteration t
// uses Phases[t mod B], B = len(Phases) the period (Pseudo Code 1, line 21:
// groupList[t % len(groupList)]; Sec. IV-B: W_k = W_{k+B}).
type Pattern struct {
	Workers int
	Phases  []Grouping
}

// Period is the pattern's period B.
func (p Pattern) Period() int { return len(p.Phases) }

// At is the grouping of iteration t.
func (p Pattern) At(t int) Grouping { return p.Phases[t%len(p.Phases)] }

// Validate checks that every phase puts every worker in exactly one
// non-empty group.
func (p Pattern) Validate() error {
	if p.Workers < 1 {
		return fmt.Errorf("pattern: %d workers", p.Workers)
	}
	if len(p.Phases) == 0 {
		return fmt.Errorf("pattern: no phases")
	}
	for k, g := range p.Phases {
		seen := make([]bool, p.Workers)
		n := 0
		for gi, grp := range g {
			if len(grp) == 0 {
				return fmt.Errorf("pattern: phase %d group %d is empty", k, gi)
			}
			for _, w := range grp {
				if w < 0 || w >= p.Workers {
					return fmt.Errorf("pattern: phase %d names worker %d of %d", k, w, p.Workers)
				}
				if seen[w] {
					return fmt.Errorf("pattern: worker %d is in two groups in phase %d", w, k)
				}
				seen[w] = true
				n++
			}
		}
		if n != p.Workers {
			return fmt.Errorf("pattern: phase %d covers %d of %d workers", k, n, p.Workers)
		}
	}
	return nil
}

// GroupOf returns, for one grouping, the index of each worker's group.
func (g Grouping) GroupOf(workers int) []int {
	of := make([]int, workers)
	for i, grp := range g {
		for _, w := range grp {
			of[w] = i
		}
	}
	return of
}

// String prints a grouping as "{0 4} {1 2 3} {5 6 7}".
func (g Grouping) String() string {
	var b strings.Builder
	for i, grp := range g {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('{')
		for j, w := range grp {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(w))
		}
		b.WriteByte('}')
	}
	return b.String()
}

// Layout lists the workers of each rack: Layout[r] are rack r's workers.
// Workers are numbered 0..N-1 rack by rack (LayoutOf), as the paper's
// testbed numbers them (Sec. V-A5: workers 0-4 in rack 0, 5-7 in rack 1).
type Layout [][]int

// LayoutOf numbers workers consecutively over racks of the given sizes:
// LayoutOf(5, 3) is {0..4}, {5, 6, 7}.
func LayoutOf(sizes ...int) Layout {
	var l Layout
	w := 0
	for _, s := range sizes {
		r := make([]int, s)
		for i := range r {
			r[i] = w
			w++
		}
		l = append(l, r)
	}
	return l
}

// ParseLayout reads a layout written as rack sizes joined by '+', such as
// "5+3" or "2+2+2+2".
func ParseLayout(s string) (Layout, error) {
	parts := strings.Split(s, "+")
	sizes := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("layout %q: rack %d has %q workers, want a positive integer (write racks as 5+3)", s, i, p)
		}
		if n > 4096 {
			return nil, fmt.Errorf("layout %q: rack %d has %d workers, at most 4096", s, i, n)
		}
		sizes[i] = n
	}
	return LayoutOf(sizes...), nil
}

// Workers is the number of workers in the layout.
func (l Layout) Workers() int {
	n := 0
	for _, r := range l {
		n += len(r)
	}
	return n
}

// Sizes lists the racks' worker counts.
func (l Layout) Sizes() []int {
	s := make([]int, len(l))
	for i, r := range l {
		s[i] = len(r)
	}
	return s
}

// RackOf returns each worker's rack.
func (l Layout) RackOf() []int {
	of := make([]int, l.Workers())
	for r, ws := range l {
		for _, w := range ws {
			of[w] = r
		}
	}
	return of
}

// String writes the layout as rack sizes joined by '+'.
func (l Layout) String() string {
	s := make([]string, len(l))
	for i, r := range l {
		s[i] = strconv.Itoa(len(r))
	}
	return strings.Join(s, "+")
}

// validate checks that the racks are non-empty and number the workers
// 0..N-1 exactly once.
func (l Layout) validate() error {
	if len(l) == 0 {
		return fmt.Errorf("layout: no racks")
	}
	var all []int
	for r, ws := range l {
		if len(ws) == 0 {
			return fmt.Errorf("layout: rack %d has no workers", r)
		}
		all = append(all, ws...)
	}
	slices.Sort(all)
	for i, w := range all {
		if w != i {
			return fmt.Errorf("layout: workers must be numbered 0..%d once each", len(all)-1)
		}
	}
	return nil
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int) int { return a / gcd(a, b) * b }

// maxPeriod bounds a pattern's period so that its phases fit in memory.
const maxPeriod = 1 << 16
