package transport

import "syncsim/netsim"

// receiver is a flow's endpoint on the destination host. It acknowledges
// every data segment at once with a cumulative ACK and echoes the
// segment's CE mark exactly in ECE, the per-packet echo that the DCTCP
// receiver approximates with its two-state delayed-ACK machine (DCTCP
// paper, Sec. 3.1, "ECN-Echo at the Receiver"). Out-of-order segments are
// kept in a ring bitmap.
type receiver struct {
	f        *Flow
	ep       int32
	nxt      int64 // next expected payload byte
	ooo      segSet
	complete bool
}

// Receive implements netsim.Endpoint: it consumes a data segment and
// turns the same packet into the ACK, so the steady state allocates
// nothing.
func (r *receiver) Receive(p *netsim.Packet) {
	f := r.f
	sim := f.st.net.Sim
	if p.Flow != f.ID || p.Flags&netsim.FlagACK != 0 || f.state != stateRunning {
		sim.Packets().Put(p) // stale packet for a reused endpoint number
		return
	}
	mss := int64(f.st.cfg.MSS)
	switch {
	case p.Seq == r.nxt:
		r.nxt += int64(p.Payload)
		for r.ooo.n > 0 && r.nxt%mss == 0 {
			s := r.nxt / mss
			if !r.ooo.take(s) {
				break
			}
			end := (s + 1) * mss
			if end > f.limit {
				end = f.limit
			}
			r.nxt = end
		}
	case p.Seq > r.nxt:
		r.ooo.add(r.nxt/mss, p.Seq/mss)
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

	if !r.complete && r.nxt >= f.limit {
		r.complete = true
		f.complete()
	}
}
