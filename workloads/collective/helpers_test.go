package collective

import (
	"strconv"

	"syncsim/netsim"
	"syncsim/netsim/fluid"
)

// graphSwitch only exists in the graph; the fluid engine sends it nothing.
type graphSwitch struct{ netsim.NodeBase }

func (s *graphSwitch) Receive(*netsim.Packet, *netsim.Link) {
	panic("collective test switch received a packet")
}

// fluidStar is n hosts on one switch, every cable at rate with the given
// propagation delay, under a max-min fluid engine.
func fluidStar(n int, rate netsim.Rate, delay netsim.Time) (*netsim.Sim, *fluid.Engine, []netsim.NodeID) {
	sim := netsim.New(1)
	net := netsim.NewNetwork(sim)
	sw := net.AddNode(&graphSwitch{}, netsim.KindSwitch, "sw")
	hosts := make([]netsim.NodeID, n)
	for i := range hosts {
		hosts[i] = net.AddHost("h" + strconv.Itoa(i)).ID()
		net.Connect(hosts[i], sw, rate, delay, nil, nil)
	}
	net.BuildRoutes()
	return sim, fluid.New(net, fluid.MaxMin), hosts
}

// sendRec is one Send seen by a fake Bulk.
type sendRec struct {
	src, dst   netsim.NodeID
	size       netsim.Bytes
	issued, at netsim.Time // when Send was called, when done fired
}

// fakeBulk completes every send after delay(src, size) through a sim
// event (zero: instantaneous) and logs it.
type fakeBulk struct {
	sim   *netsim.Sim
	delay func(src netsim.NodeID, size netsim.Bytes) netsim.Time
	log   []*sendRec
	order []string // "send i" / "done i" in the order they happened
}

func (f *fakeBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, _ netsim.BulkOpts, done func()) {
	r := &sendRec{src: src, dst: dst, size: size, issued: f.sim.Now()}
	idx := len(f.log)
	f.log = append(f.log, r)
	f.order = append(f.order, "send "+strconv.Itoa(idx))
	var d netsim.Time
	if f.delay != nil {
		d = f.delay(src, size)
	}
	f.sim.AfterFunc(d, func() {
		r.at = f.sim.Now()
		f.order = append(f.order, "done "+strconv.Itoa(idx))
		done()
	})
}

// countBulk counts bytes sent per source on top of another Bulk.
type countBulk struct {
	inner netsim.Bulk
	sent  map[netsim.NodeID]netsim.Bytes
}

func (c *countBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	c.sent[src] += size
	c.inner.Send(src, dst, size, opts, done)
}
