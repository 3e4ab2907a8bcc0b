package network

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"syncsim/experiments/exptest"
	"syncsim/netsim"
	"syncsim/topologies"
	"syncsim/transport"
)

// colourBipartite colours the edges of a bipartite multigraph (edge i
// joins left[i] and right[i]) with d colours so that no two edges at a
// vertex share one, which König's theorem guarantees when no vertex has
// more than d edges. Each edge takes a colour free at both ends, after
// swapping the two colours along an alternating path if need be (the
// classical proof's construction).
func colourBipartite(nl, nr int, left, right []int, d int) ([]int, error) {
	col := make([]int, len(left))
	atL := make([][]int, nl) // atL[u][c]: the edge of colour c at u, -1 if none
	atR := make([][]int, nr)
	for u := range atL {
		atL[u] = fill(d)
	}
	for v := range atR {
		atR[v] = fill(d)
	}
	free := func(at []int) int {
		for c, e := range at {
			if e < 0 {
				return c
			}
		}
		return -1
	}
	for e := range left {
		u, v := left[e], right[e]
		a, b := free(atL[u]), free(atR[v])
		if a < 0 || b < 0 {
			return nil, fmt.Errorf("vertex degree above %d", d)
		}
		if atR[v][a] >= 0 {
			// Swap a and b along the path from v that alternates a, b, a...
			// It cannot reach u (a is free there and the graph is
			// bipartite), so afterwards a is free at both ends.
			var path []int
			x, onRight, c := v, true, a
			for {
				var f int
				if onRight {
					f = atR[x][c]
				} else {
					f = atL[x][c]
				}
				if f < 0 {
					break
				}
				path = append(path, f)
				if onRight {
					x = left[f]
				} else {
					x = right[f]
				}
				onRight = !onRight
				c = a + b - c
			}
			for _, f := range path {
				atL[left[f]][col[f]], atR[right[f]][col[f]] = -1, -1
			}
			for _, f := range path {
				col[f] = a + b - col[f]
				atL[left[f]][col[f]], atR[right[f]][col[f]] = f, f
			}
		}
		col[e] = a
		atL[u][a], atR[v][a] = e, e
	}
	return col, nil
}

func fill(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = -1
	}
	return s
}

// TestColourBipartite: a proper colouring of random regular bipartite
// multigraphs with as many colours as their degree.
func TestColourBipartite(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		const n, d = 12, 4
		var left, right []int
		for r := 0; r < d; r++ {
			p := derangement(rand.New(rand.NewPCG(seed, uint64(r))), n)
			for u, v := range p {
				left, right = append(left, u), append(right, v)
			}
		}
		col, err := colourBipartite(n, n, left, right, d)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[[3]int]bool{}
		for e, c := range col {
			if c < 0 || c >= d || seen[[3]int{0, left[e], c}] || seen[[3]int{1, right[e], c}] {
				t.Fatalf("seed %d: edge %d colour %d clashes", seed, e, c)
			}
			seen[[3]int{0, left[e], c}], seen[[3]int{1, right[e], c}] = true, true
		}
	}
}

// hop is the aggregation and core switch a flow's path is to cross (-1:
// none).
type hop struct{ agg, core netsim.NodeID }

