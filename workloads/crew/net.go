package crew

import (
	"fmt"
	"math"

	"syncsim/netsim"
	"syncsim/netsim/fluid"
	"syncsim/switchmodel"
	"syncsim/topologies"
	"syncsim/transport"
)

// Fidelity selects the engine that moves the transfers.
type Fidelity uint8

const (
	// Flow is the fluid engine (netsim/fluid).
	Flow Fidelity = iota
	// Packet is DCTCP over output-queued switch ports (transport.Stack).
	Packet
)

// Policy is the flow scheduling policy on each directed connection
// (Sec. IV-C; compared in Sec. V-E, Fig. 7).
type Policy uint8

const (
	// FS is per-flow max-min fair sharing, what the network gives by
	// default.
	FS Policy = iota
	// FL is flow-level FCFS: a transfer first on a connection is not
	// preempted by a later one (CREW's choice).
	FL
	// TL is task-level FCFS: transfers of partial reduce tasks with
	// smaller ids (pid, issued in increasing order by the controller)
	// preempt those of larger ids; FCFS within a task.
	TL
	// C1 lets multicast transfers preempt scatter transfers; FCFS within a
	// class.
	C1
	// C2 lets scatter transfers preempt multicast transfers; FCFS within a
	// class.
	C2
)

// PolicyNames lists the policies as parameters spell them.
var PolicyNames = []string{"fs", "fl", "tl", "c1", "c2"}

