package collective

import (
	"fmt"
	"slices"
	"testing"

	"syncsim/netsim"
)

// The phone book of stochastic gradient push's dynamic directed
// exponential graph (graph_manager.py): +1, -1, +2, -2, +4, ... modulo n,
// duplicates dropped.
func TestExponentialPeers(t *testing.T) {
	cases := []struct {
		n    int
		want []int
	}{
		{1, nil},
		{2, []int{1}},
		{3, []int{1, 2}},
		{4, []int{1, 3, 2}},
		{5, []int{1, 4, 2, 3}},
		{8, []int{1, 7, 2, 6, 4}},
		{9, []int{1, 8, 2, 7, 4, 5}},
		{16, []int{1, 15, 2, 14, 4, 12, 8}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint("n=", tc.n), func(t *testing.T) {
			if got := ExponentialPeers(tc.n); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// One gossip shift on a star: every NIC sends and receives S once, so the
// round takes alpha + S/B and every host finishes at that instant.
func TestGossipShiftStar(t *testing.T) {
	const n, size = 6, 8 * netsim.Megabyte
	for _, off := range []int{1, 2, 3, 5} {
		t.Run(fmt.Sprint("offset=", off), func(t *testing.T) {
			sim, eng, hosts := fluidStar(n, rate, delay)
			at := make([]netsim.Time, n)
			got := runTimed(t, sim, func(done func()) error {
				return GossipShift(sim, eng, hosts, size, off, netsim.BulkOpts{StartLatency: lat}, func(i int) { at[i] = sim.Now() }, done)
			})
			want := alpha + netsim.TxTime(size, rate)
			if d := got - want; d < 0 || d > 2 {
				t.Errorf("took %v, want %v", got, want)
			}
			for i, a := range at {
				if a != got {
					t.Errorf("host %d finished at %v, round at %v", i, a, got)
				}
			}
			if eng.BytesDelivered() != n*size {
				t.Errorf("moved %d bytes, want %d", eng.BytesDelivered(), n*size)
			}
		})
	}
}

// A host finishes when both its own send and the one addressed to it are
// done: with host 0's sends slowed, host 0 and its successor (which
// receives from it) finish late, the others on time.
func TestGossipShiftPerHostBarrier(t *testing.T) {
	sim := netsim.New(1)
	const n = 4
	fb := &fakeBulk{sim: sim, delay: func(src netsim.NodeID, _ netsim.Bytes) netsim.Time {
		if src == 0 {
			return 10
		}
		return 1
	}}
	hosts := []netsim.NodeID{0, 1, 2, 3}
	at := make([]netsim.Time, n)
	if err := GossipShift(sim, fb, hosts, 1, 1, netsim.BulkOpts{}, func(i int) { at[i] = sim.Now() }, nil); err != nil {
		t.Fatal(err)
	}
	sim.Run(netsim.Never)
	if want := []netsim.Time{10, 10, 1, 1}; !slices.Equal(at, want) {
		t.Errorf("hosts finished at %v, want %v", at, want)
	}
}

func TestGossipErrors(t *testing.T) {
	sim, eng, hosts := fluidStar(4, rate, delay)
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"no hosts", GossipShift(sim, eng, nil, 1, 1, netsim.BulkOpts{}, nil, nil)},
		{"negative size", GossipShift(sim, eng, hosts, -1, 1, netsim.BulkOpts{}, nil, nil)},
		{"offset 0", GossipShift(sim, eng, hosts, 1, 0, netsim.BulkOpts{}, nil, nil)},
		{"offset n", GossipShift(sim, eng, hosts, 1, 4, netsim.BulkOpts{}, nil, nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil {
				t.Fatal("no error")
			}
		})
	}
}

// Groups run in parallel: each finishes at its own ring time on a star,
// and the whole at the slowest.
func TestGroupAllReduceParallel(t *testing.T) {
	const size = 12 * netsim.Megabyte
	sim, eng, hosts := fluidStar(8, rate, delay)
	groups := [][]netsim.NodeID{hosts[0:3], hosts[3:5], hosts[5:6], hosts[6:8]}
	at := make([]netsim.Time, len(groups))
	got := runTimed(t, sim, func(done func()) error {
		return GroupAllReduce(sim, eng, groups, size, netsim.BulkOpts{StartLatency: lat}, func(g int) { at[g] = sim.Now() }, done)
	})
	for g, hs := range groups {
		want := RingAllReduceTime(len(hs), size, rate, alpha)
		if d := at[g] - want; d < 0 || d > 8 {
			t.Errorf("group %d (%d hosts) took %v, want %v", g, len(hs), at[g], want)
		}
	}
	if want := RingAllReduceTime(3, size, rate, alpha); got-want < 0 || got-want > 8 {
		t.Errorf("all groups took %v, want %v", got, want)
	}
	if w := netsim.Bytes(2*2) * size / 3 * 3; eng.BytesDelivered() != w+2*size+2*size {
		t.Errorf("moved %d bytes, want %d", eng.BytesDelivered(), w+4*size)
	}
	for _, tc := range []struct {
		name   string
		groups [][]netsim.NodeID
	}{
		{"empty group", [][]netsim.NodeID{hosts[:2], nil}},
		{"overlap", [][]netsim.NodeID{hosts[:2], hosts[1:3]}},
	} {
		if err := GroupAllReduce(sim, eng, tc.groups, 1, netsim.BulkOpts{}, nil, nil); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
