package collective

import (
	"fmt"
	"testing"

	"syncsim/netsim"
)

// racksOf cuts star hosts into racks of the given sizes.
func racksOf(hosts []netsim.NodeID, sizes ...int) [][]netsim.NodeID {
	var rs [][]netsim.NodeID
	for _, s := range sizes {
		rs = append(rs, hosts[:s])
		hosts = hosts[s:]
	}
	return rs
}

// On a star every hop runs at B, so a hierarchical all-reduce costs the
// sum of its phases (Table II with beta1 = beta2 = 1/B):
//
//	shard:  (G-1) + 2(C-1) + (G-1) steps of alpha, and
//	        (G-1)/G S + 2(C-1)/C S/G + (G-1)/G S bytes per NIC;
//	leader: chain reduce and broadcast of k chunks, (k + G - 2) steps of
//	        alpha + S/(k B) each, around a ring all-reduce of the leaders.
//
// With equal racks both phases of the shard mode move exactly the bytes of
// a ring all-reduce over all hosts.
func TestHierarchicalHandComputed(t *testing.T) {
	const size = 24 * netsim.Megabyte // divisible by 2, 3, 4, 6, 8, 16
	step := func(b netsim.Bytes) netsim.Time { return alpha + netsim.TxTime(b, rate) }
	cases := []struct {
		name  string
		sizes []int
		mode  HierMode
		k     int
		want  netsim.Time
		bytes netsim.Bytes
	}{
		{"shard 4+4", []int{4, 4}, HierShard, 0,
			6*step(size/4) + RingAllReduceTime(2, size/4, rate, alpha), 14 * size},
		{"shard 2+2+2", []int{2, 2, 2}, HierShard, 0,
			2*step(size/2) + RingAllReduceTime(3, size/2, rate, alpha), 10 * size},
		{"leader 4+4 k=8", []int{4, 4}, HierLeader, 8,
			2*netsim.Time(8+4-2)*step(size/8) + RingAllReduceTime(2, size, rate, alpha), 2*2*3*size + 2*size},
		{"leader 3+1 k=4", []int{3, 1}, HierLeader, 4,
			2*netsim.Time(4+3-2)*step(size/4) + RingAllReduceTime(2, size, rate, alpha), 2*2*size + 2*size},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			for _, s := range tc.sizes {
				n += s
			}
			sim, eng, hosts := fluidStar(n, rate, delay)
			got := runTimed(t, sim, func(done func()) error {
				return HierarchicalAllReduce(sim, eng, racksOf(hosts, tc.sizes...), size, tc.mode, tc.k, netsim.BulkOpts{StartLatency: lat}, done)
			})
			if d := got - tc.want; d < 0 || d > 64 {
				t.Errorf("took %v, want %v", got, tc.want)
			}
			if eng.BytesDelivered() != tc.bytes {
				t.Errorf("moved %d bytes, want %d", eng.BytesDelivered(), tc.bytes)
			}
		})
	}
}

// Unequal racks in shard mode: 5 + 3 cut the buffer into 3 shards; ranks
// 3 and 4 of the large rack only relay in its rings, so the large rack's
// reduce-scatter and all-gather take 4 steps of S/3 each and the inter-rack
// rings are three 2-host rings of S/3.
func TestHierarchicalShardUnequalRacks(t *testing.T) {
	const size = 24 * netsim.Megabyte
	sim, eng, hosts := fluidStar(8, rate, delay)
	got := runTimed(t, sim, func(done func()) error {
		return HierarchicalAllReduce(sim, eng, racksOf(hosts, 5, 3), size, HierShard, 0, netsim.BulkOpts{StartLatency: lat}, done)
	})
	// A step in which a host forwards a non-empty shard costs
	// alpha + S/(3B); the large rack's four steps each carry one.
	want := 8*(alpha+netsim.TxTime(size/3, rate)) + RingAllReduceTime(2, size/3, rate, alpha)
	if d := got - want; d < 0 || d > 64 {
		t.Errorf("took %v, want %v", got, want)
	}
	// In a reduce-scatter (and an all-gather) host i sends every chunk but
	// chunk i, S - c(i): (g-1) S per phase in a rack of g.
	rs := func(g int) netsim.Bytes { return netsim.Bytes(g-1) * size }
	w := 2*(rs(5)+rs(3)) + 3*2*size/3
	if eng.BytesDelivered() != w {
		t.Errorf("moved %d bytes, want %d", eng.BytesDelivered(), w)
	}
}

