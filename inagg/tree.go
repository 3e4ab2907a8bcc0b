package inagg

import (
	"fmt"
	"slices"

	"syncsim/netsim"
)

// An aggregation tree per job (JobConfig.Tree, agg_placement=every-tier):
// ATP's two levels generalised to every switch tier a job's gradients
// climb through. Each worker lists the switches below the PS's switch
// that sum its gradients, bottom first; a switch sums the contributions
// of the workers that list it (full, the union of their bits) and sends
// the sum on towards the PS as a rack aggregate (KindRackAggregate),
// which the next switch up sums like any other contribution. The tree is
// the union of the workers' chains, and the PS's switch is its root.
//
// Per level, the rules are two-level's (twolevel.go), which are ATP's
// switch rules with worker bitmaps for contributions:
//
//   - A contribution whose aggregator another (job, sequence) holds goes
//     on unsummed, and the next level up may sum it (its bits are the
//     worker's). ATP's public switch is one rack: it tags a collided
//     packet (tag_collision_incoming_table, in-ATP/ATP p4src/p4ml.p4:
//     217-224) and every later switch forwards a tagged packet untouched
//     (p4ml.p4:62-63), so the PS would sum it; with bitmaps the next level
//     can, as two-level's PS switch already does.
//   - A resend releases what the switch holds for its sequence to the PS
//     and goes on (ATP's appID_and_seq_resend_table and bitmap_resend_table,
//     p4ml.p4:65-89, clear the aggregator; common.p4:63-74), so a resend
//     climbing the tree flushes the sequence's partial aggregate at every
//     level it crosses.
//   - A contribution whose bits partly overlap what the aggregator holds
//     (sums cannot be split) or lie outside the switch's workers goes on
//     unsummed, for the PS to sort out.
//
// Results come back down the tree: the PS's switch sends one copy per
// child (a worker attached to it, or a switch of the tree, the copy then
// addressed to the first worker under that switch and marked as a
// subtree copy), and each switch of the tree that receives a subtree copy
// replicates it to its own children, so every link of the tree carries
// one result per sequence. Passing, the result releases any partial
// aggregate of its sequence the switch still holds (resultPassing).
//
// The tree only works if the job's packets follow it: a worker's
// gradients must cross its chain in order and then the PS's switch, its
// results the reverse, and a switch's aggregates (which take the flow
// label of the first worker under it, JobConfig.Flows) the rest of that
// worker's chain. NewJob checks this on the network's routes and refuses
// a tree the routes do not follow. Pinning the paths (choosing the
// labels) is the caller's: under flow-hash ECMP the partial aggregates of
// one job would otherwise climb to different switches of a tier and
// never meet.

// treeKid is a child of a tree switch: worker w attached to it (sub
// false), or the tree switch whose first worker is w (sub true).
type treeKid struct {
	w   int
	sub bool
}

// subtreeMark is the extWorker of a result copy addressed to the subtree
// whose first worker is w: -2 - w (-1 is the PS's copy for every worker).
func subtreeMark(w int) int64 { return -2 - int64(w) }

// checkTree validates cfg.Tree's shape (not its routes: checkTreeRoutes):
// ATP's, without FirstLevel, a chain per worker of distinct switches other
// than the root with the root's memory, forming a tree.
func checkTree(cfg JobConfig) error {
	if cfg.Tree == nil {
		return nil
	}
	switch {
	case cfg.Protocol != ATP:
		return fmt.Errorf("inagg: job %d: tree aggregation is ATP's; %s aggregates at one switch", cfg.ID, cfg.Protocol)
	case cfg.FirstLevel != nil:
		return fmt.Errorf("inagg: job %d has both first-level switches and an aggregation tree", cfg.ID)
	case len(cfg.Tree) != len(cfg.Workers):
		return fmt.Errorf("inagg: job %d has %d tree chains for %d workers", cfg.ID, len(cfg.Tree), len(cfg.Workers))
	}
	for i, chain := range cfg.Tree {
		for k, a := range chain {
			switch {
			case a == nil:
				return fmt.Errorf("inagg: job %d worker %d: tree switch %d is nil", cfg.ID, i, k)
			case a == cfg.Switch:
				return fmt.Errorf("inagg: job %d worker %d: the PS's switch %s is the tree's root, not a level of the chain", cfg.ID, i, a.sw.Name())
			case slices.Contains(chain[:k], a):
				return fmt.Errorf("inagg: job %d worker %d crosses tree switch %s twice", cfg.ID, i, a.sw.Name())
			case a.mem.Size() != cfg.Switch.mem.Size():
				// ATP's workers choose one aggregator index for every level.
				return fmt.Errorf("inagg: job %d: tree switch %s has %d aggregators, the PS's switch %s %d; ATP's index needs the same at every level",
					cfg.ID, a.sw.Name(), a.mem.Size(), cfg.Switch.sw.Name(), cfg.Switch.mem.Size())
			}
		}
	}
	above := map[*Aggregator][]*Aggregator{} // the switches a tree switch's workers climb by
	lead := map[*Aggregator]int{}
	for i, chain := range cfg.Tree {
		for k, a := range chain {
			if up, ok := above[a]; !ok {
				above[a], lead[a] = chain[k+1:], i
			} else if !slices.Equal(up, chain[k+1:]) {
				return fmt.Errorf("inagg: job %d: workers %d and %d climb from tree switch %s by different switches: not a tree",
					cfg.ID, lead[a], i, a.sw.Name())
			}
		}
	}
	return nil
}