// ParsePolicy parses a policy name (case-insensitive fs, fl, tl, c1, c2).
func ParsePolicy(s string) (Policy, error) {
	for i, n := range PolicyNames {
		if s == n || s == upper(n) {
			return Policy(i), nil
		}
	}
	return 0, fmt.Errorf("unknown flow scheduling policy %q (allowed: fs, fl, tl, c1, c2)", s)
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// String names the policy.
func (p Policy) String() string {
	if int(p) < len(PolicyNames) {
		return PolicyNames[p]
	}
	return fmt.Sprintf("Policy(%d)", uint8(p))
}

// Transfer classes, carried in netsim.BulkOpts.Class; the partial reduce
// id travels in BulkOpts.Tag.
const (
	// ClassScatter marks a block sent by an initiator to an aggregator.
	ClassScatter uint8 = 1
	// ClassMulticast marks a reduced block sent back to an initiator.
	ClassMulticast uint8 = 2
	// ClassOther marks the baselines' transfers (A2A, PS, Ring, trees),
	// which C1 and C2 rank with scatter.
	ClassOther uint8 = 3
)

// priorityKey returns the fluid priority key function of policy p, or nil
// for the policies that are plain engine modes (FS, FL).
func priorityKey(p Policy) func(netsim.BulkOpts) int64 {
	switch p {
	case TL:
		return func(o netsim.BulkOpts) int64 { return o.Tag }
	case C1:
		return func(o netsim.BulkOpts) int64 {
			if o.Class == ClassMulticast {
				return 0
			}
			return 1
		}
	case C2:
		return func(o netsim.BulkOpts) int64 {
			if o.Class == ClassMulticast {
				return 1
			}
			return 0
		}
	}
	return nil
}

// Net is the WAN a run moves its transfers over: topologies.WAN (worker i
// is host w<i> behind its own site switch, sites joined pairwise by a
// cable carrying b_ij one way and b_ji the other) driven by the fluid
// engine or by the packet engine.
type Net struct {
	Sim   *netsim.Sim
	BW    Matrix          // real capacities, bits/s
	Delay [][]netsim.Time // one-way latencies
	// Fluid is the flow engine (flow fidelity), Stack the transport stack
	// (packet fidelity); the other is nil.
	Fluid *fluid.Engine
	Stack *transport.Stack
	// Fabric is the built topology.
	Fabric *topologies.Fabric

	hosts []netsim.NodeID
	bulk  netsim.Bulk
	pair  [][]netsim.LinkID // flow fidelity: the link from site i to site j
	up    [][]bool          // connection state (both directions)

	// Transfers and BytesSent count what was handed to the engine.
	Transfers uint64
	BytesSent netsim.Bytes
}

// NewNet builds the WAN for bw (bits/s) and delay on sim at the given
// fidelity and scheduling policy. At flow fidelity the access cables of
// topologies.WAN (rated at the sum of a site's WAN links, so never a
// bottleneck) are left out of allocation, and every policy is available.
// At packet fidelity the transfers are DCTCP flows, one per transfer (FS)
// or one persistent connection per ordered pair whose byte stream serves
// messages first come, first served (FL); TL, C1 and C2 need the flow
// engine's priorities and are refused.
func NewNet(sim *netsim.Sim, bw Matrix, delay [][]netsim.Time, fid Fidelity, pol Policy) (*Net, error) {
	if err := bw.Validate("bandwidth matrix"); err != nil {
		return nil, err
	}
	n := bw.N()
	if len(delay) != n {
		return nil, fmt.Errorf("latency matrix has %d rows for %d workers", len(delay), n)
	}
	rates := make([][]netsim.Rate, n)
	var longest netsim.Time
	for i := range rates {
		rates[i] = make([]netsim.Rate, n)
		for j := range rates[i] {
			if i != j {
				rates[i][j] = netsim.Rate(math.Round(bw[i][j]))
				if rates[i][j] <= 0 {
					return nil, fmt.Errorf("bandwidth (%d,%d) = %v bit/s rounds to zero", i+1, j+1, bw[i][j])
				}
				longest = max(longest, delay[i][j])
			}
		}
	}
	nw := netsim.NewNetwork(sim)
	var wo topologies.WANOptions
	if fid == Packet {
		if pol != FS && pol != FL {
			return nil, fmt.Errorf("scheduling %v needs flow fidelity (the packet engine offers fs and fl)", pol)
		}
		wo.AccessHeadroom = 2 // queues at the WAN ports, which mark ECN
		wo.PairQueue = func(i, j int) switchmodel.QueueConfig { return wanPortQueue(rates[i][j], delay[i][j]) }
	}
	fab, err := topologies.WANWith(nw, rates, delay, switchmodel.QueueConfig{}, wo)
	if err != nil {
		return nil, err
	}
	nt := &Net{Sim: sim, BW: bw, Delay: delay, Fabric: fab, hosts: fab.HostIDs()}
	nt.up = make([][]bool, n)
	for i := range nt.up {
		nt.up[i] = make([]bool, n)
		for j := range nt.up[i] {
			nt.up[i][j] = i != j
		}
	}
	switch fid {
	case Flow:
		if key := priorityKey(pol); key != nil {
			nt.Fluid = fluid.NewPriority(nw, key)
		} else if pol == FL {
			nt.Fluid = fluid.New(nw, fluid.FCFS)
		} else {
			nt.Fluid = fluid.New(nw, fluid.MaxMin)
		}
		for i, h := range fab.Hosts {
			site := fab.EdgeOf(h.ID()).ID()
			for _, l := range []*netsim.Link{fab.LinkBetween(h.ID(), site), fab.LinkBetween(site, h.ID())} {
				if err := nt.Fluid.SetUncapped(l.ID); err != nil {
					return nil, err
				}
			}
			_ = i
		}
		nt.pair = make([][]netsim.LinkID, n)
		for i := range nt.pair {
			nt.pair[i] = make([]netsim.LinkID, n)
			for j := range nt.pair[i] {
				if i != j {
					nt.pair[i][j] = fab.LinkBetween(fab.Edge[i].ID(), fab.Edge[j].ID()).ID
				}
			}
		}
		nt.bulk = nt.Fluid
	case Packet:
		tc := transport.DefaultConfig()
		// DCTCP's alpha starts at 0, not 1: on a WAN round trip of tens of
		// milliseconds the first marks of slow start would otherwise halve
		// the window, which then regrows by one segment per round trip
		// (a 1 MB transfer at 100 Mbit/s over 10 ms took 2.8x its fluid time
		// with alpha = 1, 1.5x with 0). Linux exposes the same choice as
		// dctcp_alpha_on_init.
		tc.InitAlpha = 0
		rtt := max(2*longest, netsim.Millisecond)
		tc.MinRTO = max(tc.MinRTO, 2*rtt)
		tc.InitRTO = max(tc.InitRTO, 3*rtt)
		if err := tc.Validate(); err != nil {
			return nil, err
		}
		nt.Stack = transport.NewStack(nw, tc)
		if pol == FL {
			nt.bulk = nt.Stack.Persistent()
		} else {
			nt.bulk = nt.Stack
		}
	default:
		return nil, fmt.Errorf("unknown fidelity %d", fid)
	}
	return nt, nil
}

// wanPortQueue is the packet-level queue of the WAN port carrying rate
// with one-way delay d: DCTCP's marking threshold K = C x RTT / 7 for this
// pair's rate and round trip (at least 1 ms; K at least 20 packets), and a
// drop-tail buffer of
// twice the pair's bandwidth-delay product (at least 4 K packets and 1
// MB), so slow start's overshoot is marked before it is dropped. Pure
// ACKs go ahead of data (ControlFirst): a connection's ACKs share the
// reverse port with the other direction's data, and without the band a
// bidirectional exchange (A2A, CREW's scatter one way and multicast the
// other) ran at 60% of the fluid rate, the two directions no longer
// independent as b_ij and b_ji are in the paper's model.
func wanPortQueue(rate netsim.Rate, d netsim.Time) switchmodel.QueueConfig {
	rtt := max(2*d, netsim.Millisecond)
	// At least the 20 packets the DCTCP paper uses at 1 Gbit/s (Alizadeh et
	// al., SIGCOMM 2010, Sec. 4): slow pairs at short round trips would
	// otherwise mark at 2-3 packets and starve their few flows.
	k := max(switchmodel.DCTCPK(rate, rtt, 1500), 20)
	buf := max(2*netsim.BytesIn(rate, rtt), 4*netsim.Bytes(k)*1500, netsim.Megabyte)
	return switchmodel.QueueConfig{ECNPackets: k, Buffer: buf, ControlFirst: true, ControlBuffer: buf}
}

// N is the number of workers.
func (nt *Net) N() int { return len(nt.hosts) }

// CanCancel reports whether transfers can be abandoned mid-way (the flow
// engine), which non-blocking scatter and failover need.
func (nt *Net) CanCancel() bool { return nt.Fluid != nil }

// Bulk is the bulk-transfer interface over the workers' hosts.
func (nt *Net) Bulk() netsim.Bulk { return nt.bulk }

// Host is worker i's node.
func (nt *Net) Host(i int) netsim.NodeID { return nt.hosts[i] }

// send moves size bytes from worker src to worker dst as a transfer of
// class cls for partial reduce pid, and calls done when they have arrived.
func (nt *Net) send(src, dst int, size netsim.Bytes, cls uint8, pid int, done func()) fluid.Handle {
	nt.Transfers++
	nt.BytesSent += size
	opts := netsim.BulkOpts{Class: cls, Tag: int64(pid)}
	if nt.Fluid != nil {
		return nt.Fluid.Start(nt.hosts[src], nt.hosts[dst], size, opts, done)
	}
	nt.bulk.Send(nt.hosts[src], nt.hosts[dst], size, opts, done)
	return fluid.Handle{}
}

// cancel abandons a transfer (flow fidelity only) and returns the bytes
// it had sent.
func (nt *Net) cancel(h fluid.Handle) (netsim.Bytes, bool) {
	if nt.Fluid == nil {
		return 0, false
	}
	return nt.Fluid.Cancel(h)
}

// sentBytes is how far a transfer has got (flow fidelity only).
func (nt *Net) sentBytes(h fluid.Handle) (netsim.Bytes, bool) {
	if nt.Fluid == nil {
		return 0, false
	}
	return nt.Fluid.Sent(h)
}

// Up reports whether the connection between workers i and j works.
func (nt *Net) Up(i, j int) bool { return nt.up[i][j] }

// SetConnection takes the connection between workers i and j down (both
// directions stall at zero capacity) or brings it back at its bandwidths.
// Flow fidelity only.
func (nt *Net) SetConnection(i, j int, up bool) error {
	if nt.Fluid == nil {
		return fmt.Errorf("connection outages need flow fidelity")
	}
	if i == j {
		return nil
	}
	nt.up[i][j], nt.up[j][i] = up, up
	for _, d := range [][2]int{{i, j}, {j, i}} {
		r := netsim.Rate(0)
		if up {
			r = netsim.Rate(math.Round(nt.BW[d[0]][d[1]]))
		}
		if err := nt.Fluid.SetCapacity(nt.pair[d[0]][d[1]], r); err != nil {
			return err
		}
	}
	return nil
}

// Check verifies the engine's books: the fluid engine's conservation and
// allocation, or the packet network's conservation.
func (nt *Net) Check() error {
	if nt.Fluid != nil {
		return nt.Fluid.Check()
	}
	return nt.Stack.Network().CheckConservation()
}
