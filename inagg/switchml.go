package inagg

import (
	"syncsim/netsim"
	"syncsim/switchmodel"
)

// SwitchML (Sapio et al., NSDI 2021) as PA-ATP's baseline: each job owns a
// pool of S slots at the switch, each with two copies (SwitchML's shadow
// copies). Sequence s goes to slot s mod S, copy (s / S) mod 2. A worker
// sends s + S into a slot only when the result of s has returned, so the
// pool is the whole window and there is no congestion control. Losses are
// recovered by per-slot timeouts (switchml_worker.go, switchml_timer.go):
// the worker resends to the slot; the switch adds a missing contribution
// or, if the copy is complete, answers with its result (the public P4
// program keeps 8192 slots of two copies, p4lang/p4app-switchML
// dev_root/p4/configuration.p4:23-26). The copy for s is reused only by s + 2S, which no worker can send
// before every worker has received the result of s, so the answer is always
// still there.

// slotIngress aggregates a SwitchML gradient in its slot copy.
func (a *Aggregator) slotIngress(s *swJob, p *netsim.Packet) switchmodel.Verdict {
	seq := p.Seq
	w := int(p.Ext[extWorker])
	S := int64(s.poolSize)
	idx := s.poolBase + int(2*(seq%S)+(seq/S)%2)
	ag := &a.mem.a[idx]
	switch {
	case ag.seq > seq:
		a.Stats.Late++
		a.sw.Consume(p)
		return switchmodel.Consumed
	case ag.seq < seq:
		*ag = aggregator{seq: seq, job: s.id, state: aggPool}
	}
	bit := uint64(1) << uint(w)
	if ag.done {
		// A resend for a completed slot: its result was lost.
		a.fillResult(s, p, ag, w)
		a.Stats.Results++
		return switchmodel.Forward
	}
	if ag.bitmap&bit != 0 {
		a.sw.Consume(p)
		return switchmodel.Consumed
	}
	ag.bitmap |= bit
	ag.value += p.Ext[extValue]
	a.Stats.Absorbed++
	a.Stats.AggregatedBytes += uint64(p.Payload)
	if ag.bitmap != s.full {
		a.sw.Consume(p)
		return switchmodel.Consumed
	}
	ag.done = true
	a.Stats.Completions++
	s.job.stats.SwitchContributions += uint64(s.n)
	for i := 0; i < s.n; i++ {
		if i == w {
			continue
		}
		q := a.sw.Sim().Packets().Get()
		q.Payload = p.Payload
		a.fillResult(s, q, ag, i)
		a.Stats.Results++
		a.sw.Emit(q)
	}
	a.fillResult(s, p, ag, w)
	a.Stats.Results++
	return switchmodel.Forward
}

// fillResult writes slot copy ag's result into q for worker i.
func (a *Aggregator) fillResult(s *swJob, q *netsim.Packet, ag *aggregator, i int) {
	a.Stats.Sent++
	j := s.job
	q.Kind = KindResult
	q.Seq = ag.seq
	q.Src, q.SrcEP = a.sw.ID(), -1
	q.Dst, q.DstEP = j.workers[i].host.ID(), j.workers[i].ep
	q.Flow = j.workers[i].flow
	q.Size = j.hdr + q.Payload
	q.Flags = 0
	q.Ext[extJob] = int64(s.id)
	q.Ext[extWorker] = int64(i)
	q.Ext[extValue] = ag.value
	q.Ext[extBitmap] = int64(ag.bitmap)
}