// collisionFree assigns each flow i -> dst[i] of a permutation on a
// full-bisection fat-tree an aggregation and a core switch such that no
// two flows share a cable in the direction of their data: a flow between
// edges takes aggregation switch a (its colour in the multigraph of
// source and destination edges, degree k/2) and, between pods, core
// a*(k/2)+j (its colour j in the multigraph of source and destination
// pods among colour a's flows, degree at most k/2).
func collisionFree(t *testing.T, f *topologies.Fabric, dst []int, k int) []hop {
	t.Helper()
	h := k / 2
	hops := make([]hop, len(dst))
	var flows, left, right []int
	for i, d := range dst {
		hops[i] = hop{-1, -1}
		gs, gd := f.GroupOf(f.Hosts[i].ID()), f.GroupOf(f.Hosts[d].ID())
		if gs != gd {
			flows, left, right = append(flows, i), append(left, gs), append(right, gd)
		}
	}
	agg, err := colourBipartite(f.Groups(), f.Groups(), left, right, h)
	if err != nil {
		t.Fatal(err)
	}
	for a := 0; a < h; a++ {
		var idx, pl, pr []int
		for e := range flows {
			ps, pd := f.Pod(left[e]), f.Pod(right[e])
			if agg[e] == a && ps != pd {
				idx, pl, pr = append(idx, e), append(pl, ps), append(pr, pd)
			}
		}
		cs, err := colourBipartite(k, k, pl, pr, h)
		if err != nil {
			t.Fatal(err)
		}
		for j, e := range idx {
			hops[flows[e]].core = f.Core[a*h+cs[j]].ID()
		}
	}
	for e, i := range flows {
		hops[i].agg = f.Agg[f.Pod(left[e])*h+agg[e]].ID()
	}
	return hops
}

// crosses reports whether the path of flow id from src to dst crosses
// the switches of want.
func crosses(t *testing.T, f *topologies.Fabric, src, dst netsim.NodeID, id uint64, want hop) bool {
	links, err := f.Net.Path(src, dst, id)
	if err != nil {
		t.Fatal(err)
	}
	if want.agg < 0 {
		return true
	}
	return f.Net.Link(links[1]).To == want.agg && (want.core < 0 || f.Net.Link(links[2]).To == want.core)
}

// permutationRoutes returns, for each host i, a flow identifier whose
// ECMP hashes route its data to hosts dst[i] and the acknowledgements
// back (the same identifier) along collision-free paths (collisionFree
// of the permutation and of its inverse), so that each direction of
// each cable carries at most one flow's data and one flow's ACKs, as a
// host's NIC does.
func permutationRoutes(t *testing.T, f *topologies.Fabric, dst []int, k int) []uint64 {
	t.Helper()
	inv := make([]int, len(dst))
	for i, d := range dst {
		inv[d] = i
	}
	fwd, back := collisionFree(t, f, dst, k), collisionFree(t, f, inv, k)
	ids := make([]uint64, len(dst))
	used := map[uint64]bool{}
	for i, d := range dst {
		src, to := f.Hosts[i].ID(), f.Hosts[d].ID()
		for id := uint64(1); ; id++ {
			if !used[id] && crosses(t, f, src, to, id, fwd[i]) && crosses(t, f, to, src, id, back[d]) {
				ids[i], used[id] = id, true
				break
			}
		}
	}
	// No direction of any cable carries two flows' data, or two flows'
	// ACKs.
	data, acks := map[netsim.LinkID]int{}, map[netsim.LinkID]int{}
	for i, d := range dst {
		for m, ends := range [][2]int{{i, d}, {d, i}} {
			links, _ := f.Net.Path(f.Hosts[ends[0]].ID(), f.Hosts[ends[1]].ID(), ids[i])
			load := []map[netsim.LinkID]int{data, acks}[m]
			for _, l := range links {
				if load[l]++; load[l] > 1 {
					t.Fatalf("link %d carries two flows", l)
				}
			}
		}
	}
	return ids
}

