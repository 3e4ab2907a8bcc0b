package transport

import "syncsim/netsim"

// A flow opened inside a window of a parallel run whose receiver lies in
// another partition cannot register the receiving endpoint itself: that
// host's partition is running on another thread. The sender posts the
// registration there (netsim.Sim.Post) for its clock plus the lookahead,
// which is before any of the flow's segments can arrive: every path to
// another partition crosses a link of at least the lookahead's delay,
// after at least one serialisation. Until the first ACK brings the
// endpoint's number, the sender addresses segments by flow
// (netsim.EPByFlow). Closing posts the unregistration the same way; the
// receiver acknowledges the segments that arrive before it, and the
// closed sender's host discards those ACKs as unclaimed.

// postOpen posts the registration of the flow's receiving endpoint to
// the destination's partition.
func (f *Flow) postOpen() {
	f.dstEP = netsim.EPByFlow
	sim := f.srcHost.Sim()
	dh, r := f.dstHost, &f.rcv
	sim.Post(dh.Sim().Partition(), sim.Now()+f.st.net.Sim.Lookahead(), func() {
		r.ep = dh.RegisterFlow(f.ID, r)
		r.open = true
	})
}

// postClose posts the unregistration of the receiving endpoint.
func (f *Flow) postClose() {
	sim := f.srcHost.Sim()
	dh, r, id := f.dstHost, &f.rcv, f.ID
	sim.Post(dh.Sim().Partition(), sim.Now()+f.st.net.Sim.Lookahead(), func() {
		dh.UnregisterFlow(id, r.ep)
		r.open = false
	})
}
