package dssync

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"syncsim/netsim"
	"syncsim/workloads/collective"
)

// scheme is a synchronisation scheme's registration, everything that
// makes it itself in one place: its name, the Syncer a run builds for it,
// the mixing matrices its consensus is measured on, and whether its
// timing metrics are the fastest worker's.
type scheme struct {
	name string
	// syncer builds the scheme's Syncer for run r.
	syncer func(r *run) (Syncer, error)
	// mixing is the period of W_k matrices of the scheme's averaging on n
	// workers (Sec. IV-B), filling what else it knows into res; nil for a
	// scheme without one (ASP: rho is NaN).
	mixing func(r *run, res *Result, n int) []*mat.Dense
	// fastest: comm and iteration times are the fastest worker's (ASP's
	// workers never wait for each other, so the mean would mix speeds the
	// paper reports apart).
	fastest bool
}

// schemes registers every scheme, in the order the scheme parameter
// lists them (Sec. V-A1): DS-Sync, BSP with ring all-reduce, with NCCL's
// double binary tree all-reduce and with hierarchical all-reduce, ASP
// through a parameter server, and gossip on the dynamic exponential graph.
// A scheme is added here and nowhere else: Schemes are these names, and a
// run builds the one it names. An entry without a name or a Syncer stops
// every program that uses dssync at start-up (init).
var schemes = []scheme{
	{"dssync", dssyncSyncer, func(r *run, res *Result, _ int) []*mat.Dense {
		p := r.adaptive.Pattern
		res.Period, res.Adjustments, res.Detected = p.Period(), r.adaptive.Adjustments, r.adaptive.Current
		return p.Matrices()
	}, false},
	{"allreduce", func(r *run) (Syncer, error) { return NewGroupSync(All(len(r.hosts)), r.ring), nil }, bspMixing, false},
	{"tree-allreduce", func(r *run) (Syncer, error) { return NewGroupSync(All(len(r.hosts)), r.tree), nil }, bspMixing, false},
	{"hier-allreduce", hierSyncer, bspMixing, false},
	{"asp", func(r *run) (Syncer, error) {
		return NewASPSync(len(r.hosts), r.hostAt(r.place.PS), r.books, r.opts()), nil
	}, nil, true},
	{"gossip", func(r *run) (Syncer, error) {
		return NewGossipSync(len(r.hosts), collective.ExponentialPeers(len(r.hosts)), r.books, r.opts())
	}, func(_ *run, _ *Result, n int) []*mat.Dense {
		if n == 1 {
			return []*mat.Dense{identity(1)}
		}
		var ws []*mat.Dense
		for _, o := range collective.ExponentialPeers(n) {
			ws = append(ws, ShiftMatrix(n, o))
		}
		return ws
	}, false},
}

// Schemes lists the synchronisation schemes Run compares, as registered.
var Schemes = schemeNames(schemes)

func init() {
	if err := checkSchemes(schemes); err != nil {
		panic(err)
	}
}

// schemeNames are the names of table, in order.
func schemeNames(table []scheme) []string {
	out := make([]string, len(table))
	for i, s := range table {
		out[i] = s.name
	}
	return out
}

// checkSchemes reports an entry of table without a name or a Syncer, or
// with another's name.
func checkSchemes(table []scheme) error {
	seen := map[string]bool{}
	for i, s := range table {
		if s.name == "" || s.syncer == nil || seen[s.name] {
			return fmt.Errorf("dssync: scheme %d has no entry of its own in schemes (workloads/dssync/registry.go)", i)
		}
		seen[s.name] = true
	}
	return nil
}

// lookupScheme is the registration of name.
func lookupScheme(name string) (*scheme, error) {
	for i := range schemes {
		if schemes[i].name == name {
			return &schemes[i], nil
		}
	}
	return nil, fmt.Errorf("unknown scheme %q", name)
}

// bspMixing is one group of all workers: exact averaging every iteration.
func bspMixing(_ *run, _ *Result, n int) []*mat.Dense {
	return []*mat.Dense{GroupMatrix(Grouping(All(n)), n)}
}

// opts are the job's transfer options: each message starts after alpha.
func (r *run) opts() netsim.BulkOpts { return netsim.BulkOpts{StartLatency: r.cfg.Alpha} }

// hostsOf are the hosts of workers ws, in order.
func (r *run) hostsOf(ws []int) []netsim.NodeID {
	h := make([]netsim.NodeID, len(ws))
	for i, w := range ws {
		h[i] = r.hosts[w]
	}
	return h
}

// ring is a ring all-reduce among workers ws (RunFunc).
func (r *run) ring(ws []int, size netsim.Bytes, done func()) error {
	return collective.RingAllReduce(r.sim, r.books, r.hostsOf(ws), size, r.opts(), done)
}

// tree is NCCL's double binary tree all-reduce among workers ws in
// TreeChunks chunks (RunFunc).
func (r *run) tree(ws []int, size netsim.Bytes, done func()) error {
	return collective.TreeAllReduceNCCL(r.sim, r.books, r.hostsOf(ws), size, r.cfg.TreeChunks, r.opts(), done)
}

// hierSyncer is BSP with hierarchical all-reduce over the layout's racks.
func hierSyncer(r *run) (Syncer, error) {
	c := r.cfg
	rackOf := c.Layout.RackOf()
	return NewGroupSync(All(len(r.hosts)), func(ws []int, size netsim.Bytes, done func()) error {
		racks := make([][]netsim.NodeID, len(c.Layout))
		for _, w := range ws {
			racks[rackOf[w]] = append(racks[rackOf[w]], r.hosts[w])
		}
		return collective.HierarchicalAllReduce(r.sim, r.books, racks, size, c.HierMode, c.TreeChunks, r.opts(), done)
	}), nil
}

// dssyncSyncer is DS-Sync: the adaptive group pattern (Sec. III), its
// contention detected from measured throughput, known up front, or never
// adjusted, each group running a ring or a tree all-reduce.
func dssyncSyncer(r *run) (Syncer, error) {
	c := r.cfg
	var given Contention
	var detect func() Contention
	switch c.Detect {
	case "off":
	case "given":
		given = r.place.Truth
	case "measure":
		det, err := NewDetector(c.Layout, r.hosts, c.LinkRate, r.uplinks, c.Threshold)
		if err != nil {
			return nil, err
		}
		r.books.inner = &timedBulk{inner: r.bulk, sim: r.sim, det: det}
		detect = det.Detect
	default:
		return nil, fmt.Errorf("unknown detection %q (allowed: measure, given, off)", c.Detect)
	}
	a, err := NewAdaptive(c.Layout, given, c.AdjustEvery, detect)
	if err != nil {
		return nil, err
	}
	r.adaptive = a
	switch c.GroupAlgo {
	case "ring":
		return NewGroupSync(a, r.ring), nil
	case "tree":
		return NewGroupSync(a, r.tree), nil
	}
	return nil, fmt.Errorf("unknown group all-reduce %q (allowed: ring, tree)", c.GroupAlgo)
}
