package switchmodel

import (
	"testing"

	"syncsim/netsim"
)

// sink is an endpoint recording arrivals and freeing packets.
type sink struct {
	net   *netsim.Network
	times []netsim.Time
	pkts  []netsim.Packet
}

func (k *sink) Receive(p *netsim.Packet) {
	k.times = append(k.times, k.net.Sim.Now())
	k.pkts = append(k.pkts, *p)
	k.net.Sim.Packets().Put(p)
}

func send(net *netsim.Network, h *netsim.Host, dst netsim.NodeID, ep int32, n int, size netsim.Bytes, flow uint64, flags netsim.Flags) {
	for i := 0; i < n; i++ {
		p := net.Sim.Packets().Get()
		p.Dst, p.DstEP, p.Size, p.Payload, p.Flow, p.Flags = dst, ep, size, size, flow, flags
		p.Seq = int64(i)
		h.Send(p)
	}
}

func mustConserve(t *testing.T, net *netsim.Network, held int) {
	t.Helper()
	if err := net.CheckConservation(); err != nil {
		t.Fatal(err)
	}
	if live, fl := net.Sim.Packets().Live(), net.InFlight(); live != int64(fl)+int64(held) {
		t.Fatalf("packet pool: %d live packets but %d in flight + %d held (leak)", live, fl, held)
	}
}

// star3 is three hosts on one switch, 10 Gbps, 1 us links.
func star3(t *testing.T, cfg QueueConfig) (*netsim.Network, *Switch, []*netsim.Host, []*sink) {
	t.Helper()
	s := netsim.New(7)
	net := netsim.NewNetwork(s)
	sw := Add(net, "sw")
	var hs []*netsim.Host
	var ks []*sink
	for _, n := range []string{"h0", "h1", "h2"} {
		h := net.AddHost(n)
		net.Connect(h.ID(), sw.ID(), 10*netsim.Gbps, netsim.Microsecond, nil, NewQueue(s, cfg))
		k := &sink{net: net}
		h.Register(k)
		hs, ks = append(hs, h), append(ks, k)
	}
	net.BuildRoutes()
	return net, sw, hs, ks
}

func TestSwitchForwardsWithLatency(t *testing.T) {
	net, sw, hs, ks := star3(t, QueueConfig{})
	send(net, hs[0], hs[2].ID(), 0, 2, 1250, 1, 0)
	net.Sim.Run(netsim.Never)
	// 1250 B at 10 Gbps = 1 us per hop; store and forward:
	// p0: 1 us tx + 1 us prop + 1 us tx + 1 us prop = 4 us; p1 one tx later.
	want := []netsim.Time{4 * netsim.Microsecond, 5 * netsim.Microsecond}
	if len(ks[2].times) != 2 || ks[2].times[0] != want[0] || ks[2].times[1] != want[1] {
		t.Fatalf("arrivals %v, want %v", ks[2].times, want)
	}
	if ks[2].pkts[0].Hops != 1 {
		t.Errorf("hops %d, want 1", ks[2].pkts[0].Hops)
	}
	if sw.Received != 2 || sw.Forwarded != 2 {
		t.Errorf("switch counters received %d forwarded %d, want 2 2", sw.Received, sw.Forwarded)
	}
	mustConserve(t, net, 0)
}

// reflector sends every packet back to its source.
type reflector struct{}

func (reflector) Ingress(sw *Switch, p *netsim.Packet, _ *netsim.Link) Verdict {
	p.Dst, p.Src = p.Src, sw.ID()
	p.Flags |= netsim.FlagACK
	return Forward
}

// eater consumes every packet, or keeps every other one to re-send later.
type eater struct {
	keep []*netsim.Packet
	hold bool
}

func (e *eater) Ingress(sw *Switch, p *netsim.Packet, _ *netsim.Link) Verdict {
	if e.hold && p.Seq%2 == 1 {
		sw.Deliver(p)
		e.keep = append(e.keep, p)
		return Consumed
	}
	sw.Consume(p)
	return Consumed
}

// multicaster copies every packet to all hosts other than its source,
// emitting clones and consuming the original.
type multicaster struct{ hosts []netsim.NodeID }

func (m multicaster) Ingress(sw *Switch, p *netsim.Packet, _ *netsim.Link) Verdict {
	for _, h := range m.hosts {
		if h == p.Src {
			continue
		}
		c := sw.Net().Sim.Packets().Clone(p)
		c.Dst = h
		sw.Emit(c)
	}
	sw.Consume(p)
	return Consumed
}

// kindEater consumes packets of its kinds; with filter set it declares
// them as a KindFilter, without it it returns Forward for the others.
type kindEater struct {
	eater
	kinds []uint8
	seen  map[uint8]int
}

func (e *kindEater) Ingress(sw *Switch, p *netsim.Packet, in *netsim.Link) Verdict {
	e.seen[p.Kind]++
	for _, k := range e.kinds {
		if p.Kind == k {
			return e.eater.Ingress(sw, p, in)
		}
	}
	return Forward
}

type filteringEater struct{ *kindEater }

func (f filteringEater) IngressKinds() []uint8 { return f.kinds }

