package dssync

import (
	"fmt"
	"slices"
)

// Contention is what DS-Sync knows about dynamic bottlenecks (Sec. III-B2,
// III-B3): the racks whose inter-rack link carries other tasks' flows and
// the workers whose NIC is shared with a co-located task.
type Contention struct {
	Racks   []int // racks with inter-rack contention
	Workers []int // workers with end-host contention
}

// Empty reports whether nothing is contended.
func (c Contention) Empty() bool { return len(c.Racks) == 0 && len(c.Workers) == 0 }

// Equal reports whether two contention sets name the same racks and
// workers (in any order).
func (c Contention) Equal(o Contention) bool {
	a, b := c.sorted(), o.sorted()
	return slices.Equal(a.Racks, b.Racks) && slices.Equal(a.Workers, b.Workers)
}

func (c Contention) sorted() Contention {
	r := Contention{Racks: slices.Clone(c.Racks), Workers: slices.Clone(c.Workers)}
	slices.Sort(r.Racks)
	slices.Sort(r.Workers)
	return r
}

// String prints the contention as "racks [0] workers [4]".
func (c Contention) String() string {
	s := c.sorted()
	return fmt.Sprintf("racks %v workers %v", s.Racks, s.Workers)
}

// InitGroups is DS-Sync's group initialisation for static topology
// heterogeneity (Sec. III-B1, Fig. 4): in every iteration each rack sends
// one representative to a single inter-rack group and the rest of the
// rack forms its intra-rack group; the workers of a rack take turns as
// representative, round-robin in rack order (rack r's representative in
// iteration t is its worker t mod |rack r|; the paper says only "take
// turns"). The period is the least common multiple of the rack sizes. With
// one rack there is no representative: the rack is one group.
func InitGroups(l Layout) (Pattern, error) {
	return AdjustGroups(l, Contention{})
}

// AdjustGroups is DS-Sync's group adjustment (Sec. III-B2, III-B3, Figs.
// 5-6) applied to the initial pattern of l for the contention c. Our
// reading of the paper, where it leaves details open:
//
// End-host contention in rack r (delayed workers D, regular workers Q):
// the delayed workers are never representatives ("always keeps the
// delayed worker in the intra-rack group"); the representative rotates
// over Q; each delayed worker is paired with a regular partner, the next
// regular workers after the representative in rotation order (so the
// partner changes every iteration), forming small intra-rack groups of
// two; the remaining regular workers form the large intra-rack group, the
// rack's hub, which exchanges members with the small groups and the
// inter-rack group as the rotation advances. The split needs a
// representative and a partner for every delayed worker, |Q| >= |D| + 1
// ("if there are enough workers in the rack"); with fewer the rack keeps
// its initial rotation, since a delayed worker left alone would be cut
// off. The rack's period is |Q|.
//
// Inter-rack contention (contended racks K, regular racks M among C >= 3
// racks with |K| <= |M|): in iteration t the representative of the j-th
// contended rack is paired with the representative of regular rack
// M[(t + j) mod |M|] (the regular partner exchanged every iteration) and
// the other regular representatives form the large inter-rack group; the
// period gains a factor |M|. With two racks the inter-rack group is
// already the pair the adjustment would make, and with |K| > |M| there
// are not enough regular partners: in both cases the inter-rack group is
// left whole.
//
// The pattern's period B is the least common multiple of the racks'
// periods and, when the inter-rack group is split, |M|. Where racks of two
// move in step and the period's groups would not connect every worker,
// the rotations are staggered (see the code), which multiplies B.
func AdjustGroups(l Layout, c Contention) (Pattern, error) {
	if err := l.validate(); err != nil {
		return Pattern{}, err
	}
	n := l.Workers()
	delayed := make([]bool, n)
	for _, w := range c.Workers {
		if w < 0 || w >= n {
			return Pattern{}, fmt.Errorf("contention: worker %d not in 0..%d", w, n-1)
		}
		delayed[w] = true
	}
	hot := make([]bool, len(l))
	for _, r := range c.Racks {
		if r < 0 || r >= len(l) {
			return Pattern{}, fmt.Errorf("contention: rack %d not in 0..%d", r, len(l)-1)
		}
		hot[r] = true
	}
	b := &builder{l: l, racks: make([]rackRotation, len(l))}
	for r, ws := range l {
		b.racks[r] = newRackRotation(ws, delayed, len(l) > 1)
		b.rackPeriod = lcm(max(b.rackPeriod, 1), b.racks[r].period())
		if b.rackPeriod > maxPeriod {
			return Pattern{}, fmt.Errorf("pattern period exceeds %d phases", maxPeriod)
		}
	}
	for r := range l {
		if hot[r] {
			b.contended = append(b.contended, r)
		} else {
			b.regular = append(b.regular, r)
		}
	}
	b.split = len(l) >= 3 && len(b.contended) > 0 && len(b.contended) <= len(b.regular)
	// Racks of two whose rotations move in step with each other (or with
	// the partner rotation) can leave a rack's two workers on opposite
	// sides for ever: with racks 2+2 the first workers only ever meet each
	// other, as do the second. Staggering the rotations once per period
	// (our addition; the paper's racks are larger) reconnects them; the
	// first stagger that connects every worker is used.
	for _, stagger := range []func(r int) int{nil, func(r int) int { return r + 1 }, func(int) int { return 1 }} {
		p, err := b.build(stagger)
		if err != nil || p.Connected() {
			return p, err
		}
	}
	// Failing that, every combination of the rotations (a mixed-radix
	// counter) meets every representative of a rack with the same
	// representative of another, which connects any layout of two or more
	// racks.
	p, err := b.buildAll()
	if err == nil && !p.Connected() {
		err = fmt.Errorf("layout %v with %v: no pattern found that connects all workers", l, c)
	}
	return p, err
}

