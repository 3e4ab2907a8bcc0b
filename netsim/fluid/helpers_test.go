package fluid

import (
	"testing"

	"syncsim/netsim"
)

// fwd is a switch that exists only in the graph: the fluid engine never
// hands it packets.
type fwd struct{ netsim.NodeBase }

func (f *fwd) Receive(p *netsim.Packet, _ *netsim.Link) {
	panic("fluid test switch received a packet")
}

func addSwitch(net *netsim.Network, name string) netsim.NodeID {
	return net.AddNode(&fwd{}, netsim.KindSwitch, name)
}

// star builds n hosts around one switch; host i's cable has rate rates[i]
// (or rate if rates is nil) and the given delay.
func star(seed uint64, n int, rate netsim.Rate, delay netsim.Time, rates []netsim.Rate) (*netsim.Network, []netsim.NodeID) {
	sim := netsim.New(seed)
	net := netsim.NewNetwork(sim)
	sw := addSwitch(net, "sw")
	hosts := make([]netsim.NodeID, n)
	for i := range hosts {
		hosts[i] = net.AddHost("h" + itoa(i)).ID()
		r := rate
		if rates != nil {
			r = rates[i]
		}
		net.Connect(hosts[i], sw, r, delay, nil, nil)
	}
	net.BuildRoutes()
	return net, hosts
}

// leafSpine builds leaves x hostsPerLeaf hosts, every leaf joined to every
// spine; host cables at hostRate, fabric cables at fabricRate.
func leafSpine(seed uint64, leaves, spines, hostsPerLeaf int, hostRate, fabricRate netsim.Rate, delay netsim.Time) (*netsim.Network, []netsim.NodeID) {
	sim := netsim.New(seed)
	net := netsim.NewNetwork(sim)
	sp := make([]netsim.NodeID, spines)
	for i := range sp {
		sp[i] = addSwitch(net, "spine"+itoa(i))
	}
	var hosts []netsim.NodeID
	for l := 0; l < leaves; l++ {
		lf := addSwitch(net, "leaf"+itoa(l))
		for _, s := range sp {
			net.Connect(lf, s, fabricRate, delay, nil, nil)
		}
		for h := 0; h < hostsPerLeaf; h++ {
			id := net.AddHost("h" + itoa(l) + "_" + itoa(h)).ID()
			net.Connect(id, lf, hostRate, delay, nil, nil)
			hosts = append(hosts, id)
		}
	}
	net.BuildRoutes()
	return net, hosts
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	p := len(b)
	for i > 0 {
		p--
		b[p] = byte('0' + i%10)
		i /= 10
	}
	return string(b[p:])
}

// send starts a transfer after latency and records its done time in *at.
func send(e *Engine, src, dst netsim.NodeID, size netsim.Bytes, latency netsim.Time, at *netsim.Time) {
	*at = -1
	e.Send(src, dst, size, netsim.BulkOpts{StartLatency: latency}, func() {
		if *at != -1 {
			panic("done called twice")
		}
		*at = e.sim.Now()
	})
}

func mustCheck(t *testing.T, e *Engine) {
	t.Helper()
	if err := e.Check(); err != nil {
		t.Fatalf("at %v: %v", e.sim.Now(), err)
	}
}

// us and ms build times from integers.
func us(n int64) netsim.Time { return netsim.Time(n) * netsim.Microsecond }
func ms(n int64) netsim.Time { return netsim.Time(n) * netsim.Millisecond }
