package ina

import (
	"fmt"
	"slices"

	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// agg_placement=every-tier: each job aggregates at every switch tier its
// gradients climb through (inagg.JobConfig.Tree), an aggregation tree per
// job rooted at its PS's edge switch, as SHARP's trees or ATP's levels
// carried to every tier.
//
// Pinning. Partial aggregates of one job meet only if its packets take
// the same switch at every tier; under flow-hash ECMP each worker's
// gradients (and each switch's aggregates) would hash to a switch of
// their own and the sums would be split between them. So every job has
// one path up, chosen from its job id: on a k-ary fat-tree (h = k/2) job
// j's core is Core[a h + c] with a = j mod h and c = (j / h) mod h, which
// joins aggregation switch a of every pod (topologies.FatTree's wiring),
// so job j's tree is:
//
//	a worker beside the PS:        PS edge
//	a worker in the PS's pod:      its edge -> Agg a of the pod -> PS edge
//	a worker in another pod:       its edge -> Agg a of its pod -> core -> Agg a of the PS's pod -> PS edge
//
// Consecutive jobs take consecutive aggregation switches first, so no two
// jobs share a core (and the first h jobs no aggregation switch) until
// every one carries a job, which a hash of the id would not promise; the
// placement of the jobs' hosts, drawn per seed, already varies the trees.
// On the leaf-spine job j's spine is Spine[j mod spines] (worker's leaf
// -> spine -> PS's leaf): every-tier there is two-level with the job's
// spine summing the racks as well. A topology file is refused: its tiers
// are not derived.
//
// The paths are pinned by the workers' flow labels (inagg.JobConfig.Flows):
// worker w's label is the first one after a hash of (job, w) whose path to
// the PS and back crosses the job's core (another pod: on a fat-tree that
// fixes the whole path both ways) or the job's aggregation switch of the
// pod (the PS's pod) (topologies.Fabric.NextFlowThrough). Results use the
// worker's label, and a switch's aggregates the label of the first worker
// under it, so every packet of the tree stays on it; inagg.NewJob checks
// the routes follow the tree and refuses the job otherwise. The labels
// stand for what a switch would do with a tree identifier in the header;
// the background keeps per-flow ECMP.
//
// A switch where a single child (a worker, or a switch of the tree) of
// the job arrives has nothing to sum and only forwards (two-level's first
// level sums a rack of one worker in an aggregator and passes it on at
// once; here such a switch is left out of the tree). The PS's edge switch
// is the root whatever its fan-in, as under ps-leaf and two-level.

// tierTree is one job's aggregation tree on a fabric: each worker's chain
// of aggregating switches below the PS's edge switch, bottom first, and
// the workers' flow labels that pin the paths to it.
type tierTree struct {
	chains [][]*switchmodel.Switch
	flows  []uint64
}

// everyTierFabric reports why fab cannot carry every-tier trees, or nil.
func everyTierFabric(fab *topologies.Fabric) error {
	switch {
	case fab.Kind == "fat-tree" || fab.Kind == "leaf-spine":
		return nil
	}
	return fmt.Errorf("agg_placement=%s needs a fabric whose tiers are known (topology=fattree or leaf-spine); a %s's are not derived", placeEveryTier, fab.Kind)
}

// jobTree is job j's tree on fab, for its PS and workers.
func jobTree(fab *topologies.Fabric, j int, ps *netsim.Host, workers []*netsim.Host) (tierTree, error) {
	if err := everyTierFabric(fab); err != nil {
		return tierTree{}, err
	}
	psG := fab.GroupOf(ps.ID())
	paths := make([][]*switchmodel.Switch, len(workers)) // every switch below the PS's edge, bottom first
	flows := make([]uint64, len(workers))
	for i, w := range workers {
		g := fab.GroupOf(w.ID())
		base := netsim.Hash64(uint64(j)+0x7469_6572, uint64(i)) &^ (1 << 63) // "tier"
		if g == psG {
			flows[i] = base + 1 // one switch on the way: nothing to pin
			continue
		}
		var via *switchmodel.Switch
		if fab.Kind == "leaf-spine" {
			via = fab.Core[j%len(fab.Core)]
			paths[i] = []*switchmodel.Switch{fab.Edge[g], via}
		} else {
			h := fatTreeHalf(fab)
			a, c := j%h, (j/h)%h
			pod, psPod := fab.Pod(g), fab.Pod(psG)
			if pod == psPod {
				via = fab.Agg[pod*h+a]
				paths[i] = []*switchmodel.Switch{fab.Edge[g], via}
			} else {
				via = fab.Core[a*h+c]
				paths[i] = []*switchmodel.Switch{fab.Edge[g], fab.Agg[pod*h+a], via, fab.Agg[psPod*h+a]}
			}
		}
		f, err := fab.NextFlowThrough(w.ID(), ps.ID(), via.ID(), base)
		if err != nil {
			return tierTree{}, fmt.Errorf("pinning worker %d to %s: %w", i, via.Name(), err)
		}
		flows[i] = f
	}
	return tierTree{chains: fanIn2(paths, workers), flows: flows}, nil
}

// fatTreeHalf is k/2 of a fat-tree fabric, whose (k/2)^2 core switches it
// counts.
func fatTreeHalf(fab *topologies.Fabric) int {
	h := 1
	for h*h < len(fab.Core) {
		h++
	}
	return h
}

// fanIn2 keeps, of each worker's path, the switches at which at least two
// children of the job arrive (a worker counts as the child of the first
// switch of its path, a switch as the child of the next).
func fanIn2(paths [][]*switchmodel.Switch, workers []*netsim.Host) [][]*switchmodel.Switch {
	kids := map[*switchmodel.Switch][]netsim.NodeID{}
	for i, path := range paths {
		for k, sw := range path {
			kid := workers[i].ID()
			if k > 0 {
				kid = path[k-1].ID()
			}
			if !slices.Contains(kids[sw], kid) {
				kids[sw] = append(kids[sw], kid)
			}
		}
	}
	chains := make([][]*switchmodel.Switch, len(paths))
	for i, path := range paths {
		for _, sw := range path {
			if len(kids[sw]) >= 2 {
				chains[i] = append(chains[i], sw)
			}
		}
	}
	return chains
}