// builder assembles a pattern from the racks' rotations.
type builder struct {
	l                  Layout
	racks              []rackRotation
	rackPeriod         int
	contended, regular []int
	split              bool // the inter-rack group is split
}

// build makes the pattern. With a stagger, rack r's rotation is advanced
// by stagger(r) floor(k / B0) in phase k, B0 being the unstaggered period,
// and the period grows to B0 times the racks' common rotation period.
func (b *builder) build(stagger func(r int) int) (Pattern, error) {
	period := b.rackPeriod
	if b.split {
		period = lcm(period, len(b.regular))
	}
	base := period
	if stagger != nil {
		period *= b.rackPeriod
	}
	if period > maxPeriod {
		return Pattern{}, fmt.Errorf("pattern period exceeds %d phases", maxPeriod)
	}
	return b.assemble(period, func(k, r int) int {
		if r < 0 { // the partner rotation
			return k
		}
		if stagger != nil {
			return k + stagger(r)*(k/base)
		}
		return k
	})
}

// buildAll makes the pattern whose phases run through every combination
// of the racks' rotations and the partner rotation.
func (b *builder) buildAll() (Pattern, error) {
	radix := make([]int, len(b.racks)+1)
	period := 1
	for r, rr := range b.racks {
		radix[r] = period
		period *= rr.period()
		if period > maxPeriod {
			return Pattern{}, fmt.Errorf("pattern period exceeds %d phases", maxPeriod)
		}
	}
	radix[len(b.racks)] = period
	if b.split {
		period *= len(b.regular)
	}
	if period > maxPeriod {
		return Pattern{}, fmt.Errorf("pattern period exceeds %d phases", maxPeriod)
	}
	return b.assemble(period, func(k, r int) int {
		if r < 0 {
			return k / radix[len(b.racks)]
		}
		return k / radix[r]
	})
}

