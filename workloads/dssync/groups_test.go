package dssync

import (
	"fmt"
	"slices"
	"testing"
)

func phases(p Pattern) []string {
	s := make([]string, len(p.Phases))
	for k, g := range p.Phases {
		s[k] = g.String()
	}
	return s
}

// Patterns worked out by hand from Sec. III-B and Figs. 4-6 (our reading
// of the rotations is in AdjustGroups' documentation).
func TestPatternsHandWorked(t *testing.T) {
	cases := []struct {
		name   string
		layout Layout
		c      Contention
		period int
		want   map[int]string // phase -> grouping
	}{
		{"init 4+4 (Sec. V-A5, static and inter-rack)", LayoutOf(4, 4), Contention{}, 4, map[int]string{
			0: "{0 4} {1 2 3} {5 6 7}",
			1: "{0 2 3} {1 5} {4 6 7}",
			2: "{0 1 3} {2 6} {4 5 7}",
			3: "{0 1 2} {3 7} {4 5 6}",
		}},
		// Two racks: the inter-rack group is already a pair.
		{"inter-rack 4+4", LayoutOf(4, 4), Contention{Racks: []int{0, 1}}, 4, map[int]string{
			0: "{0 4} {1 2 3} {5 6 7}",
			3: "{0 1 2} {3 7} {4 5 6}",
		}},
		{"init 5+3", LayoutOf(5, 3), Contention{}, 15, map[int]string{
			0:  "{0 5} {1 2 3 4} {6 7}",
			1:  "{0 2 3 4} {1 6} {5 7}",
			5:  "{0 7} {1 2 3 4} {5 6}",
			14: "{0 1 2 3} {4 7} {5 6}",
		}},
		// Table III's setting: worker 4 shares its NIC; it is never the
		// representative and is paired with the regular worker after the
		// representative; the other two form the hub.
		{"end-host 5+3, worker 4", LayoutOf(5, 3), Contention{Workers: []int{4}}, 12, map[int]string{
			0:  "{0 5} {1 4} {2 3} {6 7}",
			1:  "{0 3} {1 6} {2 4} {5 7}",
			3:  "{0 4} {1 2} {3 5} {6 7}",
			11: "{0 4} {1 2} {3 7} {5 6}",
		}},
		{"both 5+3, worker 4, racks 0 1", LayoutOf(5, 3), Contention{Racks: []int{0, 1}, Workers: []int{4}}, 12, map[int]string{
			0: "{0 5} {1 4} {2 3} {6 7}",
		}},
		// Fig. 5 with four racks: rack 0's representative is paired with
		// a regular one that changes every iteration. Racks of two need
		// the stagger: in the first six phases even workers only meet
		// even ones; from phase 6 rack r's rotation runs r+1 ahead.
		{"inter-rack 2+2+2+2, rack 0", LayoutOf(2, 2, 2, 2), Contention{Racks: []int{0}}, 12, map[int]string{
			0: "{0 2} {1} {3} {4 6} {5} {7}",
			1: "{0} {1 5} {2} {3 7} {4} {6}",
			2: "{0 6} {1} {2 4} {3} {5} {7}",
			3: "{0} {1 3} {2} {4} {5 7} {6}",
			6: "{0} {1 2} {3} {4} {5 6} {7}",
		}},
		{"init 2+2+2+2", LayoutOf(2, 2, 2, 2), Contention{}, 4, map[int]string{
			0: "{0 2 4 6} {1} {3} {5} {7}",
			1: "{0} {1 3 5 7} {2} {4} {6}",
			2: "{0} {1 2 5 6} {3} {4} {7}",
			3: "{0 3 4 7} {1} {2} {5} {6}",
		}},
		// Fig. 6 with four racks of three: worker 1 shares its NIC and
		// rack 0's uplink is contended.
		{"both 3+3+3+3, worker 1, rack 0", LayoutOf(3, 3, 3, 3), Contention{Racks: []int{0}, Workers: []int{1}}, 6, map[int]string{
			0: "{0 3} {1 2} {4 5} {6 9} {7 8} {10 11}",
			1: "{0 1} {2 7} {3 5} {4 10} {6 8} {9 11}",
		}},
		{"end-host 3+3+3+3, worker 5", LayoutOf(3, 3, 3, 3), Contention{Workers: []int{5}}, 6, map[int]string{
			0: "{0 3 6 9} {1 2} {4 5} {7 8} {10 11}",
			1: "{0 2} {1 4 7 10} {3 5} {6 8} {9 11}",
		}},
		// Too few regular workers to split: the rack keeps its (staggered)
		// rotation.
		{"end-host 2+2, worker 1", LayoutOf(2, 2), Contention{Workers: []int{1}}, 4, map[int]string{
			0: "{0 2} {1} {3}",
			1: "{0} {1 3} {2}",
			2: "{0} {1 2} {3}",
			3: "{0 3} {1} {2}",
		}},
		// Partner rotation in step with rack 1's: staggered by one.
		{"inter-rack 1+2+1, rack 0", LayoutOf(1, 2, 1), Contention{Racks: []int{0}}, 4, map[int]string{
			0: "{0 1} {2} {3}",
			1: "{0 3} {1} {2}",
			2: "{0 2} {1} {3}",
			3: "{0 3} {1} {2}",
		}},
		{"one rack", LayoutOf(4), Contention{}, 1, map[int]string{0: "{0 1 2 3}"}},
		{"one rack, worker 3", LayoutOf(4), Contention{Workers: []int{3}}, 3, map[int]string{
			0: "{0 2} {1 3}",
			1: "{0 1} {2 3}",
			2: "{0 3} {1 2}",
		}},
		{"inter-rack, too few regular racks", LayoutOf(1, 1, 1), Contention{Racks: []int{0, 1}}, 1, map[int]string{0: "{0 1 2}"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := AdjustGroups(tc.layout, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if p.Period() != tc.period {
				t.Errorf("period %d, want %d: %v", p.Period(), tc.period, phases(p))
			}
			for k, want := range tc.want {
				if got := p.At(k).String(); got != want {
					t.Errorf("phase %d: %s, want %s", k, got, want)
				}
			}
		})
	}
}

// patternCases are layouts and contention sets to check properties on:
// every layout of up to 4 racks of 1..5 workers, each contention case.
func patternCases() []struct {
	name string
	l    Layout
	c    Contention
} {
	var out []struct {
		name string
		l    Layout
		c    Contention
	}
	add := func(l Layout, c Contention) {
		out = append(out, struct {
			name string
			l    Layout
			c    Contention
		}{fmt.Sprintf("%v %v", l, c), l, c})
	}
	var sizes [][]int
	for a := 1; a <= 5; a++ {
		sizes = append(sizes, []int{a})
		for b := 1; b <= 5; b++ {
			sizes = append(sizes, []int{a, b})
			for c := 1; c <= 4; c++ {
				sizes = append(sizes, []int{a, b, c}, []int{a, b, c, 1 + (a+b+c)%4})
			}
		}
	}
	for _, s := range sizes {
		l := LayoutOf(s...)
		last := l[0][len(l[0])-1]
		add(l, Contention{})
		add(l, Contention{Workers: []int{last}})
		add(l, Contention{Racks: []int{0}})
		add(l, Contention{Racks: []int{0}, Workers: []int{last}})
		if len(l) > 1 {
			add(l, Contention{Racks: []int{0, len(l) - 1}, Workers: []int{last, l[len(l)-1][0]}})
			add(l, Contention{Workers: l[0]}) // a whole rack delayed
		}
		if len(l[0]) >= 4 {
			add(l, Contention{Workers: l[0][1:3]}) // two delayed in one rack
		}
	}
	return out
}

// Every phase of every pattern puts every worker in exactly one group,
// groups are in rack order, the contended workers are never
// representatives when their rack was split, and the union of a period's
// groups connects all workers (the period product describes a connected
// graph, Sec. IV-B).
func TestPatternProperties(t *testing.T) {
	for _, tc := range patternCases() {
		p, err := AdjustGroups(tc.l, tc.c)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		rackOf := tc.l.RackOf()
		parent := make([]int, p.Workers)
		for i := range parent {
			parent[i] = i
		}
		var find func(int) int
		find = func(i int) int {
			for parent[i] != i {
				parent[i] = parent[parent[i]]
				i = parent[i]
			}
			return i
		}
		for k, g := range p.Phases {
			for _, grp := range g {
				if !slices.IsSorted(grp) {
					t.Fatalf("%s phase %d: group %v not in rack order", tc.name, k, grp)
				}
				racks := map[int]bool{}
				for _, w := range grp {
					racks[rackOf[w]] = true
					parent[find(w)] = find(grp[0])
				}
				// A group spanning racks holds one worker per rack.
				if len(racks) > 1 && len(racks) != len(grp) {
					t.Fatalf("%s phase %d: inter-rack group %v has two workers of one rack", tc.name, k, grp)
				}
			}
		}
		for w := range parent {
			if find(w) != find(0) {
				t.Fatalf("%s: worker %d never meets worker 0 within a period %v", tc.name, w, phases(p))
			}
		}
		// The pattern's period is a multiple of every rack's rotation.
		for k := range p.Phases {
			if got, want := p.At(k+p.Period()).String(), p.At(k).String(); got != want {
				t.Fatalf("%s: phase %d differs a period later", tc.name, k)
			}
		}
	}
}

// With a split rack, no delayed worker ever sits in an inter-rack group
// and each shares a group of two with a regular worker (Sec. III-B3);
// with a split inter-rack group, each contended rack's representative is
// in a group of two (Sec. III-B2).
func TestAdjustedBottlenecksInSmallGroups(t *testing.T) {
	for _, tc := range []struct {
		l Layout
		c Contention
	}{
		{LayoutOf(5, 3), Contention{Workers: []int{4}}},
		{LayoutOf(4, 4, 4), Contention{Racks: []int{1}, Workers: []int{2}}},
		{LayoutOf(3, 3, 3, 3), Contention{Racks: []int{0, 3}}},
	} {
		p, err := AdjustGroups(tc.l, tc.c)
		if err != nil {
			t.Fatal(err)
		}
		rackOf := tc.l.RackOf()
		for k, g := range p.Phases {
			for _, grp := range g {
				racks := map[int]bool{}
				for _, w := range grp {
					racks[rackOf[w]] = true
				}
				for _, w := range grp {
					if slices.Contains(tc.c.Workers, w) && len(grp) != 2 {
						t.Errorf("%v phase %d: delayed worker %d in group %v", tc.l, k, w, grp)
					}
					if slices.Contains(tc.c.Workers, w) && len(racks) > 1 {
						t.Errorf("%v phase %d: delayed worker %d represents its rack", tc.l, k, w)
					}
					if len(racks) > 1 && slices.Contains(tc.c.Racks, rackOf[w]) && len(tc.l) > 2 && len(grp) != 2 {
						t.Errorf("%v phase %d: contended rack %d's representative in %v", tc.l, k, rackOf[w], grp)
					}
				}
			}
		}
	}
}

func TestPatternErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    Layout
		c    Contention
	}{
		{"no racks", Layout{}, Contention{}},
		{"empty rack", Layout{{0}, {}}, Contention{}},
		{"misnumbered", Layout{{0, 2}}, Contention{}},
		{"worker out of range", LayoutOf(2, 2), Contention{Workers: []int{4}}},
		{"rack out of range", LayoutOf(2, 2), Contention{Racks: []int{-1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := AdjustGroups(tc.l, tc.c); err == nil {
				t.Fatal("no error")
			}
		})
	}
	for _, s := range []string{"", "5+", "0+3", "a", "5+-1", "5000"} {
		if _, err := ParseLayout(s); err == nil {
			t.Errorf("ParseLayout(%q) accepted", s)
		}
	}
	if l, err := ParseLayout("5+3"); err != nil || l.String() != "5+3" || l.Workers() != 8 {
		t.Errorf("ParseLayout(5+3) = %v, %v", l, err)
	}
	bad := Pattern{Workers: 3, Phases: []Grouping{{{0, 1}, {1, 2}}}}
	if err := bad.Validate(); err == nil {
		t.Error("overlapping groups validated")
	}
	bad = Pattern{Workers: 3, Phases: []Grouping{{{0, 1}}}}
	if err := bad.Validate(); err == nil {
		t.Error("uncovered worker validated")
	}
}
