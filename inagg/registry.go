package inagg

import (
	"fmt"

	"syncsim/netsim"
)

// seqMark is the switch's per-sequence record for hashed jobs: overflowed
// gradients counted towards AECN, and whether the result has passed.
type seqMark struct {
	tag    int64
	ovf    int32
	done   bool
	passed bool // first-level switch: a contribution went on unsummed
}

// swJob is a job's state at its aggregating switch.
type swJob struct {
	job   *Job
	id    int32
	proto Protocol
	n     int
	full  uint64
	ps    netsim.NodeID
	psEP  int32

	// PA-ATP progress registers (Sec. IV, Fig. 7): s_n per worker, s_sum.
	sn         []int64
	ssum, smax int64

	ring []seqMark // indexed by seq & mask
	mask int64

	aggOff int // IndexSequential: the job's offset into the aggregators
	// level1: the switch is one of the job's first-level (rack) switches,
	// summing the workers in full (JobConfig.FirstLevel).
	level1 bool
	// tree: the switch is a node of the job's aggregation tree
	// (JobConfig.Tree, tree.go): a level-1 switch of the tree also sums
	// rack aggregates and sends what it emits towards the PS with upFlow
	// (the flow label of the first worker under it, whose pinned path it
	// then follows); every tree switch, the root included, sends results
	// down to its kids.
	tree   bool
	upFlow uint64
	kids   []treeKid

	poolBase, poolSize int // SwitchML

	// share, when set, is this switch's share of the job's books: a
	// two-level job on a partitioned network (twolevel_part.go).
	share *jobShare
}

// register attaches j to the switch.
func (a *Aggregator) register(j *Job) error {
	id := int(j.cfg.ID)
	if id < len(a.jobs) && a.jobs[id] != nil {
		return fmt.Errorf("inagg: job %d is already registered at switch %s", id, a.sw.Name())
	}
	n := len(j.workers)
	s := &swJob{job: j, id: int32(id), proto: j.cfg.Protocol, n: n, full: fullMask(n), ps: j.ps.host.ID(), psEP: j.ps.ep}
	if s.proto == SwitchML {
		pool := j.params.SwitchMLPool
		if pool == 0 {
			pool = a.cfg.BDPPackets
		}
		if int64(pool) > j.packets {
			pool = int(j.packets)
		}
		base, err := a.mem.reserve(s.id, 2*pool)
		if err != nil {
			return err
		}
		s.poolBase, s.poolSize = base, pool
	}
	if s.proto.Hashed() {
		s.sn = make([]int64, n)
		for i := range s.sn {
			s.sn[i] = -1
		}
		s.ssum, s.smax = -int64(n), -1
		size := ringSize(j.psRing)
		s.ring, s.mask = make([]seqMark, size), int64(size-1)
		for i := range s.ring {
			s.ring[i].tag = -1
		}
		s.aggOff = a.chooseOffset()
	}
	for id >= len(a.jobs) {
		a.jobs = append(a.jobs, nil)
	}
	a.jobs[id] = s
	a.njobs++
	return nil
}

// unregister detaches a finished job, counting the aggregators it still
// holds as leaked and releasing them.
func (a *Aggregator) unregister(j *Job) {
	id := int(j.cfg.ID)
	if id >= len(a.jobs) || a.jobs[id] == nil || a.jobs[id].job != j {
		return
	}
	s := a.jobs[id]
	if s.proto.Hashed() {
		for i := range a.mem.a {
			ag := &a.mem.a[i]
			if ag.state == aggHashed && ag.job == s.id {
				a.Stats.Leaked++
				a.release(s, i)
			}
		}
		for i := range s.ring {
			a.retire(&s.ring[i])
		}
	}
	if s.proto == SwitchML {
		a.mem.unreserve(s.poolBase, 2*s.poolSize)
	}
	a.jobs[id] = nil
	a.njobs--
}

// lookup finds the job of an INA packet whose PS is ps.
func (a *Aggregator) lookup(p *netsim.Packet, ps netsim.NodeID) *swJob {
	id := p.Ext[extJob]
	if id < 0 || id >= int64(len(a.jobs)) {
		return nil
	}
	s := a.jobs[id]
	if s == nil || s.ps != ps {
		return nil
	}
	return s
}
