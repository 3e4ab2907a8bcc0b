package syncctl

import (
	"reflect"
	"testing"
)

func ids(gs [][]Member) [][]int {
	out := make([][]int, len(gs))
	for i, g := range gs {
		for _, m := range g {
			out[i] = append(out[i], m.ID)
		}
	}
	return out
}

func members(bw ...float64) []Member {
	m := make([]Member, len(bw))
	for i, b := range bw {
		m[i] = Member{ID: i, BW: b}
	}
	return m
}

func TestBAG(t *testing.T) {
	cases := []struct {
		name string
		q    []Member
		p    int
		eta  float64
		want [][]int
	}{
		{
			// seeds 10, 9, 8 (line 6 admits p+1 = 3), b* = 8*0.5 = 4;
			// 4 >= 4 joins (tie, line 9), 3.99 opens a new group (line 11).
			name: "threshold tie and break", q: members(10, 9, 8, 4, 3.99, 2), p: 2, eta: 0.5,
			want: [][]int{{0, 1, 2, 3}, {4, 5}},
		},
		{
			// input unsorted; stable sort keeps arrival order among ties.
			name: "stable sort", q: []Member{{10, 5}, {11, 7}, {12, 5}, {13, 7}}, p: 1, eta: 0,
			want: [][]int{{11, 13}, {10, 12}},
		},
		{
			// eta = 0: only equal bandwidths extend a seeded group.
			name: "eta zero equal", q: members(3, 3, 3, 3, 3), p: 1, eta: 0,
			want: [][]int{{0, 1, 2, 3, 4}},
		},
		{
			// exactly p+1 workers: one seeded group, nothing to compare.
			name: "exactly p+1", q: members(9, 1, 5), p: 2, eta: 0.1,
			want: [][]int{{0, 2, 1}},
		},
		{
			// b* is only set while seeding: the worker that opens the
			// second group (line 14) leaves b* = 6.4; the next seed 0.5
			// sets b* = 0.4, so 0.45 extends and 0.1 opens a third group.
			name: "reseed", q: members(8, 8, 1, 0.5, 0.45, 0.1), p: 1, eta: 0.2,
			want: [][]int{{0, 1}, {2, 3, 4}, {5}},
		},
		{
			// fewer than p+1 workers: a single short group.
			name: "short", q: members(2, 1), p: 4, eta: 0.3,
			want: [][]int{{0, 1}},
		},
		{name: "empty", q: nil, p: 2, eta: 0.3, want: [][]int{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := append([]Member(nil), c.q...)
			got := ids(BAG(c.q, c.p, c.eta))
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("BAG = %v, want %v", got, c.want)
			}
			if !reflect.DeepEqual(before, c.q) && len(c.q) > 0 {
				t.Error("BAG modified its input")
			}
		})
	}
}

func TestCostModel(t *testing.T) {
	// 500 MB over 8 workers at 10 Gbps, alpha 1 ms:
	// ring: 2*7*1ms + 2*7/8*4e9/1e10 = 0.014 + 0.7 = 0.714 s
	// approx: 2*8*1ms + 2*4e9/1e10 = 0.016 + 0.8 = 0.816 s
	if got := CostRing.Time(8, 500e6, 10e9, 1e-3); abs(got-0.714) > 1e-12 {
		t.Errorf("ring = %v, want 0.714", got)
	}
	if got := CostApprox.Time(8, 500e6, 10e9, 1e-3); abs(got-0.816) > 1e-12 {
		t.Errorf("approx = %v, want 0.816", got)
	}
	if got := CostRing.Time(1, 500e6, 10e9, 1e-3); got != 0 {
		t.Errorf("single worker = %v, want 0", got)
	}
	if _, err := ParseCostModel("tree"); err == nil {
		t.Error("ParseCostModel(tree): want an error")
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestBAGGroupsIndependent: Alg. 3 appends g_delta to the next group;
// appending to one group must not overwrite another.
func TestBAGGroupsIndependent(t *testing.T) {
	gs := BAG(members(10, 9, 8, 1, 0.9, 0.8), 1, 0.1)
	before := ids(gs)
	if !reflect.DeepEqual(before, [][]int{{0, 1}, {2, 3, 4}, {5}}) {
		t.Fatalf("groups %v", before)
	}
	gs[0] = append(gs[0], Member{ID: 98, BW: 1})
	gs[1] = append(gs[1], Member{ID: 99, BW: 1})
	after := ids(gs)
	if !reflect.DeepEqual(after[1][:3], before[1]) || !reflect.DeepEqual(after[2], before[2]) {
		t.Errorf("appending changed later groups: %v -> %v", before, after)
	}
}
