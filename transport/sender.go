package transport

import "syncsim/netsim"

// trySend sends new segments while the window allows (RFC 5681: at most
// cwnd bytes outstanding) and arms the retransmission timer if data is
// outstanding and it is not running (RFC 6298 Sec. 5.1).
func (f *Flow) trySend() {
	mss := f.st.cfg.MSS
	f.cwndLimited, f.tsqWait = false, false
	for f.sndNxt < f.limit {
		seg := mss
		if rem := f.limit - f.sndNxt; rem < int64(seg) {
			seg = netsim.Bytes(rem)
		}
		if netsim.Bytes(f.sndNxt-f.sndUna)+seg > f.cwnd {
			f.cwndLimited = true
			break
		}
		if f.tsqBlocked(seg) {
			// TCP small queues: wait for the NIC to take a packet
			// (TxDone), not for an ACK.
			f.tsqWait = true
			break
		}
		f.sendSegment(f.sndNxt, seg)
		f.sndNxt += int64(seg)
		if f.sndNxt > f.sndMax {
			f.sndMax = f.sndNxt
		}
	}
	if f.sndMax > f.sndUna && !f.timer.Armed() {
		f.timer.SetAfter(f.rto.RTO())
	}
}

// retransmitHead resends the first unacknowledged segment.
func (f *Flow) retransmitHead() {
	seg := f.st.cfg.MSS
	if rem := f.limit - f.sndUna; rem < int64(seg) {
		seg = netsim.Bytes(rem)
	}
	f.sendSegment(f.sndUna, seg)
}

// sendSegment puts one data segment on the wire. A segment below sndMax is
// a retransmission.
func (f *Flow) sendSegment(seq int64, payload netsim.Bytes) {
	sim := f.srcHost.Sim()
	p := sim.Packets().Get()
	p.Flow = f.ID
	p.Dst = f.Dst
	p.SrcEP = f.srcEP
	p.DstEP = f.dstEP
	p.Payload = payload
	p.Size = payload + f.st.cfg.HeaderBytes
	p.Seq = seq
	p.SentAt = sim.Now()
	f.lastSend = p.SentAt
	p.Class = f.Class
	if f.cc == DCTCP {
		p.Flags = netsim.FlagECT
	}
	if seq < f.sndMax {
		p.Flags |= netsim.FlagRetx
		f.Retransmits++
		f.st.count(sim, &f.st.Retransmits, ctrRetransmits, 1)
	}
	if f.tsq {
		f.inHost += p.Size
	}
	f.sending = true
	f.srcHost.Send(p)
	f.sending = false
}

