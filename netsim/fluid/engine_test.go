package fluid

import (
	"testing"

	"syncsim/netsim"
)

// Sizes are chosen so that hand-computed times are exact: 1 MB = 8e6 bits
// takes 800 us at 10 Gbps.
const mb = netsim.Megabyte

type flowSpec struct {
	src, dst int          // host indices
	size     netsim.Bytes //
	latency  netsim.Time  // StartLatency
	want     netsim.Time  // hand-computed done time
}

type capSpec struct {
	at       netsim.Time
	from, to int // host index, or -1 for the switch
	rate     netsim.Rate
}

// linkBetween finds the directed link from a to b.
func linkBetween(t *testing.T, net *netsim.Network, a, b netsim.NodeID) netsim.LinkID {
	t.Helper()
	for _, l := range net.Links() {
		if l.From == a && l.To == b {
			return l.ID
		}
	}
	t.Fatalf("no link %d->%d", a, b)
	return -1
}

func TestStarHandComputed(t *testing.T) {
	const G10 = 10 * netsim.Gbps
	cases := []struct {
		name  string
		mode  Mode
		n     int
		rates []netsim.Rate // per host cable, nil: all 10 Gbps
		delay netsim.Time
		flows []flowSpec
		caps  []capSpec
	}{
		{
			name: "single transfer: latency + size/rate + propagation",
			n:    2, delay: us(1),
			flows: []flowSpec{{0, 1, mb, us(5), us(5) + us(800) + us(2)}},
		},
		{
			name: "two flows share a bottleneck half each",
			n:    3,
			flows: []flowSpec{
				{0, 2, mb, 0, us(1600)},
				{1, 2, mb, 0, us(1600)},
			},
		},
		{
			// f0 is limited to 2 Gbps by its own cable; the other two
			// split the remaining 8 Gbps of host 3's downlink.
			name:  "unequal demands: limited flow gets its bottleneck, rest split remainder",
			n:     4,
			rates: []netsim.Rate{2 * netsim.Gbps, G10, G10, G10},
			flows: []flowSpec{
				{0, 3, mb, 0, us(4000)}, // 8e6 bits at 2 Gbps
				{1, 3, mb, 0, us(2000)}, // 8e6 bits at 4 Gbps
				{2, 3, mb, 0, us(2000)},
			},
		},
		{
			// f1 arrives at 400 us when f0 has 4e6 bits left: both run at
			// 5 Gbps; f0 ends at 1200 us, then f1 (4e6 bits left) runs at
			// 10 Gbps and ends at 1600 us.
			name: "arrival mid-way re-rates",
			n:    3,
			flows: []flowSpec{
				{0, 2, mb, 0, us(1200)},
				{1, 2, mb, us(400), us(1600)},
			},
		},
		{
			name: "capacity halved mid-way",
			n:    2,
			flows: []flowSpec{
				{0, 1, mb, 0, us(1200)}, // 4e6 bits at 10G, then 4e6 at 5G
			},
			caps: []capSpec{{us(400), 0, -1, 5 * netsim.Gbps}},
		},
		{
			name: "zero capacity stalls then resumes",
			n:    2,
			flows: []flowSpec{
				{0, 1, mb, 0, us(1400)}, // 400 us, stall 600 us, 400 us
			},
			caps: []capSpec{{us(400), -1, 1, 0}, {us(1000), -1, 1, G10}},
		},
		{
			name: "FCFS: same instant shares max-min",
			mode: FCFS, n: 3,
			flows: []flowSpec{
				{0, 2, mb, 0, us(1600)},
				{1, 2, mb, 0, us(1600)},
			},
		},
		{
			// f0 (t=0) takes host 3's downlink; f1 (t=100us, also to host
			// 3) waits at rate 0; f2 (t=200us, from host 1 like f1) finds
			// host 1's uplink free and runs at 10G. When f0 ends at 800
			// us, f1 ranks before f2 on host 1's uplink and takes it all:
			// f1 ends at 1600 us; f2 has sent 6e6 bits, waits, then sends
			// the last 2e6 bits in 200 us: 1800 us.
			name: "FCFS: earlier transfer takes what it can, later waits",
			mode: FCFS, n: 4,
			flows: []flowSpec{
				{0, 3, mb, 0, us(800)},
				{1, 3, mb, us(100), us(1600)},
				{1, 2, mb, us(200), us(1800)},
			},
		},
		{
			// The same three under max-min: f0 alone to 100 us (1e6 bits);
			// f0, f1 at 5G to 200 us; then f0=f1=f2=5G (host 3's downlink
			// and host 1's uplink both split two ways). f0 has 6.5e6 bits
			// left at 200 us: ends at 1500 us. Then f1 and f2 share host
			// 1's uplink: f1 has 1e6 left at 5G, f2 has 1.5e6 left at 5G:
			// f1 ends at 1700 us, f2 then alone at 10G with 0.5e6 left:
			// 1750 us.
			name: "max-min counterpart of the FCFS case",
			n:    4,
			flows: []flowSpec{
				{0, 3, mb, 0, us(1500)},
				{1, 3, mb, us(100), us(1700)},
				{1, 2, mb, us(200), us(1750)},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			net, hosts := star(1, tc.n, 10*netsim.Gbps, tc.delay, tc.rates)
			e := New(net, tc.mode)
			got := make([]netsim.Time, len(tc.flows))
			for i, f := range tc.flows {
				send(e, hosts[f.src], hosts[f.dst], f.size, f.latency, &got[i])
			}
			sw := netsim.NodeID(0)
			for _, c := range tc.caps {
				a, b := sw, sw
				if c.from >= 0 {
					a = hosts[c.from]
				}
				if c.to >= 0 {
					b = hosts[c.to]
				}
				l := linkBetween(t, net, a, b)
				r := c.rate
				net.Sim.At(c.at, func() {
					if err := e.SetCapacity(l, r); err != nil {
						t.Error(err)
					}
				})
			}
			// Audit the allocation at every 50 us.
			for at := us(50); at < ms(5); at += us(50) {
				net.Sim.Run(at)
				mustCheck(t, e)
			}
			net.Sim.Run(netsim.Never)
			mustCheck(t, e)
			for i, f := range tc.flows {
				// Projections are ceil'd to the picosecond at each re-rate.
				if d := got[i] - f.want; d < 0 || d > 4 {
					t.Errorf("flow %d done at %v, want %v", i, got[i], f.want)
				}
			}
			if e.Completed() != uint64(len(tc.flows)) || e.Active() != 0 || e.Pending() != 0 {
				t.Errorf("completed %d active %d pending %d", e.Completed(), e.Active(), e.Pending())
			}
		})
	}
}