func TestHierarchicalErrors(t *testing.T) {
	sim, eng, hosts := fluidStar(4, rate, delay)
	cases := []struct {
		name string
		err  error
	}{
		{"no hosts", HierarchicalAllReduce(sim, eng, nil, 1, HierShard, 1, netsim.BulkOpts{}, nil)},
		{"repeated host", HierarchicalAllReduce(sim, eng, [][]netsim.NodeID{hosts[:2], hosts[1:3]}, 1, HierShard, 1, netsim.BulkOpts{}, nil)},
		{"negative size", HierarchicalAllReduce(sim, eng, racksOf(hosts, 2, 2), -1, HierShard, 1, netsim.BulkOpts{}, nil)},
		{"leader without chunks", HierarchicalAllReduce(sim, eng, racksOf(hosts, 2, 2), 1, HierLeader, 0, netsim.BulkOpts{}, nil)},
		{"unknown mode", HierarchicalAllReduce(sim, eng, racksOf(hosts, 2, 2), 1, HierMode(7), 1, netsim.BulkOpts{}, nil)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil {
				t.Fatal("no error")
			}
		})
	}
	if _, err := ParseHierMode("ring"); err == nil {
		t.Error("ParseHierMode accepted ring")
	}
	for i, n := range HierModeNames {
		if m, err := ParseHierMode(n); err != nil || int(m) != i || m.String() != n {
			t.Errorf("ParseHierMode(%q) = %v, %v", n, m, err)
		}
	}
}

// The phase chunk rotations leave chunk j reduced at host j and give
// every host every chunk.
func TestRingPhaseRotations(t *testing.T) {
	for n := 2; n <= 7; n++ {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			// reduce-scatter: contributions to each chunk held by each host.
			have := make([][]map[int]bool, n)
			for i := range have {
				have[i] = make([]map[int]bool, n)
				for j := range have[i] {
					have[i][j] = map[int]bool{i: true}
				}
			}
			for k := 0; k < n-1; k++ {
				sent := make([]map[int]bool, n)
				for i := 0; i < n; i++ {
					sent[i] = have[i][reduceScatterChunk(n, i, k)]
				}
				for i := 0; i < n; i++ {
					j, c := (i+1)%n, reduceScatterChunk(n, i, k)
					for w := range sent[i] {
						have[j][c][w] = true
					}
				}
			}
			for j := 0; j < n; j++ {
				if len(have[j][j]) != n {
					t.Errorf("host %d holds chunk %d with %d of %d contributions", j, j, len(have[j][j]), n)
				}
			}
			// all-gather: host j starts with chunk j.
			hold := make([]map[int]bool, n)
			for i := range hold {
				hold[i] = map[int]bool{i: true}
			}
			for k := 0; k < n-1; k++ {
				for i := 0; i < n; i++ {
					c := allGatherChunk(n, i, k)
					if !hold[i][c] {
						t.Fatalf("host %d sends chunk %d at step %d before holding it", i, c, k)
					}
				}
				for i := 0; i < n; i++ {
					hold[(i+1)%n][allGatherChunk(n, i, k)] = true
				}
			}
			for i := range hold {
				if len(hold[i]) != n {
					t.Errorf("host %d ends with %d of %d chunks", i, len(hold[i]), n)
				}
			}
		})
	}
}
