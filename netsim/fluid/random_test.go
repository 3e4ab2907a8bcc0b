package fluid

import (
	"fmt"
	"strings"
	"testing"

	"syncsim/netsim"
)

type randRun struct {
	done    []netsim.Time
	sizes   []netsim.Bytes
	starts  []netsim.Time
	paths   [][]netsim.LinkID
	engine  *Engine
	net     *netsim.Network
	checkEr error // first audit failure
}

// runRandom sends n transfers with random pairs, sizes (1 KB - 4 MB) and
// start latencies (0 - 2 ms) on a 4x2 leaf-spine with 4 hosts per leaf
// (ECMP over the spines), auditing the engine every 100 us.
func runRandom(seed uint64, n int, mode Mode, full bool) *randRun {
	net, hosts := leafSpine(seed, 4, 2, 4, 10*netsim.Gbps, 20*netsim.Gbps, netsim.Microsecond)
	e := New(net, mode)
	e.full = full
	rng := net.Sim.Rand("fluid-test")
	r := &randRun{engine: e, net: net, done: make([]netsim.Time, n)}
	for i := 0; i < n; i++ {
		src := hosts[rng.IntN(len(hosts))]
		dst := hosts[rng.IntN(len(hosts))]
		size := netsim.Bytes(1000 + rng.Int64N(4_000_000))
		lat := netsim.Time(rng.Int64N(int64(2 * netsim.Millisecond)))
		r.sizes = append(r.sizes, size)
		r.starts = append(r.starts, lat)
		send(e, src, dst, size, lat, &r.done[i])
		r.paths = append(r.paths, e.slots[len(e.slots)-1].path)
	}
	for at := 100 * netsim.Microsecond; e.Pending() > 0; at += 100 * netsim.Microsecond {
		if at > netsim.Second {
			// The whole load needs ~0.1 s; a stall must not hang the test.
			r.checkEr = fmt.Errorf("%d transfers still pending at %v", e.Pending(), at)
			break
		}
		net.Sim.Run(at)
		if err := e.Check(); err != nil && r.checkEr == nil {
			r.checkEr = fmt.Errorf("at %v: %w", at, err)
		}
	}
	return r
}

func TestRandomConservation(t *testing.T) {
	for _, mode := range []Mode{MaxMin, FCFS} {
		t.Run(mode.String(), func(t *testing.T) {
			const n = 400
			r := runRandom(7, n, mode, false)
			e := r.engine
			if r.checkEr != nil {
				t.Fatal(r.checkEr)
			}
			var total netsim.Bytes
			for i, at := range r.done {
				total += r.sizes[i]
				if at < 0 {
					t.Fatalf("transfer %d never completed", i)
				}
				// No transfer beats its own path's slowest link.
				var prop netsim.Time
				minRate := netsim.Rate(1 << 62)
				for _, l := range r.paths[i] {
					lk := r.net.Link(l)
					prop += lk.Delay
					minRate = min(minRate, lk.Rate)
				}
				lower := r.starts[i] + prop
				if len(r.paths[i]) > 0 {
					lower += netsim.TxTime(r.sizes[i], minRate) - 1
				}
				if at < lower {
					t.Errorf("transfer %d done at %v, before its lower bound %v", i, at, lower)
				}
			}
			if e.Completed() != n || e.BytesDelivered() != total || e.Active() != 0 || e.Pending() != 0 {
				t.Errorf("completed %d/%d, delivered %d/%d bytes, active %d, pending %d",
					e.Completed(), n, e.BytesDelivered(), total, e.Active(), e.Pending())
			}
			if e.MaxResidual() > 1 {
				t.Errorf("rounding residue %g bytes at completion", e.MaxResidual())
			}
			for l := range e.links {
				if len(e.links[l].trs) != 0 {
					t.Errorf("link %d still lists %d transfers", l, len(e.links[l].trs))
				}
			}
		})
	}
}

// TestIncrementalMatchesFull: recomputing only the affected components
// gives the same completion times as recomputing every transfer on every
// change (up to the picosecond ceil of re-projections).
func TestIncrementalMatchesFull(t *testing.T) {
	for _, mode := range []Mode{MaxMin, FCFS} {
		t.Run(mode.String(), func(t *testing.T) {
			inc := runRandom(11, 300, mode, false)
			full := runRandom(11, 300, mode, true)
			for i := range inc.done {
				if d := inc.done[i] - full.done[i]; d < -50 || d > 50 {
					t.Errorf("transfer %d: incremental %v, full %v", i, inc.done[i], full.done[i])
				}
			}
			if inc.engine.Recomputations() > full.engine.Recomputations() {
				t.Errorf("incremental did %d recomputations, full %d", inc.engine.Recomputations(), full.engine.Recomputations())
			}
		})
	}
}

func TestDeterminism(t *testing.T) {
	trace := func() string {
		r := runRandom(3, 200, MaxMin, false)
		var b strings.Builder
		for i, at := range r.done {
			fmt.Fprintf(&b, "%d %d\n", i, at)
		}
		fmt.Fprintf(&b, "recomputations %d\n", r.engine.Recomputations())
		return b.String()
	}
	if a, b := trace(), trace(); a != b {
		t.Fatal("same seed gave different completion traces")
	}
}
