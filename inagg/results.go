package inagg

import "syncsim/netsim"

// resultPassing handles an AACK from the PS crossing the switch: the
// sequence is done (its overflow count is retired, a partial aggregate
// left behind by a sequence completed at the PS is released), and the
// AACK is marked AECN when the occupancy exceeds eta (M + BDP) (Sec.
// III-B3).
func (a *Aggregator) resultPassing(s *swJob, p *netsim.Packet) {
	a.Stats.Results++
	seq := p.Seq
	m := &s.ring[seq&s.mask]
	if m.tag <= seq && !(m.tag == seq && m.done) {
		a.retire(m)
		*m = seqMark{tag: seq, done: true}
		idx := a.indexOf(s, p)
		if ag := &a.mem.a[idx]; ag.state == aggHashed && ag.job == s.id && ag.seq == seq {
			a.release(s, idx)
			a.Stats.StaleReleases++
		}
	}
	if s.proto.AsyncLimited() && a.Occupancy() > a.aecnThr {
		p.Flags |= netsim.FlagAECN
		a.Stats.AECNMarked++
		s.stats().AECNMarked++
	}
}

// multicast replicates a result the PS sent once for all workers (ATP's
// switch multicasts the PS's result to the job's workers): copies go to
// workers 1..n-1 and p itself to worker 0.
func (a *Aggregator) multicast(s *swJob, p *netsim.Packet) {
	if s.kids != nil {
		a.treeMulticast(s, p) // down the job's tree (tree.go)
		return
	}
	j := s.job
	a.Stats.Sent += uint64(s.n - 1)
	for i := 1; i < s.n; i++ {
		q := a.sw.Sim().Packets().Clone(p)
		j.addressResult(q, i)
		a.sw.Emit(q)
	}
	j.addressResult(p, 0)
}
