package collective

import (
	"fmt"
	"slices"
	"testing"

	"syncsim/netsim"
)

// The trees NCCL draws in src/graph/trees.cc (ncclGetBtree and
// ncclGetDtree), written out as parent lists.
func TestNCCLTreesMatchTheirIllustrations(t *testing.T) {
	cases := []struct {
		name   string
		tree   func() Tree
		root   int
		parent []int
	}{
		// 0 - 4 - {2 - {1, 3}, 6 - {5, 7}}
		{"btree n=8", func() Tree { return NCCLBtree(8) }, 0, []int{-1, 2, 4, 2, 0, 6, 4, 6}},
		// 0 - 8 - {4 - {2 - {1, 3}, 6 - {5, 7}}, 12 - {10 - {9, 11}, 13}}
		{"btree n=14", func() Tree { return NCCLBtree(14) }, 0, []int{-1, 2, 4, 2, 8, 6, 4, 6, 0, 10, 12, 10, 8, 12}},
		// The mirror for even n: 11 - 3 - {1 - {0, 2}, 7 - {5 - {4, 6}, 9 - {8, 10}}}.
		{"dtree n=12 second", func() Tree { return NCCLDoubleTree(12)[1] }, 11, []int{1, 3, 1, 11, 5, 7, 5, 3, 9, 7, 9, -1}},
		// The shift for odd n: 1 - 9 - {5 - {3 - {2, 4}, 7 - {6, 8}}, 0 - {11 - {10, 12}}}.
		{"dtree n=13 second", func() Tree { return NCCLDoubleTree(13)[1] }, 1, []int{9, -1, 3, 5, 3, 9, 7, 5, 7, 1, 11, 0, 11}},
		{"btree n=1", func() Tree { return NCCLBtree(1) }, 0, []int{-1}},
		{"btree n=2", func() Tree { return NCCLBtree(2) }, 0, []int{-1, 0}},
		{"chain n=4", func() Tree { return ChainTree(4) }, 0, []int{-1, 0, 1, 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := tc.tree()
			if tr.Root != tc.root || !slices.Equal(tr.Parent, tc.parent) {
				t.Fatalf("root %d parents %v, want root %d parents %v", tr.Root, tr.Parent, tc.root, tc.parent)
			}
			if err := tr.check(len(tc.parent)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Every rank is a leaf of at least one of the two trees when n is even
// (odd ranks in the first, even ranks in the mirror), and both trees are
// valid for every n.
func TestNCCLDoubleTreeShape(t *testing.T) {
	for n := 1; n <= 40; n++ {
		dt := NCCLDoubleTree(n)
		for i, tr := range dt {
			if err := tr.check(n); err != nil {
				t.Fatalf("n=%d tree %d: %v", n, i, err)
			}
			for r := range tr.Children {
				if len(tr.Children[r]) > 2 {
					t.Fatalf("n=%d tree %d: rank %d has %d children", n, i, r, len(tr.Children[r]))
				}
			}
		}
		if n%2 == 0 {
			for r := 0; r < n; r++ {
				if len(dt[0].Children[r]) > 0 && len(dt[1].Children[r]) > 0 {
					t.Fatalf("n=%d: rank %d is an inner node of both trees", n, r)
				}
			}
		}
	}
}

// A pipelined chain broadcast or reduce of k chunks over n hosts of a
// star: chunk c reaches depth d after c + d steps of alpha + chunk/B, and
// no two sends share a cable direction, so the operation takes exactly
// (k + n - 2) steps.
func TestChainPipelineHandComputed(t *testing.T) {
	for _, op := range []TreeOp{TreeBroadcast, TreeReduce} {
		for _, c := range []struct{ n, k int }{{2, 1}, {2, 8}, {5, 1}, {5, 16}} {
			t.Run(fmt.Sprintf("op=%d n=%d k=%d", op, c.n, c.k), func(t *testing.T) {
				const size = 16 * netsim.Megabyte
				sim, eng, hosts := fluidStar(c.n, rate, delay)
				got := runTimed(t, sim, func(done func()) error {
					return PipelinedTree(sim, eng, hosts, ChainTree(c.n), op, size, c.k, netsim.BulkOpts{StartLatency: lat}, done)
				})
				step := alpha + netsim.TxTime(size/netsim.Bytes(c.k), rate)
				want := netsim.Time(c.k+c.n-2) * step
				if d := got - want; d < 0 || d > netsim.Time(c.k+c.n) {
					t.Errorf("took %v, want %v", got, want)
				}
				if w := netsim.Bytes(c.n-1) * size; eng.BytesDelivered() != w {
					t.Errorf("moved %d bytes, want %d", eng.BytesDelivered(), w)
				}
			})
		}
	}
}

// NCCL's double binary tree all-reduce on a star against Table II's
// 2(log N + k) alpha + 2(log N + k) S beta / k: once the pipeline is full,
// a rank's NIC carries half the buffer once per tree edge it has (up to its
// parent, down to each child), 2S each way for an inner node with two
// children (every rank but 0 once n >= 4), and filling and draining the two
// trees costs a few chunk steps. The simulated time lies between the
// bandwidth bound of the busiest NIC and the table's formula with log N
// rounded up, and every edge carries the half buffer once each way
// (2(n-1) S bytes in all).
func TestDoubleTreeAllReduceAgainstTableII(t *testing.T) {
	for _, c := range []struct{ n, k int }{{2, 16}, {4, 16}, {8, 32}, {8, 64}, {7, 32}, {16, 64}} {
		t.Run(fmt.Sprintf("n=%d k=%d", c.n, c.k), func(t *testing.T) {
			const size = 64 * netsim.Megabyte
			sim, eng, hosts := fluidStar(c.n, rate, delay)
			got := runTimed(t, sim, func(done func()) error {
				return TreeAllReduceNCCL(sim, eng, hosts, size, c.k, netsim.BulkOpts{StartLatency: lat}, done)
			})
			logN := 0
			for 1<<logN < c.n {
				logN++
			}
			beta := netsim.TxTime(size, rate)
			var busiest netsim.Bytes
			for r := 0; r < c.n; r++ {
				var out netsim.Bytes
				for _, tr := range NCCLDoubleTree(c.n) {
					edges := len(tr.Children[r])
					if tr.Parent[r] >= 0 {
						edges++
					}
					out += netsim.Bytes(edges) * size / 2
				}
				busiest = max(busiest, out)
			}
			lower := netsim.TxTime(busiest, rate)
			table := netsim.Time(2*(logN+c.k))*alpha + netsim.Time(2*(logN+c.k))*beta/netsim.Time(c.k)
			t.Logf("simulated %v, bandwidth bound %v, Table II %v (%.3f of it)", got, lower, table, float64(got)/float64(table))
			if got < lower || got > table {
				t.Errorf("took %v, want within [%v, %v]", got, lower, table)
			}
			if w := 2 * netsim.Bytes(c.n-1) * size; eng.BytesDelivered() != w {
				t.Errorf("moved %d bytes, want %d", eng.BytesDelivered(), w)
			}
			if err := eng.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestTreeErrors(t *testing.T) {
	sim, eng, hosts := fluidStar(4, rate, delay)
	bad := NCCLBtree(4)
	bad.Parent[3] = 1 // 3 is 2's child
	cases := []struct {
		name string
		err  error
	}{
		{"no hosts", TreeAllReduceNCCL(sim, eng, nil, 1, 1, netsim.BulkOpts{}, nil)},
		{"negative size", TreeAllReduceNCCL(sim, eng, hosts, -1, 1, netsim.BulkOpts{}, nil)},
		{"no chunks", TreeAllReduceNCCL(sim, eng, hosts, 1, 0, netsim.BulkOpts{}, nil)},
		{"tree too small", PipelinedTree(sim, eng, hosts, NCCLBtree(3), TreeReduce, 1, 1, netsim.BulkOpts{}, nil)},
		{"broken tree", PipelinedTree(sim, eng, hosts, bad, TreeReduce, 1, 1, netsim.BulkOpts{}, nil)},
		{"bad op", PipelinedTree(sim, eng, hosts, NCCLBtree(4), 0, 1, 1, netsim.BulkOpts{}, nil)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil {
				t.Fatal("no error")
			}
		})
	}
	if eng.BytesDelivered() != 0 || sim.Pending() != 0 {
		t.Fatal("a rejected call sent something")
	}
}