// assemble makes a pattern of the given period in which phase k uses
// rotation step rot(k, r) for rack r and rot(k, -1) for the partner
// rotation of a split inter-rack group.
func (b *builder) assemble(period int, rot func(k, r int) int) (Pattern, error) {
	l := b.l
	p := Pattern{Workers: l.Workers(), Phases: make([]Grouping, period)}
	for k := range p.Phases {
		var g Grouping
		reps := make([]int, len(l))
		for r := range l {
			rep, intra := b.racks[r].at(rot(k, r))
			reps[r] = rep
			g = append(g, intra...)
		}
		if len(l) > 1 {
			if b.split {
				used := make([]bool, len(l))
				pk := rot(k, -1)
				for j, kr := range b.contended {
					mr := b.regular[(pk+j)%len(b.regular)]
					used[mr] = true
					g = append(g, sortedGroup(reps[kr], reps[mr]))
				}
				var large Group
				for _, mr := range b.regular {
					if !used[mr] {
						large = append(large, reps[mr])
					}
				}
				if len(large) > 0 {
					g = append(g, sortedGroup(large...))
				}
			} else {
				g = append(g, sortedGroup(reps...))
			}
		}
		p.Phases[k] = canonical(g)
	}
	return p, p.Validate()
}

// Connected reports whether the union of one period's groups connects
// every worker: the period product of the W_k is then the matrix of a
// connected graph, which the consensus of Sec. IV-B needs.
func (p Pattern) Connected() bool {
	parent := make([]int, p.Workers)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	comps := p.Workers
	for _, g := range p.Phases {
		for _, grp := range g {
			for _, w := range grp[1:] {
				if a, b := find(w), find(grp[0]); a != b {
					parent[a] = b
					comps--
				}
			}
		}
	}
	return comps == 1
}

// rackRotation is one rack's representative rotation and intra-rack
// groups.
type rackRotation struct {
	withReps bool  // other racks exist, so the rack sends a representative
	all      []int // the rack's workers
	regular  []int // workers without end-host contention
	delayed  []int
	split    bool // the end-host adjustment applies
}

func newRackRotation(ws []int, delayed []bool, withReps bool) rackRotation {
	rr := rackRotation{all: ws, withReps: withReps}
	for _, w := range ws {
		if delayed[w] {
			rr.delayed = append(rr.delayed, w)
		} else {
			rr.regular = append(rr.regular, w)
		}
	}
	rr.split = len(rr.delayed) > 0 && len(rr.regular) >= len(rr.delayed)+1
	return rr
}

func (rr rackRotation) period() int {
	switch {
	case rr.split:
		return len(rr.regular)
	case rr.withReps:
		return len(rr.all)
	}
	return 1 // a lone rack is one group
}

// at returns the rack's representative in phase k and its intra-rack
// groups. Without other racks (withReps false) the representative stays
// in the rack's groups and -1 is returned.
func (rr rackRotation) at(k int) (int, Grouping) {
	withReps := rr.withReps
	if !rr.split {
		rep := rr.all[k%len(rr.all)]
		var rest Group
		for _, w := range rr.all {
			if w != rep || !withReps {
				rest = append(rest, w)
			}
		}
		if !withReps {
			return -1, Grouping{rest}
		}
		if len(rest) == 0 {
			return rep, nil
		}
		return rep, Grouping{rest}
	}
	q := len(rr.regular)
	rep := rr.regular[k%q]
	taken := map[int]bool{rep: true}
	var g Grouping
	for j, d := range rr.delayed {
		partner := rr.regular[(k+1+j)%q]
		taken[partner] = true
		g = append(g, sortedGroup(d, partner))
	}
	var large Group
	for _, w := range rr.regular {
		if !taken[w] || (w == rep && !withReps) {
			large = append(large, w)
		}
	}
	if len(large) > 0 {
		g = append(g, large)
	}
	if !withReps {
		return -1, g
	}
	return rep, g
}

func sortedGroup(ws ...int) Group {
	g := Group(slices.Clone(ws))
	slices.Sort(g)
	return g
}

// canonical orders a grouping's groups by their first worker, so that a
// phase prints and compares the same whatever order it was built in.
func canonical(g Grouping) Grouping {
	slices.SortFunc(g, func(a, b Group) int { return a[0] - b[0] })
	return g
}