// Receive implements netsim.Endpoint for the sender: it processes one ACK.
func (f *Flow) Receive(p *netsim.Packet) {
	sim := f.srcHost.Sim()
	if p.Flow != f.ID || f.state != stateRunning || p.Flags&netsim.FlagACK == 0 {
		sim.Packets().Put(p) // stale packet for a reused endpoint number
		return
	}
	if f.dstEP == netsim.EPByFlow {
		f.dstEP = p.SrcEP // the receiving endpoint's number, from its partition
	}
	ack, echo := p.Ack, p.Echo
	ece := f.cc == DCTCP && p.Flags&netsim.FlagECE != 0
	sim.Packets().Put(p)
	if ack > f.sndMax {
		return // acknowledges data never sent: ignore
	}
	now := sim.Now()
	mss := f.st.cfg.MSS
	delivered := mss // what this ACK reports received: one segment for a duplicate

	switch {
	case ack > f.sndUna:
		acked := netsim.Bytes(ack - f.sndUna)
		delivered = acked
		flight := netsim.Bytes(f.sndNxt - f.sndUna)
		f.sndUna = ack
		if ack > f.sndNxt {
			f.sndNxt = ack // originals overtook a go-back-N restart
		}
		f.rto.Sample(now - echo) // timestamps make every sample unambiguous
		if f.cc == DCTCP {
			f.dctcp.account(acked, ece)
		}
		restart := true
		if f.inRecovery {
			if ack >= f.recover { // full ACK: leave fast recovery (RFC 6582 Sec. 3.2 step 3)
				f.inRecovery = false
				f.cwnd = FullAckWindow(f.ssthresh, netsim.Bytes(f.sndMax-ack), mss)
				f.caAcc = 0
			} else { // partial ACK (RFC 6582 Sec. 3.2 step 5, "impatient" timer)
				f.retransmitHead()
				f.cwnd = PartialAckDeflate(f.cwnd, acked, mss)
				restart = !f.partialSeen
				f.partialSeen = true
			}
		} else if f.cwrAck(acked, ece) {
			f.grow(acked, flight)
		}
		f.dupacks = 0
		if f.cc == DCTCP {
			f.dctcp.closeWindow(ack, f.sndNxt)
		}
		if ack >= f.limit && f.conn == nil {
			f.state = stateFinished
			f.close()
			if f.bulkAcked != nil {
				f.bulkAcked()
			}
			return
		}
		if f.sndUna >= f.sndMax {
			f.timer.Stop() // RFC 6298 Sec. 5.2
		} else if restart {
			f.timer.SetAfter(f.rto.RTO()) // RFC 6298 Sec. 5.3
		}
	case ack == f.sndUna && f.sndMax > f.sndUna:
		f.dupacks++
		if f.cc == DCTCP {
			f.dctcp.account(mss, ece) // one more segment has arrived
		}
		if f.inRecovery {
			f.cwnd += mss // window inflation (RFC 5681 Sec. 3.2 step 5)
		} else if f.dupacks == 3 && ack > f.recover {
			// Fast retransmit (RFC 6582 Sec. 3.2 steps 1-2).
			f.inRecovery, f.partialSeen = true, false
			f.FastRecoveries++
			f.cwnd, f.ssthresh = FastRecoveryEntry(netsim.Bytes(f.sndMax-f.sndUna), mss)
			f.caAcc = 0
			f.recover = f.sndMax
			f.cwrEnd = f.sndMax // the loss response is this window's reduction
			f.cwrRecovery()
			f.retransmitHead()
		}
	}

	cut := ece && !f.inRecovery && f.cwrOver()
	if cut {
		f.cwrCut(delivered)
	}
	f.trySend()
	if cut && f.st.cfg.CWR == CWRGrow {
		// At most one cut per window of data (DCTCP paper, Sec. 3.1):
		// the next cut waits until the data sent under the reduced
		// window is acknowledged, one round trip later. (Setting the
		// mark before sending, as Linux's CWR entry does, lets a small
		// window cut again within a fraction of a round trip.)
		f.cwrEnd = f.sndNxt
	}
}

// grow applies slow start below ssthresh and congestion avoidance above
// (RFC 5681 Sec. 3.1), capped at MaxCwndPkts, while the window limits the
// sender (RFC 7661, as Linux's tcp_is_cwnd_limited): the last send stopped
// at the window, or, in slow start, at least half the window was in flight
// (flight: outstanding bytes before this ACK). A sender that ran out of
// data keeps its window, so a persistent connection does not carry a
// window its traffic never used into its next message as one burst.
func (f *Flow) grow(acked, flight netsim.Bytes) {
	mss := f.st.cfg.MSS
	if !f.cwndLimited && !(f.cwnd < f.ssthresh && 2*flight >= f.cwnd) {
		return
	}
	if f.cwnd < f.ssthresh {
		f.cwnd = SlowStart(f.cwnd, acked, mss)
	} else {
		f.cwnd, f.caAcc = CongestionAvoidance(f.cwnd, f.caAcc, acked, mss)
	}
	if f.maxCwnd > 0 && f.cwnd > f.maxCwnd {
		f.cwnd = f.maxCwnd
	}
}

// onTimeout is the RTO expiry (RFC 6298 Sec. 5.4-5.6, RFC 5681 Sec. 3.1):
// back the timer off, collapse cwnd to one segment and go back to the
// first unacknowledged byte; NewReno's recover moves to the highest
// sequence sent (RFC 6582 Sec. 3.2 step 6).
func (f *Flow) onTimeout() {
	if f.state != stateRunning || f.sndUna >= f.sndMax {
		return
	}
	f.Timeouts++
	f.st.count(f.srcHost.Sim(), &f.st.Timeouts, ctrTimeouts, 1)
	mss := f.st.cfg.MSS
	if f.rto.Backoffs() == 0 {
		// A repeated timeout of the same data keeps ssthresh (RFC 5681 Eq. 4 note).
		f.ssthresh = LossSsthresh(netsim.Bytes(f.sndMax-f.sndUna), mss)
	}
	f.cwnd = mss
	f.caAcc = 0
	f.inRecovery, f.partialSeen, f.dupacks = false, false, 0
	f.recover = f.sndMax
	f.cwrEnd = f.sndMax
	f.inCWR, f.prr = false, false // TCP_CA_Loss: slow start runs again
	f.rto.Backoff()
	f.sndNxt = f.sndUna
	f.trySend()
}
