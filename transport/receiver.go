package transport

import "syncsim/netsim"

// receiver is a flow's endpoint on the destination host. It acknowledges
// every data segment at once with a cumulative ACK and echoes the
// segment's CE mark exactly in ECE, the per-packet echo that the DCTCP
// receiver approximates with its two-state delayed-ACK machine (DCTCP
// paper, Sec. 3.1, "ECN-Echo at the Receiver"). Out-of-order byte ranges
// are kept in a span set.
type receiver struct {
	f        *Flow
	ep       int32
	nxt      int64 // next expected payload byte
	ooo      spanSet
	complete bool
	// open is set while the endpoint is registered: the receiver's own
	// view of the flow's life, which on a partitioned network it cannot
	// read from the sender's state.
	open bool
}

// Receive implements netsim.Endpoint: it consumes a data segment and
// turns the same packet into the ACK, so the steady state allocates
// nothing.
func (r *receiver) Receive(p *netsim.Packet) {
	f := r.f
	sim := f.dstHost.Sim()
	if p.Flow != f.ID || p.Flags&netsim.FlagACK != 0 || !r.open {
		sim.Packets().Put(p) // stale packet for a reused endpoint number
		return
	}
	f.st.count(sim, &f.st.Segments, ctrSegments, 1)
	if s, e := p.Seq, p.Seq+int64(p.Payload); s <= r.nxt {
		if e > r.nxt {
			r.nxt = e
			if r.ooo.len() > 0 {
				r.nxt = r.ooo.advance(r.nxt)
			}
		}
	} else {
		r.ooo.add(s, e)
	}

	// The data packet becomes the ACK.
	flags := netsim.FlagACK
	if p.Flags&netsim.FlagCE != 0 {
		flags |= netsim.FlagECE
	}
	p.Dst, p.DstEP, p.SrcEP = p.Src, p.SrcEP, r.ep
	p.Size = f.st.cfg.HeaderBytes
	p.Payload = 0
	p.Ack = r.nxt
	p.Echo = p.SentAt
	p.SentAt = sim.Now()
	p.Flags = flags
	p.Hops = 0
	f.dstHost.Send(p)

	if f.conn != nil {
		f.conn.delivered(r.nxt)
		return
	}
	if !r.complete && r.nxt >= f.limit {
		r.complete = true
		f.complete()
	}
}