// TestFatTreeFullBisection: a k-ary fat-tree has full bisection bandwidth
// (Al-Fares et al. 2008, Sec. 3.2), so a permutation routed without
// collisions runs every flow at its NIC's line rate. At k = 4 and 8 with
// 10 Gbps links, every flow of a random permutation moves 2.5 MB under
// DCTCP and under NewReno, pinned by its flow identifier to a path that
// shares no cable with another flow's data, nor its ACKs' path with
// another flow's ACKs (permutationRoutes), and
// finishes at no less than 95 % of the payload rate a NIC that also
// returns another flow's ACKs can carry, 10 Gbps x 1460/1540 (the bound
// of TestPermutationStarLineRate), slow start included. The same flows
// under the ECMP hash's own identifiers collide in the core, as flow
// hashing does (Al-Fares et al. Sec. 2.2), and the slowest falls below
// 70 %: the routing, not the fabric, limits a hashed permutation.
func TestFatTreeFullBisection(t *testing.T) {
	const size = 2500 * 1000
	bound := 10e9 * 1460 / 1540
	for _, k := range []int{4, 8} {
		for _, cc := range []string{"dctcp", "newreno"} {
			for _, pinned := range []bool{true, false} {
				if !pinned && cc == "newreno" {
					continue
				}
				name := fmt.Sprintf("k=%d/%s/pinned=%v", k, cc, pinned)
				t.Run(name, func(t *testing.T) {
					if testing.Short() && k == 8 {
						t.Skip("k = 8 takes seconds")
					}
					sim := netsim.New(uint64(k))
					net := netsim.NewNetwork(sim)
					c := topologies.DefaultFatTree()
					c.K, c.HostsPerEdge = k, k/2
					c.HostRate, c.FabricRate = 10*netsim.Gbps, 10*netsim.Gbps
					c.Queue.ECNPackets = 65
					f, err := topologies.FatTree(net, c)
					if err != nil {
						t.Fatal(err)
					}
					dst := derangement(sim.Rand("permutation/pairs"), len(f.Hosts))
					ids := make([]uint64, len(dst))
					if pinned {
						ids = permutationRoutes(t, f, dst, k)
					} else {
						for i := range ids {
							ids[i] = uint64(i + 1)
						}
					}
					tc := transport.DefaultConfig()
					if tc.CC, err = transport.ParseCC(cc); err != nil {
						t.Fatal(err)
					}
					st := transport.NewStack(net, tc)
					end := make([]netsim.Time, len(dst))
					for i, d := range dst {
						st.Send(f.Hosts[i].ID(), f.Hosts[d].ID(), size, netsim.BulkOpts{ID: ids[i]}, func() { end[i] = sim.Now() })
					}
					sim.Run(20 * netsim.Millisecond)
					slowest := math.Inf(1)
					for i, e := range end {
						if e == 0 {
							t.Fatalf("flow %d did not finish", i)
						}
						slowest = math.Min(slowest, size*8/e.Seconds())
					}
					if pinned && slowest < 0.95*bound {
						t.Errorf("slowest flow %.2f Gbit/s, want at least 0.95 x %.2f", slowest/1e9, bound/1e9)
					}
					if !pinned && slowest > 0.7*bound {
						t.Errorf("hashed: slowest flow %.2f Gbit/s; collisions should hold one below 0.7 x %.2f", slowest/1e9, bound/1e9)
					}
					t.Logf("%s: slowest flow %.2f Gbit/s (%.3f of the bound)", name, slowest/1e9, slowest/bound)
				})
			}
		}
	}
}

// TestFatTreeFileRunsAsBuilt: a permutation on the fat-tree that
// topology=fattree builds and on the same fat-tree read from the file
// scripts/topo/fattree writes (topologies.WriteFatTree) gives identical
// metrics at the same seed.
func TestFatTreeFileRunsAsBuilt(t *testing.T) {
	c := topologies.DefaultFatTree()
	c.K, c.HostsPerEdge = 4, 2
	c.HostRate, c.FabricRate = 10*netsim.Gbps, 10*netsim.Gbps
	path := filepath.Join(t.TempDir(), "ft4.txt")
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := topologies.WriteFatTree(fh, c); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
	common := []string{"host_gbps=10", "fabric_gbps=10", "duration_ms=1", "flow_kb=100", "start_jitter_us=20"}
	built := runExp(t, "permutation", 3, append(common, "topology=fattree", "k=4")...).Metrics
	read := runExp(t, "permutation", 3, append(common, "topology_file="+path)...).Metrics
	exptest.SameMetrics(t, [2]string{"built", "file"}, built, read)
	if built["flows_done"] != 16 || built["data_pkts"] == 0 {
		t.Errorf("flows_done %v, data_pkts %v", built["flows_done"], built["data_pkts"])
	}
}