func TestProgramKinds(t *testing.T) {
	run := func(filter bool) (map[uint8]int, []netsim.Packet, *Switch) {
		net, sw, hs, ks := star3(t, QueueConfig{})
		e := &kindEater{kinds: []uint8{7, 200}, seen: map[uint8]int{}}
		if filter {
			sw.SetProgram(filteringEater{e})
		} else {
			sw.SetProgram(e)
		}
		for i, kind := range []uint8{0, 7, 3, 200, 255, 64, 7} {
			p := net.Sim.Packets().Get()
			p.Dst, p.Size, p.Payload, p.Flow, p.Kind, p.Seq = hs[2].ID(), 500, 500, 3, kind, int64(i)
			hs[0].Send(p)
		}
		net.Sim.Run(netsim.Never)
		mustConserve(t, net, 0)
		return e.seen, ks[2].pkts, sw
	}
	seenAll, gotAll, swAll := run(false)
	seenF, gotF, swF := run(true)
	if len(seenAll) != 6 || seenF[7] != 2 || seenF[200] != 1 || len(seenF) != 2 {
		t.Errorf("program saw kinds %v unfiltered (want all 6), %v filtered (want 7 twice, 200 once)", seenAll, seenF)
	}
	if len(gotF) != 4 || len(gotAll) != 4 || swF.Consumed != 3 || swAll.Consumed != 3 {
		t.Fatalf("delivered %d and %d, consumed %d and %d; want 4, 4, 3, 3", len(gotAll), len(gotF), swAll.Consumed, swF.Consumed)
	}
	for i := range gotF {
		if gotF[i].Kind != gotAll[i].Kind || gotF[i].Hops != 1 || gotAll[i].Hops != 1 || swF.Forwarded != swAll.Forwarded {
			t.Errorf("packet %d: filtered %+v, unfiltered %+v", i, gotF[i], gotAll[i])
		}
	}
	swF.SetProgram(nil)
	if swF.kinds != (kindSet{}) {
		t.Errorf("no program, kinds %v", swF.kinds)
	}
}

func TestPrograms(t *testing.T) {
	t.Run("reflect", func(t *testing.T) {
		net, sw, hs, ks := star3(t, QueueConfig{})
		sw.SetProgram(reflector{})
		send(net, hs[0], hs[2].ID(), 0, 5, 1000, 3, 0)
		net.Sim.Run(3 * netsim.Microsecond)
		mustConserve(t, net, 0)
		net.Sim.Run(netsim.Never)
		if len(ks[0].pkts) != 5 || len(ks[2].pkts) != 0 {
			t.Fatalf("h0 got %d, h2 got %d; want 5 reflected, 0", len(ks[0].pkts), len(ks[2].pkts))
		}
		if !ks[0].pkts[0].Flags.Has(netsim.FlagACK) || ks[0].pkts[0].Src != sw.ID() {
			t.Errorf("reflected packet not rewritten: %+v", ks[0].pkts[0])
		}
		mustConserve(t, net, 0)
	})
	t.Run("consume", func(t *testing.T) {
		net, sw, hs, ks := star3(t, QueueConfig{})
		sw.SetProgram(&eater{})
		send(net, hs[0], hs[2].ID(), 0, 5, 1000, 3, 0)
		net.Sim.Run(netsim.Never)
		if len(ks[2].pkts) != 0 || sw.Consumed != 5 || net.Stats().Delivered != 5 {
			t.Fatalf("consumed %d delivered %d, h2 got %d", sw.Consumed, net.Stats().Delivered, len(ks[2].pkts))
		}
		mustConserve(t, net, 0)
	})
	t.Run("hold-then-emit", func(t *testing.T) {
		net, sw, hs, ks := star3(t, QueueConfig{})
		e := &eater{hold: true}
		sw.SetProgram(e)
		send(net, hs[0], hs[2].ID(), 0, 6, 1000, 3, 0)
		net.Sim.Run(netsim.Never)
		if len(e.keep) != 3 {
			t.Fatalf("kept %d, want 3", len(e.keep))
		}
		mustConserve(t, net, len(e.keep))
		sw.SetProgram(nil)
		for _, p := range e.keep {
			sw.Emit(p) // re-send: counted as a new injection
		}
		e.keep = nil
		mustConserve(t, net, 0)
		net.Sim.Run(netsim.Never)
		if len(ks[2].pkts) != 3 {
			t.Fatalf("h2 got %d, want the 3 re-sent packets", len(ks[2].pkts))
		}
		st := net.Stats()
		if st.Injected != 9 || st.Delivered != 9 {
			t.Errorf("books %+v, want 9 injected (6 + 3 re-sent), 9 delivered", st)
		}
		mustConserve(t, net, 0)
	})
	t.Run("multicast", func(t *testing.T) {
		net, sw, hs, ks := star3(t, QueueConfig{})
		sw.SetProgram(multicaster{hosts: net.Hosts()})
		send(net, hs[1], hs[0].ID(), 0, 4, 500, 3, 0)
		net.Sim.Run(2 * netsim.Microsecond)
		mustConserve(t, net, 0)
		net.Sim.Run(netsim.Never)
		if len(ks[0].pkts) != 4 || len(ks[2].pkts) != 4 || len(ks[1].pkts) != 0 {
			t.Fatalf("deliveries h0 %d h1 %d h2 %d, want 4 0 4", len(ks[0].pkts), len(ks[1].pkts), len(ks[2].pkts))
		}
		st := net.Stats()
		if st.Injected != 12 || st.Delivered != 12 || sw.Emitted != 8 {
			t.Errorf("books %+v emitted %d, want 12/12 and 8 emitted", st, sw.Emitted)
		}
		mustConserve(t, net, 0)
	})
}

