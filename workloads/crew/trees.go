package crew

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"syncsim/workloads/collective"
)

// Tree is a spanning tree over some workers: Parent[k] is the index (in
// Nodes) of Nodes[k]'s parent, -1 for the root.
type Tree struct {
	Nodes  []int
	Parent []int
}

// collective converts t to the collective package's rooted tree over
// t.Nodes' indexes.
func (t Tree) collective() collective.Tree {
	ct := collective.Tree{Root: -1, Parent: append([]int(nil), t.Parent...), Children: make([][]int, len(t.Parent))}
	for v, p := range t.Parent {
		if p < 0 {
			ct.Root = v
			continue
		}
		ct.Children[p] = append(ct.Children[p], v)
	}
	return ct
}

// edgeCap is the capacity a tree edge u-v offers an all-reduce: the
// reduction crosses it one way and the broadcast the other, each at the
// tree's rate, so it is min(b_uv, b_vu).
func edgeCap(bw Matrix, u, v int) float64 { return min(bw[u][v], bw[v][u]) }

// spanningTree returns the minimum spanning tree of nodes under the edge
// lengths length(u, v) (Prim from nodes[0]), as parent indexes.
func spanningTree(nodes []int, length func(u, v int) float64) []int {
	n := len(nodes)
	parent := make([]int, n)
	best := make([]float64, n)
	in := make([]bool, n)
	for i := range best {
		best[i], parent[i] = math.Inf(1), -1
	}
	best[0] = 0
	for step := 0; step < n; step++ {
		u := -1
		for i := range nodes {
			if !in[i] && (u < 0 || best[i] < best[u]) {
				u = i
			}
		}
		in[u] = true
		for v := range nodes {
			if in[v] {
				continue
			}
			if l := length(nodes[u], nodes[v]); l < best[v] {
				best[v], parent[v] = l, u
			}
		}
	}
	return parent
}

// reroot orients an undirected tree (given as parent indexes from any
// root) at its centre, the node that minimises the height, so that the
// pipelined all-reduce crosses as few hops as possible.
func reroot(parent []int) []int {
	n := len(parent)
	adj := make([][]int, n)
	for v, p := range parent {
		if p >= 0 {
			adj[v] = append(adj[v], p)
			adj[p] = append(adj[p], v)
		}
	}
	orient := func(root int) ([]int, int) {
		par := make([]int, n)
		depth := make([]int, n)
		for i := range par {
			par[i] = -2
		}
		par[root] = -1
		queue := []int{root}
		h := 0
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			h = max(h, depth[u])
			for _, v := range adj[u] {
				if par[v] == -2 {
					par[v], depth[v] = u, depth[u]+1
					queue = append(queue, v)
				}
			}
		}
		return par, h
	}
	bestPar, bestH := orient(0)
	for r := 1; r < n; r++ {
		if par, h := orient(r); h < bestH {
			bestPar, bestH = par, h
		}
	}
	return bestPar
}

// edges lists a tree's edges as (lower, higher) worker pairs.
func (t Tree) edges() [][2]int {
	var out [][2]int
	for k, p := range t.Parent {
		if p >= 0 {
			u, v := t.Nodes[k], t.Nodes[p]
			out = append(out, [2]int{min(u, v), max(u, v)})
		}
	}
	return out
}

// BlinkTrees is our BLINK-like plan for an all-reduce over P (Sec. V-A;
// Wang et al., MLSys 2020). BLINK packs spanning trees at rates that
// respect link capacities and spreads the data over them; its code for
// this setting is not public, so we approximate it:
//
//  1. candidate trees by multiplicative-weight packing (Garg-Könemann):
//     60 rounds, each taking the minimum spanning tree under edge lengths
//     that start at 1/c_e and grow by (1 + 0.1 c_min/c_e) on every edge of
//     the chosen tree, c_e = min(b_uv, b_vu);
//  2. an LP (gonum's simplex) maximising the total rate sum y_t subject to
//     sum over trees through e of y_t <= c_e on every edge;
//  3. the five trees of largest rate, the LP re-solved over them (the
//     paper's MILP picks five trees; this is its LP-rounding
//     approximation);
//  4. the model split among the kept trees in proportion to their rates,
//     each tree rooted at its centre.
//
// It returns the trees and their shares of the model.
func BlinkTrees(bw Matrix, P []int) ([]Tree, []float64) {
	if len(P) == 1 {
		return []Tree{{Nodes: []int{P[0]}, Parent: []int{-1}}}, []float64{1}
	}
	length := map[[2]int]float64{}
	key := func(u, v int) [2]int { return [2]int{min(u, v), max(u, v)} }
	cmin := math.Inf(1)
	for _, u := range P {
		for _, v := range P {
			if u < v {
				c := edgeCap(bw, u, v)
				cmin = min(cmin, c)
				length[key(u, v)] = 1 / c
			}
		}
	}
	var cands []Tree
	seen := map[string]bool{}
	for round := 0; round < 60; round++ {
		par := spanningTree(P, func(u, v int) float64 { return length[key(u, v)] })
		t := Tree{Nodes: P, Parent: par}
		sig := treeSignature(t)
		if !seen[sig] {
			seen[sig] = true
			cands = append(cands, t)
		}
		for _, e := range t.edges() {
			length[e] *= 1 + 0.1*cmin/edgeCap(bw, e[0], e[1])
		}
	}
	y := packTrees(bw, cands)
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case y[a] > y[b]:
			return -1
		case y[a] < y[b]:
			return 1
		}
		return 0
	})
	var kept []Tree
	for _, i := range order {
		if len(kept) == 5 || y[i] <= 0 {
			break
		}
		kept = append(kept, cands[i])
	}
	if len(kept) == 0 {
		kept = cands[:1]
	}
	y = packTrees(bw, kept)
	total := 0.0
	for _, v := range y {
		total += v
	}
	var trees []Tree
	var share []float64
	for i, t := range kept {
		if y[i] <= 0 {
			continue
		}
		trees = append(trees, Tree{Nodes: t.Nodes, Parent: reroot(t.Parent)})
		share = append(share, y[i]/total)
	}
	if len(trees) == 0 {
		return []Tree{{Nodes: kept[0].Nodes, Parent: reroot(kept[0].Parent)}}, []float64{1}
	}
	return trees, share
}

