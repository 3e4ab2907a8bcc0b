package dssync

import (
	"fmt"

	"syncsim/netsim"
)

// Grouper says which groups synchronise in iteration t.
type Grouper interface {
	GroupsAt(t int) Grouping
}

// Fixed is a Grouper that uses the same grouping every iteration: one
// group of all workers for the BSP baselines.
type Fixed Grouping

// GroupsAt implements Grouper.
func (f Fixed) GroupsAt(int) Grouping { return Grouping(f) }

// All is the grouping of n workers in one group.
func All(n int) Fixed {
	g := make(Group, n)
	for i := range g {
		g[i] = i
	}
	return Fixed{g}
}

// RunFunc runs one collective among workers ws (in group order) on size
// bytes and calls done once when it has finished.
type RunFunc func(ws []int, size netsim.Bytes, done func()) error

// GroupSync synchronises each iteration's groups independently (Sec.
// III-A step 4: "DS-Sync synchronizes all groups in parallel"): a group's
// collective for piece l starts once every member has invoked piece l and
// the group's previous piece has finished (the pieces of one group run in
// order, as collectives on one NCCL communicator do), and completes the
// piece for all members at once. With one group of all workers it is BSP
// with layer-wise all-reduce.
type GroupSync struct {
	Groups Grouper
	Run    RunFunc
	iters  map[int]*iterGroups
}

// iterGroups is one iteration's grouping and the state of its groups.
type iterGroups struct {
	g    Grouping
	of   []int
	runs []*groupRun
	left int // groups not finished
}

// groupRun is one group's progress through the pieces of one iteration.
type groupRun struct {
	members []int
	invoked []int // per piece: members that invoked it
	next    int   // next piece to run (pieces run last to first)
	busy    bool
}

// NewGroupSync returns a GroupSync.
func NewGroupSync(g Grouper, run RunFunc) *GroupSync {
	return &GroupSync{Groups: g, Run: run, iters: map[int]*iterGroups{}}
}

// Invoke implements Syncer.
func (s *GroupSync) Invoke(j *Job, w, t, l int) {
	it := s.iters[t]
	if it == nil {
		g := s.Groups.GroupsAt(t)
		it = &iterGroups{g: g, of: g.GroupOf(j.Workers()), runs: make([]*groupRun, len(g)), left: len(g)}
		s.iters[t] = it
	}
	gi := it.of[w]
	r := it.runs[gi]
	if r == nil {
		L := len(j.Pieces())
		r = &groupRun{members: it.g[gi], invoked: make([]int, L), next: L - 1}
		it.runs[gi] = r
	}
	r.invoked[l]++
	s.try(j, t, it, r)
}

func (s *GroupSync) try(j *Job, t int, it *iterGroups, r *groupRun) {
	if r.busy || r.next < 0 || r.invoked[r.next] < len(r.members) {
		return
	}
	l := r.next
	r.busy = true
	err := s.Run(r.members, j.Pieces()[l], func() {
		r.busy = false
		r.next--
		j.rec().GroupAveraged(t, l, r.members)
		for _, m := range r.members {
			j.Synced(m, t, l)
		}
		if r.next < 0 {
			it.left--
			if it.left == 0 {
				delete(s.iters, t)
			}
			return
		}
		s.try(j, t, it, r)
	})
	if err != nil {
		panic(fmt.Sprintf("dssync: collective of group %v failed: %v", r.members, err))
	}
}

// fifo runs operations one at a time, in the order they were queued.
type fifo struct {
	busy bool
	q    []func(done func())
}

func (f *fifo) push(op func(done func())) {
	f.q = append(f.q, op)
	f.next()
}

func (f *fifo) next() {
	if f.busy || len(f.q) == 0 {
		return
	}
	op := f.q[0]
	f.q = f.q[1:]
	f.busy = true
	op(func() {
		f.busy = false
		f.next()
	})
}

