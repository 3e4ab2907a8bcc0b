package dssync

import (
	"fmt"
	"math"
	"testing"

	"syncsim/netsim"
	"syncsim/netsim/fluid"
	"syncsim/switchmodel"
	"syncsim/workloads/collective"
)

// tableIIRig is the uncontended fabric of Sec. IV-A: C racks of G
// workers, every link (host and uplink) at B, so beta1 = beta2 = 1/B, on
// the flow engine.
type tableIIRig struct {
	sim   *netsim.Sim
	eng   *fluid.Engine
	racks [][]netsim.NodeID
	all   []netsim.NodeID
}

func newTableIIRig(t *testing.T, c, g int) *tableIIRig {
	t.Helper()
	sizes := make([]int, c)
	for i := range sizes {
		sizes[i] = g
	}
	l := LayoutOf(sizes...)
	p, err := Place(Static, l, -1)
	if err != nil {
		t.Fatal(err)
	}
	sim := netsim.New(1)
	net := netsim.NewNetwork(sim)
	fab, _, err := BuildRacks(net, l, p, tableIIRate, 1, tableIIDelay, switchmodel.QueueConfig{})
	if err != nil {
		t.Fatal(err)
	}
	r := &tableIIRig{sim: sim, eng: fluid.New(net, fluid.MaxMin)}
	for _, ws := range l {
		var ids []netsim.NodeID
		for _, w := range ws {
			ids = append(ids, fab.Hosts[p.Worker[w]].ID())
		}
		r.racks = append(r.racks, ids)
		r.all = append(r.all, ids...)
	}
	return r
}

const (
	tableIIRate  = 20 * netsim.Gbps
	tableIIDelay = netsim.Microsecond
	tableIIStart = 10 * netsim.Microsecond
	tableIISize  = 146 * netsim.Megabyte // WideResNet-28-10
)

// timeL runs op on each of L pieces of the model one after the other (a
// layer-wise synchronisation whose pieces queue on one communicator) and
// returns the total time.
func (r *tableIIRig) timeL(t *testing.T, L int, op func(size netsim.Bytes, done func()) error) netsim.Time {
	t.Helper()
	pieces := Pieces(tableIISize, L)
	var end netsim.Time = -1
	var next func(i int)
	next = func(i int) {
		if i == L {
			end = r.sim.Now()
			return
		}
		if err := op(pieces[i], func() { next(i + 1) }); err != nil {
			t.Fatal(err)
		}
	}
	next(0)
	r.sim.Run(netsim.Never)
	if end < 0 {
		t.Fatal("did not finish")
	}
	if err := r.eng.Check(); err != nil {
		t.Fatal(err)
	}
	return end
}

