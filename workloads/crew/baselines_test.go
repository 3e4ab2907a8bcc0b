package crew

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"syncsim/netsim"
)

func TestChoosePS(t *testing.T) {
	ms := netsim.Millisecond
	// Worker 2 has the best average (b_2j + b_j2)/2; workers 0 and 1 tie
	// below it.
	bw := Matrix{{0, 10, 40}, {10, 0, 40}, {40, 40, 0}}
	if got := ChoosePS(bw, ConstLatency(3, ms)); got != 2 {
		t.Errorf("server %d, want 2", got)
	}
	// All tie on bandwidth: the smallest average latency wins (worker 1).
	eq := Matrix{{0, 10, 10}, {10, 0, 10}, {10, 10, 0}}
	lat := [][]netsim.Time{{0, 5 * ms, 9 * ms}, {5 * ms, 0, 1 * ms}, {9 * ms, 1 * ms, 0}}
	if got := ChoosePS(eq, lat); got != 1 {
		t.Errorf("server %d, want 1 (latencies 7, 3, 5 ms)", got)
	}
}

func TestGreedyRing(t *testing.T) {
	// From any start the ring follows the widest next hop: 0 -> 2 (9)
	// -> 1 (8, the only one left) ... and from 1: 1 -> 3 (7) -> 0 (6) -> 2.
	bw := Matrix{
		{0, 1, 9, 2},
		{3, 0, 1, 7},
		{1, 8, 0, 2},
		{6, 1, 5, 0},
	}
	P := []int{0, 1, 2, 3}
	starts := map[int][]int{0: {0, 2, 1, 3}, 1: {1, 3, 0, 2}, 2: {2, 1, 3, 0}, 3: {3, 0, 2, 1}}
	r := rand.New(rand.NewPCG(1, 1))
	seen := map[int]bool{}
	for k := 0; k < 50; k++ {
		ring := GreedyRing(bw, P, r)
		if want := starts[ring[0]]; !slices.Equal(ring, want) {
			t.Fatalf("ring %v, want %v", ring, want)
		}
		seen[ring[0]] = true
	}
	if len(seen) < 3 {
		t.Errorf("starts %v: the start is not random", seen)
	}
}

// checkTree fails unless tr is a spanning tree over P with one root.
func checkTree(t *testing.T, tr Tree, P []int) {
	t.Helper()
	if !slices.Equal(tr.Nodes, P) || len(tr.Parent) != len(P) {
		t.Fatalf("tree over %v, want %v", tr.Nodes, P)
	}
	roots := 0
	for v := range tr.Parent {
		if tr.Parent[v] < 0 {
			roots++
			continue
		}
		u, steps := v, 0
		for tr.Parent[u] >= 0 {
			u = tr.Parent[u]
			if steps++; steps > len(P) {
				t.Fatalf("cycle through %d", v)
			}
		}
	}
	if roots != 1 {
		t.Fatalf("%d roots", roots)
	}
}

// TestBlinkTrees: up to five spanning trees over P whose LP rates respect
// every edge capacity min(b_uv, b_vu) and whose shares sum to 1; their
// total rate is at least the best single tree's bottleneck (the maximum
// spanning tree's), since the LP could always pick that tree alone.
func TestBlinkTrees(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	for trial := 0; trial < 20; trial++ {
		bw, err := N1(r, PlaceRegions(r, 12), N1Pooled)
		if err != nil {
			t.Fatal(err)
		}
		P := r.Perm(12)[:2+r.IntN(9)]
		trees, share := BlinkTrees(bw, P)
		if len(trees) == 0 || len(trees) > 5 || len(share) != len(trees) {
			t.Fatalf("%d trees, %d shares", len(trees), len(share))
		}
		sum := 0.0
		for i, tr := range trees {
			checkTree(t, tr, P)
			if share[i] <= 0 {
				t.Errorf("share %v", share[i])
			}
			sum += share[i]
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("shares sum to %v", sum)
		}
		y := packTrees(bw, trees)
		load := map[[2]int]float64{}
		total := 0.0
		for i, tr := range trees {
			total += y[i]
			for _, e := range tr.edges() {
				load[e] += y[i]
			}
		}
		for e, l := range load {
			if c := edgeCap(bw, e[0], e[1]); l > c*(1+1e-6) {
				t.Errorf("edge %v carries %v over capacity %v", e, l, c)
			}
		}
		best := spanningTree(P, func(u, v int) float64 { return -edgeCap(bw, u, v) })
		bottleneck := math.Inf(1)
		for _, e := range (Tree{Nodes: P, Parent: best}).edges() {
			bottleneck = min(bottleneck, edgeCap(bw, e[0], e[1]))
		}
		if total < bottleneck*(1-1e-6) {
			t.Errorf("packed rate %v below the best single tree's %v", total, bottleneck)
		}
	}
}

