package switchmodel_test

import (
	"fmt"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// echo is a switch program that answers every packet addressed to the
// switch by reflecting it to its sender.
type echo struct{}

func (echo) Ingress(sw *switchmodel.Switch, p *netsim.Packet, _ *netsim.Link) switchmodel.Verdict {
	if p.Dst != sw.ID() {
		return switchmodel.Forward
	}
	p.Dst, p.Src = p.Src, sw.ID()
	return switchmodel.Forward
}

type printer struct{ sim *netsim.Sim }

func (k printer) Receive(p *netsim.Packet) {
	fmt.Println("echo back at", k.sim.Now())
	k.sim.Packets().Put(p)
}

func Example() {
	sim := netsim.New(1)
	net := netsim.NewNetwork(sim)
	sw := switchmodel.Add(net, "tor")
	h := net.AddHost("h0")
	q := switchmodel.QueueConfig{Buffer: 256 * netsim.Kilobyte, ECNPackets: 20}
	net.Connect(h.ID(), sw.ID(), 10*netsim.Gbps, netsim.Microsecond,
		switchmodel.NewQueue(sim, q), switchmodel.NewQueue(sim, q))
	net.BuildRoutes()
	sw.SetProgram(echo{})
	ep := h.Register(printer{sim})

	p := sim.Packets().Get()
	p.Dst, p.DstEP, p.Size = sw.ID(), ep, 1250 // 1 us at 10 Gbps
	h.Send(p)
	sim.Run(netsim.Never)
	fmt.Println("books balance:", net.CheckConservation() == nil)
	// Output:
	// echo back at 4us
	// books balance: true
}