// Table II of the DS-Sync paper against the flow engine on an uncontended
// fabric (two or four racks of four, every link 20 Gbps, so beta1 = beta2
// = 1/20 Gbps; alpha = 10 us of start latency plus the propagation of the
// longest hop, four 1 us cables), for the 146 MB of WideResNet-28-10 in
// L = 1 and 6 pieces. Stated tolerances:
//
//   - ring, hierarchical (shard mode), PS (one server co-located with a
//     worker) and the DS-Sync groups: within 1 percent (the table's
//     latency counts alpha per step, the simulator charges the start
//     latency plus the hop's own propagation);
//   - double tree: between the bandwidth bound of the busiest NIC or
//     uplink direction and the table's formula (its 2(log N + k) counts
//     every pipeline step at a full chunk; the simulated fill is
//     shorter), k = 32. With two racks the busiest are the NICs, 2 S; with
//     four racks NCCL's trees over rack-ordered ranks cross the core on
//     more edges than one per rack, an uplink direction carries 3 S, and
//     the table's formula (which assumes aligned trees) is exceeded: the
//     test then allows 10 percent over the uplink bound;
//   - gossip: the table's 4 S beta2 is its worst iteration, the shift by
//     half the workers, when every one of the four workers of a rack sends
//     across the core: within 1 percent for that shift, and no shift
//     below the NIC bound S beta;
//   - DS-Sync: the iteration takes the slowest group, the intra-rack group
//     of G-1 (the table's 2(G-2) S beta1 / (G-1), within 1 percent); the
//     inter-rack pair moves S each way, S beta2 (a ring of two, within 1
//     percent), half the table's 2 S beta2 (see CostModel.DSSyncInter).
func TestTableIIAgainstSimulator(t *testing.T) {
	beta := 1 / float64(tableIIRate) * 8 // seconds per byte
	for _, c := range []int{2, 4} {
		for _, L := range []int{1, 6} {
			const g = 4
			m := CostModel{N: c * g, C: c, G: g, L: L, P: 1, K: 32, S: float64(tableIISize),
				Alpha: (tableIIStart + 4*tableIIDelay).Seconds(), Beta1: beta, Beta2: beta}
			opts := netsim.BulkOpts{StartLatency: tableIIStart}
			withinOf := func(t *testing.T, name, ref string, got netsim.Time, want float64, tol float64) {
				t.Helper()
				r := got.Seconds() / want
				t.Logf("C=%d L=%d %-28s simulated %8.2f ms, %s %8.2f ms (%.4f)", c, L, name, got.Milliseconds(), ref, want*1e3, r)
				if math.Abs(r-1) > tol {
					t.Errorf("%s: simulated %v, %s %.3f ms: off by more than %.0f%%", name, got, ref, want*1e3, tol*100)
				}
			}
			within := func(t *testing.T, name string, got netsim.Time, want float64, tol float64) {
				t.Helper()
				withinOf(t, name, "Table II", got, want, tol)
			}
			t.Run(fmt.Sprintf("C=%d L=%d", c, L), func(t *testing.T) {
				r := newTableIIRig(t, c, g)
				within(t, "ring", r.timeL(t, L, func(s netsim.Bytes, done func()) error {
					return collective.RingAllReduce(r.sim, r.eng, r.all, s, opts, done)
				}), m.Ring().Total(), 0.01)

				r = newTableIIRig(t, c, g)
				within(t, "hierarchical (shard)", r.timeL(t, L, func(s netsim.Bytes, done func()) error {
					return collective.HierarchicalAllReduce(r.sim, r.eng, r.racks, s, collective.HierShard, 0, opts, done)
				}), m.Hierarchical().Total(), 0.01)

				r = newTableIIRig(t, c, g)
				ps := r.all[0]
				within(t, "PS (co-located with worker 0)", r.timeL(t, L, func(s netsim.Bytes, done func()) error {
					return collective.PSPushPull(r.sim, r.eng, r.all[1:], ps, s, opts, done)
				}), m.PS().Total(), 0.01)

				r = newTableIIRig(t, c, g)
				got := r.timeL(t, L, func(s netsim.Bytes, done func()) error {
					return collective.TreeAllReduceNCCL(r.sim, r.eng, r.all, s, m.K, opts, done)
				})
				nic, up := treeLoads(c, g)
				lower := math.Max(nic, up) * m.S * m.Beta2
				upper := math.Max(m.DoubleTree().Total(), 1.1*lower)
				t.Logf("C=%d L=%d %-28s simulated %8.2f ms, bound %8.2f ms (NIC %.1f S, uplink %.1f S), Table II %8.2f ms", c, L, "double tree", got.Milliseconds(), lower*1e3, nic, up, m.DoubleTree().Total()*1e3)
				if got.Seconds() < lower || got.Seconds() > upper {
					t.Errorf("double tree: simulated %v outside [%.3f, %.3f] ms", got, lower*1e3, upper*1e3)
				}

				// DS-Sync: the groups of the first phase of initGroups.
				p, err := InitGroups(LayoutOf(func() []int {
					s := make([]int, c)
					for i := range s {
						s[i] = g
					}
					return s
				}()...))
				if err != nil {
					t.Fatal(err)
				}
				r = newTableIIRig(t, c, g)
				var inter, intra netsim.Time
				got = r.timeL(t, L, func(s netsim.Bytes, done func()) error {
					var groups [][]netsim.NodeID
					for _, grp := range p.At(0) {
						var hs []netsim.NodeID
						for _, w := range grp {
							hs = append(hs, r.all[w])
						}
						groups = append(groups, hs)
					}
					return collective.GroupAllReduce(r.sim, r.eng, groups, s, opts, func(gi int) {
						if len(groups[gi]) == c { // the inter-rack group
							inter = r.sim.Now()
						} else {
							intra = r.sim.Now()
						}
					}, done)
				})
				if c == 2 {
					// The last piece's groups finished at inter and intra;
					// with one piece they are the groups' own times.
					if L == 1 {
						pair := CostModel{N: 2, L: 1, Alpha: m.Alpha, S: m.S, Beta2: m.Beta2}.Ring().Total()
						withinOf(t, "DS-Sync inter-rack pair", "ring of two", inter, pair, 0.01)
						t.Logf("Table II's DS-Sync pair: %.2f ms = %.2f x the simulated pair", m.DSSyncInter().Total()*1e3, m.DSSyncInter().Total()/inter.Seconds())
						within(t, "DS-Sync intra-rack group", intra, m.DSSyncIntra().Total(), 0.01)
					}
					within(t, "DS-Sync iteration", got, m.DSSyncIntra().Total(), 0.01)
				}

				// Gossip: each shift of the dynamic exponential graph.
				for _, off := range collective.ExponentialPeers(c * g) {
					r = newTableIIRig(t, c, g)
					got := r.timeL(t, L, func(s netsim.Bytes, done func()) error {
						return collective.GossipShift(r.sim, r.eng, r.all, s, off, opts, nil, done)
					})
					if got.Seconds() < m.S*m.Beta1 {
						t.Errorf("gossip shift %d: %v below the NIC bound", off, got)
					}
					if c == 2 && off == g {
						within(t, "gossip, shift by G", got, m.Gossip().Total(), 0.01)
					}
				}
			})
		}
	}
}

// treeLoads is the bytes, in units of S, that NCCL's double tree over C
// racks of G rack-ordered ranks puts on the busiest NIC direction and the
// busiest uplink direction: every tree edge carries half the buffer up
// (reduce) and down (broadcast).
func treeLoads(c, g int) (nic, uplink float64) {
	n := c * g
	out := make([]float64, n)
	up := make([]float64, c)
	down := make([]float64, c)
	for _, tr := range collective.NCCLDoubleTree(n) {
		for r, p := range tr.Parent {
			if p < 0 {
				continue
			}
			out[r] += 0.5 // reduce, r -> p
			out[p] += 0.5 // broadcast, p -> r
			if r/g != p/g {
				up[r/g], down[p/g] = up[r/g]+0.5, down[p/g]+0.5
				up[p/g], down[r/g] = up[p/g]+0.5, down[r/g]+0.5
			}
		}
	}
	for _, x := range out {
		nic = math.Max(nic, x)
	}
	for i := range up {
		uplink = math.Max(uplink, math.Max(up[i], down[i]))
	}
	return nic, uplink
}