// TestToATree: the annealed tree spans P and is at least as good as the
// maximum-bottleneck tree it starts from, under its own cost.
func TestToATree(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	for trial := 0; trial < 10; trial++ {
		n := 10
		reg := PlaceRegions(r, n)
		bw, err := N1(r, reg, N1Pooled)
		if err != nil {
			t.Fatal(err)
		}
		lat, err := AWSLatency(reg)
		if err != nil {
			t.Fatal(err)
		}
		d := make([][]float64, n)
		for i := range d {
			d[i] = make([]float64, n)
			for j := range d[i] {
				d[i][j] = lat[i][j].Seconds()
			}
		}
		P := r.Perm(n)[:6]
		tr := ToATree(bw, d, P, 8*180e6, 16, 2000, r)
		checkTree(t, tr, P)
		start := ToATree(bw, d, P, 8*180e6, 16, 0, r)
		if c, c0 := treeCost(bw, d, tr, 8*180e6, 16), treeCost(bw, d, start, 8*180e6, 16); c > c0*(1+1e-12) {
			t.Errorf("annealed cost %v above the start's %v", c, c0)
		}
	}
}

// treeCost recomputes ToA's cost independently.
func treeCost(bw Matrix, d [][]float64, tr Tree, S float64, segs int) float64 {
	cmin, h, dmax := math.Inf(1), 0, 0.0
	for v := range tr.Parent {
		depth, lat := 0, 0.0
		for u := v; tr.Parent[u] >= 0; u = tr.Parent[u] {
			a, b := tr.Nodes[u], tr.Nodes[tr.Parent[u]]
			cmin = min(cmin, bw[a][b], bw[b][a])
			lat += d[a][b]
			depth++
		}
		h, dmax = max(h, depth), max(dmax, lat)
	}
	return S/cmin + 2*float64(h)*S/(float64(segs)*cmin) + 2*dmax
}

// TestSingleHandWorked: one partial reduce on a uniform 100 Mbit/s mesh of
// n = 4 without latency, P = {0, 1}, an 8 Mbit (1 MB) model, FL.
//
//	CREW (LP: 1/4 each): 2 Mbit blocks, scatter 20 ms, multicast 20 ms: 40 ms.
//	OPR (1/2 each over P): 4 Mbit blocks, 40 + 40 ms: 80 ms.
//	A2A: 8 Mbit each way: 80 ms.
//	PS: the server is worker 0 (all tie: lowest index): worker 1 pushes 8
//	    Mbit (80 ms), the server pulls back 8 Mbit (80 ms): 160 ms.
//	Ring of 2: 2 steps of 4 Mbit each way: 80 ms.
//	BLINK and ToA: the one tree 0-1 in 4 segments of 2 Mbit (20 ms):
//	    segment q reaches the root at 20q ms (FL serialises them) and comes
//	    back down behind the previous one: the last arrives at 100 ms.
func TestSingleHandWorked(t *testing.T) {
	ms := netsim.Millisecond
	for _, tc := range []struct {
		s    Scheme
		want netsim.Time
	}{{CREW, 40 * ms}, {OPR, 80 * ms}, {A2A, 80 * ms}, {PS, 160 * ms}, {Ring, 80 * ms}, {BLINK, 100 * ms}, {ToA, 100 * ms}} {
		t.Run(tc.s.String(), func(t *testing.T) {
			nt := uniformNet(t, 4, 100e6, FL)
			opt := Options{Scheme: tc.s, P: 2, Model: netsim.Megabyte, Chunks: 100, TreeSegments: 4, AnnealSteps: 100}
			res, err := RunSingle(nt, opt, nil, []int{0, 1}, rand.New(rand.NewPCG(1, 1)))
			if err != nil {
				t.Fatal(err)
			}
			if d := res.Time - tc.want; d < 0 || d > 10 {
				t.Errorf("took %v, want %v", res.Time, tc.want)
			}
			if err := nt.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