func treeSignature(t Tree) string {
	e := t.edges()
	slices.SortFunc(e, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	b := make([]byte, 0, 8*len(e))
	for _, x := range e {
		b = append(b, byte(x[0]), byte(x[0]>>8), byte(x[1]), byte(x[1]>>8))
	}
	return string(b)
}

// packTrees solves max sum y_t s.t. per edge sum y_t <= c_e (gonum's
// simplex, standard form with one slack per edge). On a solver failure it
// falls back to the best single tree at its bottleneck rate.
func packTrees(bw Matrix, trees []Tree) []float64 {
	edgeIdx := map[[2]int]int{}
	var caps []float64
	for _, t := range trees {
		for _, e := range t.edges() {
			if _, ok := edgeIdx[e]; !ok {
				edgeIdx[e] = len(caps)
				caps = append(caps, edgeCap(bw, e[0], e[1]))
			}
		}
	}
	T, E := len(trees), len(caps)
	// Scale rates to Mbit/s for conditioning.
	A := mat.NewDense(E, T+E, nil)
	b := make([]float64, E)
	c := make([]float64, T+E)
	for i, t := range trees {
		c[i] = -1
		for _, e := range t.edges() {
			A.Set(edgeIdx[e], i, 1)
		}
	}
	for e := 0; e < E; e++ {
		A.Set(e, T+e, 1)
		b[e] = caps[e] / 1e6
	}
	basis := make([]int, E)
	for e := range basis {
		basis[e] = T + e // all slacks: y = 0 is feasible
	}
	y := make([]float64, T)
	if x, err := simplexOnce(c, A, b, 1e-9, basis); err == nil {
		for i := range y {
			y[i] = max(x[i], 0) * 1e6
		}
		return y
	}
	bestI, bestR := 0, 0.0
	for i, t := range trees {
		r := math.Inf(1)
		for _, e := range t.edges() {
			r = min(r, edgeCap(bw, e[0], e[1]))
		}
		if r > bestR {
			bestI, bestR = i, r
		}
	}
	y[bestI] = bestR
	return y
}

// ToATree is our TopoAdopt-like plan (Luo et al., ENAT 2023, "extended to
// support the all reduce requirement of P, straightforwardly", Sec. V-A):
// one spanning tree over P found by simulated annealing. The code is not
// public, so we approximate it: the state is a rooted spanning tree, the
// cost is the estimated time of a pipelined tree all-reduce of modelBits
// in segs segments,
//
//	S / c_min + 2 h S / (segs c_min) + 2 d_max,
//
// with c_min the tree's bottleneck min(b_uv, b_vu), h its height and
// d_max its largest root-to-leaf latency (delay, seconds); a move
// re-attaches a random non-root node under a random node outside its
// subtree; Metropolis acceptance with a temperature starting at a tenth
// of the initial cost and multiplied by 0.995 per step; steps moves from
// the maximum-bottleneck spanning tree rooted at its centre.
func ToATree(bw Matrix, delay [][]float64, P []int, modelBits float64, segs, steps int, r *rand.Rand) Tree {
	n := len(P)
	par := reroot(spanningTree(P, func(u, v int) float64 { return -edgeCap(bw, u, v) }))
	if n <= 2 {
		return Tree{Nodes: P, Parent: par}
	}
	cost := func(par []int) float64 {
		cmin := math.Inf(1)
		h, dmax := 0, 0.0
		for v := range par {
			d, lat := 0, 0.0
			for u := v; par[u] >= 0; u = par[u] {
				cmin = min(cmin, edgeCap(bw, P[u], P[par[u]]))
				lat += delay[P[u]][P[par[u]]]
				d++
			}
			h, dmax = max(h, d), max(dmax, lat)
		}
		return modelBits/cmin + 2*float64(h)*modelBits/(float64(segs)*cmin) + 2*dmax
	}
	inSubtree := func(par []int, v, u int) bool { // is u in v's subtree?
		for ; u >= 0; u = par[u] {
			if u == v {
				return true
			}
		}
		return false
	}
	cur := append([]int(nil), par...)
	curCost := cost(cur)
	best, bestCost := append([]int(nil), cur...), curCost
	temp := curCost / 10
	next := make([]int, n)
	for s := 0; s < steps; s++ {
		v := r.IntN(n)
		if cur[v] < 0 {
			continue
		}
		u := r.IntN(n)
		if u == cur[v] || inSubtree(cur, v, u) {
			continue
		}
		copy(next, cur)
		next[v] = u
		c := cost(next)
		if c < curCost || r.Float64() < math.Exp((curCost-c)/temp) {
			copy(cur, next)
			curCost = c
			if c < bestCost {
				copy(best, cur)
				bestCost = c
			}
		}
		temp *= 0.995
	}
	return Tree{Nodes: P, Parent: best}
}
