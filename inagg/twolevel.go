package inagg

import (
	"syncsim/netsim"
	"syncsim/switchmodel"
)

// ATP's multi-rack aggregation (Lao et al., NSDI 2021): a job's workers'
// gradients are first summed at their rack switch (the first level, fan-in
// the job's workers under it), whose aggregate goes on towards the PS and
// is summed with the other racks' at the PS's rack switch (the second
// level), which sends the whole aggregate to the PS. Results come back
// from the PS through the PS's switch, which multicasts them, and through
// every first-level switch, which frees what its aggregator still holds
// for the sequence. The public ATP repository implements one rack
// (in-ATP/ATP p4src/p4ml.p4: one bitmap, one fan-in); the paper's header
// carries a second bitmap and fan-in for the second level. Here the
// contributions are worker bitmaps at both levels, so a gradient that
// found no aggregator at its rack switch is summed at the PS's switch like
// any other contribution.

// registerFirstLevel registers j at its distinct first-level switches,
// each with the bitmap of the workers it aggregates.
func (j *Job) registerFirstLevel() error {
	if j.cfg.FirstLevel == nil {
		return nil
	}
	bits := map[*Aggregator]uint64{}
	for i, a := range j.cfg.FirstLevel {
		if a == nil || a == j.agg {
			continue
		}
		if _, ok := bits[a]; !ok {
			j.first = append(j.first, a)
		}
		bits[a] |= 1 << uint(i)
	}
	for k, a := range j.first {
		if err := a.registerLevel1(j, bits[a]); err != nil {
			for _, b := range j.first[:k] {
				b.unregister(j)
			}
			j.first = nil
			return err
		}
	}
	return nil
}

// registerLevel1 attaches j to the switch as a first-level aggregator of
// the workers in bitmap local.
func (a *Aggregator) registerLevel1(j *Job, local uint64) error {
	if err := a.register(j); err != nil {
		return err
	}
	s := a.jobs[j.cfg.ID]
	s.level1, s.full = true, local
	return nil
}

// level1Ingress is a first-level switch's part (ATP only): sum the rack's
// workers' gradients of a sequence and send the rack's aggregate on
// towards the PS; a gradient whose aggregator is held goes on unsummed; a
// resend releases the partial aggregate to the PS and goes on. A switch
// of a job's aggregation tree (tree.go) does the same with the rack
// aggregates of the levels below it as contributions too.
func (a *Aggregator) level1Ingress(s *swJob, p *netsim.Packet) switchmodel.Verdict {
	seq := p.Seq
	idx := a.indexOf(s, p)
	ag := &a.mem.a[idx]
	if p.Flags&netsim.FlagRetx != 0 {
		if ag.state == aggHashed && ag.job == s.id && ag.seq == seq {
			a.flush(s, idx, p)
		}
		a.Stats.Level1Passed++
		return switchmodel.Forward
	}
	m := &s.ring[seq&s.mask]
	if m.tag > seq || m.tag == seq && m.done {
		a.Stats.Late++
		return switchmodel.Forward
	}
	pass := func() switchmodel.Verdict {
		if m.tag != seq {
			*m = seqMark{tag: seq}
		}
		m.passed = true
		a.Stats.Level1Passed++
		return switchmodel.Forward
	}
	bits := uint64(p.Ext[extBitmap]) // a worker's, or a lower level's (tree.go)
	switch {
	case bits&^s.full != 0:
		// Not (only) this switch's workers: the tree's routes keep this
		// from happening (Job.checkTreeRoutes); sent on whole if it does.
		return pass()
	case a.cfg.FollowOverflow && ag.state == aggFree && m.tag == seq && m.passed:
		// A contribution of this sequence went on unsummed: the rest
		// follow it (AggregatorConfig.FollowOverflow).
		return pass()
	case ag.state == aggFree:
		ag = a.allocate(s, idx, seq)
		a.Stats.Allocations++
	case ag.state == aggHashed && ag.job == s.id && ag.seq == seq:
	default:
		return pass()
	}
	if overlapping(ag.bitmap, bits) {
		return pass() // sums cannot be split: the PS sorts it out
	}
	if ag.bitmap&bits == 0 {
		ag.bitmap |= bits
		ag.value += p.Ext[extValue]
		ag.ce = ag.ce || p.Flags&netsim.FlagCE != 0
		a.Stats.Absorbed++
		a.Stats.AggregatedBytes += uint64(p.Payload)
	}
	if ag.bitmap != s.full {
		a.sw.Consume(p)
		return switchmodel.Consumed
	}
	a.Stats.Completions++
	payload := p.Payload
	a.fillAggregate(s, p, ag, seq, payload, KindRackAggregate)
	p.Ext[extAgtr] = int64(idx)
	p.Flow = flowLabel(int(s.id), MaxWorkers+1+int(a.sw.ID())) // each rack's aggregates take their own ECMP path
	if s.tree {
		p.Flow = s.upFlow // up the job's pinned tree (tree.go)
	}
	a.release(s, idx)
	return switchmodel.Forward
}

// overlapping reports whether a contribution of bits partly overlaps what
// an aggregator holds: a rack aggregate that cannot be summed there (sums
// cannot be split), which hashedIngress sends on to the PS to sort out.
func overlapping(held, bits uint64) bool { return held&bits != 0 && held&bits != bits }