// checkTreeRoutes checks that the network's routes follow the tree: each
// worker's gradients cross exactly its chain, in order, then the PS's
// switch, among the job's switches, and its results the reverse.
func (j *Job) checkTreeRoutes() error {
	if j.cfg.Tree == nil {
		return nil
	}
	mine := map[netsim.NodeID]bool{j.agg.sw.ID(): true}
	for _, chain := range j.cfg.Tree {
		for _, a := range chain {
			mine[a.sw.ID()] = true
		}
	}
	crossed := func(src, dst netsim.NodeID, flow uint64) ([]netsim.NodeID, error) {
		links, err := j.net.Path(src, dst, flow)
		if err != nil {
			return nil, err
		}
		var out []netsim.NodeID
		for _, l := range links {
			if to := j.net.Link(l).To; mine[to] {
				out = append(out, to)
			}
		}
		return out, nil
	}
	ps := j.cfg.PS.ID()
	for i, w := range j.workers {
		want := make([]netsim.NodeID, 0, len(j.cfg.Tree[i])+1)
		for _, a := range j.cfg.Tree[i] {
			want = append(want, a.sw.ID())
		}
		want = append(want, j.agg.sw.ID())
		up, err := crossed(w.host.ID(), ps, w.flow)
		if err != nil {
			return fmt.Errorf("inagg: job %d worker %d: %w", j.cfg.ID, i, err)
		}
		down, err := crossed(ps, w.host.ID(), w.flow)
		if err != nil {
			return fmt.Errorf("inagg: job %d worker %d: %w", j.cfg.ID, i, err)
		}
		slices.Reverse(down)
		if !slices.Equal(up, want) || !slices.Equal(down, want) {
			return fmt.Errorf("inagg: job %d worker %d: its packets to the PS cross the job's switches %s and back %s, not its tree chain %s",
				j.cfg.ID, i, j.names(up), j.names(down), j.names(want))
		}
	}
	return nil
}

// names lists the nodes' names.
func (j *Job) names(ids []netsim.NodeID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = j.net.Node(id).Base().Name()
	}
	return out
}

// registerTree registers j at every switch of its tree, each summing the
// workers whose chains cross it, and gives the tree's switches and the
// root their children for the results' way down.
func (j *Job) registerTree() error {
	if j.cfg.Tree == nil {
		return nil
	}
	type node struct {
		bits uint64
		lead int
		kids []treeKid
	}
	nodes := map[*Aggregator]*node{}
	var order []*Aggregator
	var rootKids []treeKid
	kidOf := func(chain []*Aggregator, i, k int) treeKid {
		if k == 0 {
			return treeKid{w: i}
		}
		return treeKid{w: nodes[chain[k-1]].lead, sub: true}
	}
	for i, chain := range j.cfg.Tree {
		for k, a := range chain {
			n := nodes[a]
			if n == nil { // checkTree made sure every worker climbs from a by the same switches
				n = &node{lead: i}
				nodes[a] = n
				order = append(order, a)
			}
			n.bits |= 1 << uint(i)
			if kid := kidOf(chain, i, k); !slices.Contains(n.kids, kid) {
				n.kids = append(n.kids, kid)
			}
		}
		if kid := kidOf(chain, i, len(chain)); !slices.Contains(rootKids, kid) {
			rootKids = append(rootKids, kid)
		}
	}
	for k, a := range order {
		if err := a.register(j); err != nil {
			for _, b := range order[:k] {
				b.unregister(j)
			}
			return err
		}
		n := nodes[a]
		s := a.jobs[j.cfg.ID]
		s.level1, s.tree, s.full = true, true, n.bits
		s.upFlow, s.kids = j.workers[n.lead].flow, n.kids
	}
	root := j.agg.jobs[j.cfg.ID]
	root.tree, root.kids = true, rootKids
	j.first = order
	return nil
}

// treeMulticast sends result p down the tree from this switch: one copy
// to each child, p itself to the first.
func (a *Aggregator) treeMulticast(s *swJob, p *netsim.Packet) {
	j := s.job
	a.Stats.Sent += uint64(len(s.kids) - 1)
	for _, k := range s.kids[1:] {
		q := a.sw.Sim().Packets().Clone(p)
		j.addressKid(q, k)
		a.sw.Emit(q)
	}
	j.addressKid(p, s.kids[0])
}

// addressKid addresses result q to child k: the worker, or the subtree's
// first worker with the subtree mark.
func (j *Job) addressKid(q *netsim.Packet, k treeKid) {
	j.addressResult(q, k.w)
	if k.sub {
		q.Ext[extWorker] = subtreeMark(k.w)
	}
}