func TestNoRouteDrops(t *testing.T) {
	net, sw, hs, _ := star3(t, QueueConfig{})
	send(net, hs[0], sw.ID(), 0, 2, 100, 1, 0) // addressed to the switch, no program
	net.Sim.Run(netsim.Never)
	if sw.NoRoute != 2 || net.Stats().Dropped != 2 {
		t.Fatalf("no-route %d dropped %d, want 2 2", sw.NoRoute, net.Stats().Dropped)
	}
	mustConserve(t, net, 0)
}

// sprayNet is h0 - s0 = {m0..m3} = s1 - h1: four equal-cost paths.
func sprayNet(spray bool) (*netsim.Network, *Switch, []*Switch, *netsim.Host, *netsim.Host, *sink) {
	s := netsim.New(11)
	net := netsim.NewNetwork(s)
	h0, h1 := net.AddHost("h0"), net.AddHost("h1")
	s0, s1 := Add(net, "s0"), Add(net, "s1")
	s0.Spray = spray
	g := 100 * netsim.Gbps
	net.Connect(h0.ID(), s0.ID(), g, 0, nil, nil)
	net.Connect(s1.ID(), h1.ID(), g, 0, nil, nil)
	var mids []*Switch
	for _, n := range []string{"m0", "m1", "m2", "m3"} {
		m := Add(net, n)
		net.Connect(s0.ID(), m.ID(), g, 0, nil, nil)
		net.Connect(m.ID(), s1.ID(), g, 0, nil, nil)
		mids = append(mids, m)
	}
	net.BuildRoutes()
	k := &sink{net: net}
	h1.Register(k)
	return net, s0, mids, h0, h1, k
}

func TestSpray(t *testing.T) {
	for _, spray := range []bool{false, true} {
		net, _, mids, h0, h1, k := sprayNet(spray)
		const n = 4000
		send(net, h0, h1.ID(), 0, n, 100, 42, 0)
		net.Sim.Run(netsim.Never)
		if len(k.pkts) != n {
			t.Fatalf("delivered %d of %d", len(k.pkts), n)
		}
		used := 0
		for _, m := range mids {
			c := m.Received
			if c > 0 {
				used++
			}
			// Uniform spraying: each path gets Binomial(4000, 1/4): mean
			// 1000, sigma 27.4; 5 sigma = 137.
			if spray && (c < 1000-137 || c > 1000+137) {
				t.Errorf("spray: middle switch %s carried %d of %d", m.Name(), c, n)
			}
		}
		if want := map[bool]int{false: 1, true: 4}[spray]; used != want {
			t.Errorf("spray=%v: %d paths used, want %d", spray, used, want)
		}
		mustConserve(t, net, 0)
	}
}

// TestSwitchReadsBodies checks what a switch tells links about its body
// reads (netsim.BodyReader): none without a program, every kind with a
// program that is no KindFilter, only the filter's kinds with one.
func TestSwitchReadsBodies(t *testing.T) {
	net, sw, _, _ := star3(t, QueueConfig{})
	desc := func(kind uint8) *netsim.Desc {
		p := net.Sim.Packets().Get()
		p.Kind, p.Size = kind, 100
		d := p.Desc()
		net.Sim.Packets().Put(p)
		return &d
	}
	if sw.ReadsBodies() {
		t.Errorf("a switch without a program reads bodies")
	}
	e := &kindEater{kinds: []uint8{7, 200}, seen: map[uint8]int{}}
	sw.SetProgram(e)
	if !sw.ReadsBodies() || !sw.ReadsBody(desc(3)) || !sw.ReadsBody(desc(255)) {
		t.Errorf("a program without a kind filter: reads %v, kind 3 %v, kind 255 %v; want all true",
			sw.ReadsBodies(), sw.ReadsBody(desc(3)), sw.ReadsBody(desc(255)))
	}
	sw.SetProgram(filteringEater{e})
	if !sw.ReadsBodies() || !sw.ReadsBody(desc(7)) || !sw.ReadsBody(desc(200)) || sw.ReadsBody(desc(3)) || sw.ReadsBody(desc(0)) {
		t.Errorf("a kind filter of 7 and 200: kinds 7, 200, 3, 0 read %v %v %v %v; want true true false false",
			sw.ReadsBody(desc(7)), sw.ReadsBody(desc(200)), sw.ReadsBody(desc(3)), sw.ReadsBody(desc(0)))
	}
	sw.SetProgram(nil)
	if sw.ReadsBodies() {
		t.Errorf("a switch whose program was removed reads bodies")
	}
}