// GossipSync is synchronous gossip on a shift graph: in iteration t
// worker i sends each piece to worker (i + Offsets[t mod len]) mod n
// (collective.ExponentialPeers gives the dynamic exponential graph of
// stochastic gradient push) and the piece is in place once its own send
// is done and the piece from its in-peer (i - offset) has arrived. A
// worker's sends go out one at a time, in the order invoked.
type GossipSync struct {
	Offsets []int
	Bulk    netsim.Bulk
	Opts    netsim.BulkOpts
	sends   []fifo
	events  map[[3]int]int
}

// NewGossipSync returns a GossipSync for n workers.
func NewGossipSync(n int, offsets []int, bulk netsim.Bulk, opts netsim.BulkOpts) (*GossipSync, error) {
	if n > 1 && len(offsets) == 0 {
		return nil, fmt.Errorf("gossip: no peer offsets")
	}
	for _, o := range offsets {
		if o < 1 || o >= n {
			return nil, fmt.Errorf("gossip: offset %d, want 1..%d", o, n-1)
		}
	}
	return &GossipSync{Offsets: offsets, Bulk: bulk, Opts: opts, sends: make([]fifo, n), events: map[[3]int]int{}}, nil
}

// Invoke implements Syncer.
func (s *GossipSync) Invoke(j *Job, w, t, l int) {
	n := j.Workers()
	if n == 1 {
		j.Sim().AfterFunc(0, func() { j.Synced(w, t, l) })
		return
	}
	dst := (w + s.Offsets[t%len(s.Offsets)]) % n
	j.rec().GossipSent(w, dst, t, l)
	s.sends[w].push(func(done func()) {
		s.Bulk.Send(j.Host(w), j.Host(dst), j.Pieces()[l], s.Opts, func() {
			s.one(j, w, t, l)
			s.one(j, dst, t, l)
			done()
		})
	})
}

// one counts one of the two events worker w waits for in piece l of
// iteration t.
func (s *GossipSync) one(j *Job, w, t, l int) {
	k := [3]int{w, t, l}
	s.events[k]++
	if s.events[k] == 2 {
		delete(s.events, k)
		j.rec().GossipMerged(w, (w-s.Offsets[t%len(s.Offsets)]%j.Workers()+j.Workers())%j.Workers(), t, l)
		j.Synced(w, t, l)
	}
}

// ASPSync is asynchronous parallel training through a parameter server
// (Sec. V-A1: "ASP can only use PS"; Hogwild-style, ref. [12]): each
// worker pushes each piece's gradient to the server as soon as it is
// ready and the server returns the piece's current parameters when the
// push has arrived; the piece is in place when they reach the worker. No
// worker waits for another. A worker's pushes go out one at a time, as do
// the server's replies to one worker.
type ASPSync struct {
	PS   netsim.NodeID
	Bulk netsim.Bulk
	Opts netsim.BulkOpts
	push []fifo
	pull []fifo
}

// NewASPSync returns an ASPSync for n workers and a server on host ps.
func NewASPSync(n int, ps netsim.NodeID, bulk netsim.Bulk, opts netsim.BulkOpts) *ASPSync {
	return &ASPSync{PS: ps, Bulk: bulk, Opts: opts, push: make([]fifo, n), pull: make([]fifo, n)}
}

// Invoke implements Syncer.
func (s *ASPSync) Invoke(j *Job, w, t, l int) {
	size := j.Pieces()[l]
	s.push[w].push(func(done func()) {
		s.Bulk.Send(j.Host(w), s.PS, size, s.Opts, func() {
			done()
			j.rec().Pushed(w, t, l)
			s.pull[w].push(func(done func()) {
				j.rec().Pulled(w, t, l)
				s.Bulk.Send(s.PS, j.Host(w), size, s.Opts, func() {
					done()
					j.Synced(w, t, l)
				})
			})
		})
	})
}