// TestParkingLot: three switches' links in series, L1 = 10G, L2 = 4G,
// L3 = 10G; a long flow crosses all three and one short flow crosses each.
// Max-min: L2 is the bottleneck, long = short2 = 2G; short1 = short3 = 8G.
// Sizes 1 MB except short2 (0.5 MB): short1 and short3 end at 1 ms; short2
// (4e6 bits at 2G) at 2 ms; the long flow has sent 4e6 bits by then and
// runs alone at 4G (L2): its last 4e6 bits take 1 ms, ending at 3 ms.
// Without re-rating on departure it would end at 4 ms.
func TestParkingLot(t *testing.T) {
	sim := netsim.New(1)
	net := netsim.NewNetwork(sim)
	var r [4]netsim.NodeID
	var h [4]netsim.NodeID
	for i := range r {
		r[i] = addSwitch(net, "r"+itoa(i))
		h[i] = net.AddHost("h" + itoa(i)).ID()
		net.Connect(h[i], r[i], 100*netsim.Gbps, 0, nil, nil)
	}
	caps := []netsim.Rate{10 * netsim.Gbps, 4 * netsim.Gbps, 10 * netsim.Gbps}
	for i, c := range caps {
		net.Connect(r[i], r[i+1], c, 0, nil, nil)
	}
	net.BuildRoutes()
	e := New(net, MaxMin)
	var long, s1, s2, s3 netsim.Time
	send(e, h[0], h[3], mb, 0, &long)
	send(e, h[0], h[1], mb, 0, &s1)
	send(e, h[1], h[2], mb/2, 0, &s2)
	send(e, h[2], h[3], mb, 0, &s3)
	sim.Run(us(500))
	mustCheck(t, e)
	want := map[uint64]float64{1: 2e9, 2: 8e9, 3: 2e9, 4: 8e9}
	for _, tr := range e.slots {
		if w := want[tr.id]; tr.rate < w*(1-1e-12) || tr.rate > w*(1+1e-12) {
			t.Errorf("flow %d rate %g, want %g", tr.id, tr.rate, w)
		}
	}
	sim.Run(netsim.Never)
	mustCheck(t, e)
	for _, c := range []struct {
		name      string
		got, want netsim.Time
	}{{"long", long, ms(3)}, {"short1", s1, ms(1)}, {"short2", s2, ms(2)}, {"short3", s3, ms(1)}} {
		if d := c.got - c.want; d < 0 || d > 4 {
			t.Errorf("%s done at %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestIncrementalTouchesOnlyComponent: transfers on disjoint host pairs
// form separate components; an arrival on one pair must not re-rate or
// re-project the other.
func TestIncrementalTouchesOnlyComponent(t *testing.T) {
	net, hosts := star(1, 4, 10*netsim.Gbps, 0, nil)
	e := New(net, MaxMin)
	var a, b, c netsim.Time
	send(e, hosts[0], hosts[1], mb, 0, &a)
	send(e, hosts[2], hosts[3], mb, 0, &b)
	net.Sim.Run(us(100))
	other := e.slots[1]
	lastBefore := other.last
	send(e, hosts[0], hosts[1], mb, 0, &c) // same pair as the first
	net.Sim.Run(us(100))
	if other.last != lastBefore {
		t.Errorf("transfer on a disjoint pair was advanced (last %v -> %v)", lastBefore, other.last)
	}
	if e.Recomputations() != 2 {
		t.Errorf("%d recomputations, want 2 (one per instant with arrivals)", e.Recomputations())
	}
	net.Sim.Run(netsim.Never)
	// a and c share at 5G from 100 us: a has 7e6 bits left -> ends 1500
	// us, by which time c has sent 7e6 bits; c then alone at 10G with 1e6
	// bits left: 1600 us. b alone: 800 us.
	for _, x := range []struct{ got, want netsim.Time }{{a, us(1500)}, {b, us(800)}, {c, us(1600)}} {
		if d := x.got - x.want; d < 0 || d > 4 {
			t.Errorf("done at %v, want %v", x.got, x.want)
		}
	}
}

func TestDegenerateTransfers(t *testing.T) {
	net, hosts := star(1, 2, 10*netsim.Gbps, us(3), nil)
	e := New(net, MaxMin)
	var zero, self netsim.Time
	send(e, hosts[0], hosts[1], 0, us(1), &zero)
	send(e, hosts[0], hosts[0], mb, us(2), &self)
	net.Sim.Run(netsim.Never)
	if zero != us(7) {
		t.Errorf("zero-byte transfer done at %v, want latency 1us + propagation 6us", zero)
	}
	if self != us(2) {
		t.Errorf("transfer to self done at %v, want its latency 2us", self)
	}
	if e.BytesDelivered() != mb || e.Completed() != 2 {
		t.Errorf("delivered %d bytes in %d transfers", e.BytesDelivered(), e.Completed())
	}
}

func TestSetCapacityErrors(t *testing.T) {
	net, _ := star(1, 2, 10*netsim.Gbps, 0, nil)
	e := New(net, MaxMin)
	if err := e.SetCapacity(99, netsim.Gbps); err == nil {
		t.Error("unknown link accepted")
	}
	if err := e.SetCapacity(0, -1); err == nil {
		t.Error("negative rate accepted")
	}
	if _, err := ParseMode("fair"); err == nil {
		t.Error("unknown mode name accepted")
	}
	for _, m := range []Mode{MaxMin, FCFS} {
		if p, err := ParseMode(m.String()); err != nil || p != m {
			t.Errorf("ParseMode(%q) = %v, %v", m.String(), p, err)
		}
	}
}

func TestProjectFinishRounding(t *testing.T) {
	cases := []struct {
		name      string
		rem, rate float64
		want      netsim.Time
	}{
		{"exact", 1e6, 1e10, us(800)},
		{"rounds up", 1, 3e9, 2667}, // 8e12/3e9 = 2666.67 ps
		{"nothing left", 0, 1e9, 0},
		{"zero rate", 5, 0, netsim.Never},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := projectFinish(0, tc.rem, tc.rate); got != tc.want {
				t.Errorf("projectFinish(%g, %g) = %d, want %d", tc.rem, tc.rate, got, tc.want)
			}
		})
	}
}

// TestEqualFlowsJain: N equal flows into one host get C/N each, finish
// together at N*S/C, and Jain's fairness index of their throughputs is 1.
func TestEqualFlowsJain(t *testing.T) {
	const n = 10
	net, hosts := star(1, n+1, 10*netsim.Gbps, 0, nil)
	e := New(net, MaxMin)
	got := make([]netsim.Time, n)
	for i := 0; i < n; i++ {
		send(e, hosts[i], hosts[n], mb, 0, &got[i])
	}
	net.Sim.Run(netsim.Never)
	var sum, sq float64
	for i, at := range got {
		if d := at - n*us(800); d < 0 || d > 4 {
			t.Errorf("flow %d done at %v, want %v", i, at, n*us(800))
		}
		x := netsim.RateOf(mb, at)
		sum += x
		sq += x * x
	}
	if j := sum * sum / (n * sq); j < 1-1e-9 {
		t.Errorf("Jain's index %v, want 1", j)
	}
}

// TestSendFromDoneBatches: with zero propagation, done runs inside the
// completion handler; a Send from it joins the same recomputation. f0
// (0.5 MB) and f1 (1 MB) share host 2's downlink at 5G; f0 ends at 800 us
// and its done starts f2 (0.5 MB), which then shares with f1 (4e6 bits
// left each): both end at 1600 us.
func TestSendFromDoneBatches(t *testing.T) {
	net, hosts := star(1, 3, 10*netsim.Gbps, 0, nil)
	e := New(net, MaxMin)
	var f0, f1, f2 netsim.Time
	f2 = -1
	e.Send(hosts[0], hosts[2], mb/2, netsim.BulkOpts{}, func() {
		f0 = e.sim.Now()
		send(e, hosts[0], hosts[2], mb/2, 0, &f2)
	})
	send(e, hosts[1], hosts[2], mb, 0, &f1)
	net.Sim.Run(netsim.Never)
	mustCheck(t, e)
	for _, x := range []struct {
		name      string
		got, want netsim.Time
	}{{"f0", f0, us(800)}, {"f1", f1, us(1600)}, {"f2", f2, us(1600)}} {
		if d := x.got - x.want; d < 0 || d > 4 {
			t.Errorf("%s done at %v, want %v", x.name, x.got, x.want)
		}
	}
	// One recomputation at 0 and one at 800 us for the departure and the
	// arrival together; at 1600 us nothing is left to re-rate.
	if r := e.Recomputations(); r != 2 {
		t.Errorf("%d recomputations, want 2", r)
	}
}
