package inagg

import "syncsim/netsim"

// psEntry is the parameter server's state for one sequence.
type psEntry struct {
	seq    int64
	value  int64
	bitmap uint64 // contributions merged
	swBits uint64 // of which arrived aggregated by the switch
	ce     bool
	done   bool
}

// PSStats are a parameter server's counters.
type PSStats struct {
	Gradients   uint64 // individual gradient packets received (overflow, resend, BytePS)
	Aggregates  uint64 // complete or partial aggregates received from the switch
	Duplicates  uint64 // contributions received again
	Conflicts   uint64 // aggregates overlapping contributions already merged (dropped; recovered by resends)
	Completions uint64 // sequences completed here (results multicast)
	Resent      uint64 // results resent to one worker after a duplicate gradient or a pull
	Pulls       uint64 // result pulls received
	GACKs       uint64 // GACKs sent
	Sent        uint64 // packets sent: GACKs and results (every copy)
	Stale       uint64 // packets for a sequence the ring has moved past (must stay 0)
	Overwritten uint64 // incomplete sequences overwritten in the ring (must stay 0)
}

// paramServer is a job's PS endpoint: it finishes aggregation for
// gradients that missed the switch (and for every gradient under BytePS),
// acknowledges them for the asynchronous protocols, and multicasts each
// completed result to all workers.
type paramServer struct {
	j     *Job
	host  *netsim.Host
	ep    int32
	ring  []psEntry
	mask  int64
	stats PSStats
}

// Receive implements netsim.Endpoint.
func (ps *paramServer) Receive(p *netsim.Packet) {
	j := ps.j
	pool := ps.host.Sim().Packets()
	if p.Ext[extJob] != int64(j.cfg.ID) {
		pool.Put(p)
		return
	}
	seq := p.Seq
	e := &ps.ring[seq&ps.mask]
	if p.Kind == KindPull {
		ps.pull(p, e)
		return
	}
	if e.seq != seq {
		if e.seq > seq {
			ps.stats.Stale++
			pool.Put(p)
			return
		}
		if !e.done && e.bitmap != 0 {
			ps.stats.Overwritten++
		}
		*e = psEntry{seq: seq}
	}
	bits := uint64(p.Ext[extBitmap])
	switch p.Kind {
	case KindGradient:
		ps.stats.Gradients++
		w := int(p.Ext[extWorker])
		if e.done {
			// The worker missed the result: answer with it.
			ps.stats.Resent++
			ps.fillResult(p, e, w)
			ps.send(p)
			return
		}
		if e.bitmap&bits != 0 {
			ps.stats.Duplicates++
		} else {
			e.bitmap |= bits
			e.value += p.Ext[extValue]
		}
		e.ce = e.ce || p.Flags&netsim.FlagCE != 0
		full := e.bitmap == fullMask(len(j.workers))
		if j.cfg.Protocol.Async() {
			// The GACK goes out at once, ahead of any result.
			makeGACK(p, ps.host.ID(), j.hdr)
			p.Flow = j.workers[w].flow
			ps.stats.GACKs++
			ps.send(p)
			p = nil
		}
		if full {
			ps.complete(e, p)
		} else if p != nil {
			pool.Put(p)
		}
	case KindAggregate, KindPartial, KindRackAggregate:
		ps.stats.Aggregates++
		switch {
		case e.done && p.Flags&netsim.FlagRetx != 0 && p.Ext[extWorker] >= 0:
			// A resend that carried a partial aggregate (ATP's switch):
			// its worker missed the result, answer with it.
			ps.stats.Duplicates++
			ps.stats.Resent++
			ps.fillResult(p, e, int(p.Ext[extWorker]))
			ps.host.Send(p)
			return
		case e.done || e.bitmap&bits == bits:
			ps.stats.Duplicates++
		case e.bitmap&bits != 0:
			ps.stats.Conflicts++
		default:
			e.bitmap |= bits
			e.swBits |= bits
			e.value += p.Ext[extValue]
			e.ce = e.ce || p.Flags&netsim.FlagCE != 0
			if e.bitmap == fullMask(len(j.workers)) {
				ps.complete(e, p)
				return
			}
		}
		pool.Put(p)
	default:
		pool.Put(p)
	}
}

// pull answers a worker's pull with the result of its sequence if the
// sequence is complete, and drops it otherwise.
func (ps *paramServer) pull(p *netsim.Packet, e *psEntry) {
	ps.stats.Pulls++
	if e.seq != p.Seq || !e.done {
		ps.host.Sim().Packets().Put(p)
		return
	}
	ps.stats.Resent++
	ps.fillResult(p, e, int(p.Ext[extWorker]))
	ps.send(p)
}

// complete sends e's result to every worker (reusing spare, if not nil)
// and books where the contributions were summed. Under the INA protocols
// the PS sends one copy, which the aggregating switch multicasts (ATP);
// under BytePS it sends one copy per worker.
func (ps *paramServer) complete(e *psEntry, spare *netsim.Packet) {
	j := ps.j
	e.done = true
	ps.stats.Completions++
	sw := uint64(popcount(e.swBits))
	j.stats.SwitchContributions += sw
	j.stats.PSContributions += uint64(len(j.workers)) - sw
	if j.agg != nil {
		q := spare
		if q == nil {
			q = ps.host.Sim().Packets().Get()
		}
		ps.fillResult(q, e, 0)
		q.Ext[extWorker] = -1 // to all workers, by the switch
		ps.send(q)
		return
	}
	for i := range j.workers {
		q := spare
		if i < len(j.workers)-1 || q == nil {
			q = ps.host.Sim().Packets().Get()
		}
		ps.fillResult(q, e, i)
		ps.send(q)
	}
}

// send puts p, a GACK or a result, on the wire.
func (ps *paramServer) send(p *netsim.Packet) {
	ps.stats.Sent++
	ps.host.Send(p)
}

// fillResult writes e's result into q for worker i.
func (ps *paramServer) fillResult(q *netsim.Packet, e *psEntry, i int) {
	j := ps.j
	q.Kind = KindResult
	q.Ring = j.ring
	q.Seq = e.seq
	q.SrcEP = ps.ep
	q.Payload = j.payloadOf(e.seq)
	q.Size = j.hdr + q.Payload
	q.Flags = 0
	if e.ce {
		q.Flags = netsim.FlagECE
	}
	if j.params.ResultECN {
		q.Flags |= netsim.FlagECT
	}
	q.Ext[extJob] = int64(j.cfg.ID)
	q.Ext[extValue] = e.value
	q.Ext[extBitmap] = int64(e.bitmap)
	if j.atpIdx != nil {
		// ATP's result carries the aggregator index, with which the
		// switch frees the aggregator (in-ATP/ATP p4src/p4ml.p4:36-47).
		q.Ext[extAgtr] = j.atpIndex(e.seq)
	}
	j.addressResult(q, i)
}

// addressResult addresses result q to worker i.
func (j *Job) addressResult(q *netsim.Packet, i int) {
	wk := j.workers[i]
	q.Dst, q.DstEP = wk.host.ID(), wk.ep
	q.Flow = wk.flow
	q.Ext[extWorker] = int64(i)
}
