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
// id and the stream's sequence number travel in BulkOpts.Tag (legTag).
const (
	// ClassScatter marks a block sent by an initiator to an aggregator.
	ClassScatter uint8 = 1
	// ClassMulticast marks a reduced block sent back to an initiator.
	ClassMulticast uint8 = 2
	// ClassOther marks the baselines' transfers (A2A, PS, Ring, trees),
	// which C1 and C2 rank with scatter.
	ClassOther uint8 = 3
)

// seqBits is how many low bits of a transfer's Tag carry the sequence
// number of the stream it belongs to; the bits above carry the partial
// reduce id.
const seqBits = 40

// legTag packs a partial reduce id and a stream's sequence number into a
// BulkOpts.Tag.
func legTag(pid int, seq int64) int64 { return int64(pid)<<seqBits | seq&(1<<seqBits-1) }

// priorityKey returns the fluid priority key function of policy p, or nil
// for FS, which is max-min. Every transfer of one stream (the chunks of
// one copy or of one multicast, sent one after another) carries the
// stream's sequence number, taken when the stream started, so the ranks
// are those of streams, not of chunks:
//
//	FL: by stream (flow-level FCFS: an earlier stream is never preempted
//	    by a later one on its connection);
//	TL: by partial-reduce id, then stream;
//	C1: multicast before anything else, then stream;
//	C2: scatter (and baselines) before multicast, then stream.
//
// The baselines' transfers (Tag 0) share one key and keep the engine's
// FCFS by activation among themselves.
func priorityKey(p Policy) func(netsim.BulkOpts) int64 {
	const classBit = int64(1) << 61
	seq := func(o netsim.BulkOpts) int64 { return o.Tag & (1<<seqBits - 1) }
	switch p {
	case FL:
		return seq
	case TL:
		return func(o netsim.BulkOpts) int64 { return o.Tag }
	case C1:
		return func(o netsim.BulkOpts) int64 {
			if o.Class == ClassMulticast {
				return seq(o)
			}
			return classBit | seq(o)
		}
	case C2:
		return func(o netsim.BulkOpts) int64 {
			if o.Class == ClassMulticast {
				return classBit | seq(o)
			}
			return seq(o)
		}
	}
	return nil
}

// Net is the WAN a run moves its transfers over: topologies.WAN (worker i
// is host w<i> behind its own site switch, sites joined pairwise by a
// cable carrying b_ij one way and b_ji the other) driven by the fluid
// engine or by the packet engine.
//
// At flow fidelity the fluid engine allocates bandwidth on cables without
// delay, and the one-way latency of the pair is added after a transfer's
// last byte has left its source: a stream can then start its next chunk
// the moment the previous one has left, as a sender's byte stream does,
// while each chunk still arrives a latency later. For a single transfer
// this is the fluid engine's own timing (rate-limited sending plus the
// path's propagation).
type Net struct {
	Sim   *netsim.Sim
	BW    Matrix          // capacities at time 0, bits/s
	Delay [][]netsim.Time // one-way latencies
	// Fluid is the flow engine (flow fidelity), Stack the transport stack
	// (packet fidelity); the other is nil.
	Fluid *fluid.Engine
	Stack *transport.Stack
	// Fabric is the built topology.
	Fabric *topologies.Fabric

	pol   Policy
	hosts []netsim.NodeID
	index map[netsim.NodeID]int
	bulk  netsim.Bulk       // what the baselines send through
	conns netsim.Bulk       // packet fidelity: the transfers of crew's streams (FL)
	pair  [][]netsim.LinkID // flow fidelity: the link from site i to site j
	up    [][]bool          // connection state (both directions)
	cur   Matrix            // capacities in force, bits/s
	// onRate, if set, hears of every change of a connection's capacity
	// or state (the mesh of a CREW or OPR run).
	onRate func(i, j int)

	// Transfers and BytesSent count what was handed to the engine.
	Transfers uint64
	BytesSent netsim.Bytes
}

// NewNet builds the WAN for bw (bits/s) and delay on sim at the given
// fidelity and scheduling policy. At flow fidelity the access cables of
// topologies.WAN (rated at the sum of a site's WAN links, so never a
// bottleneck) are left out of allocation, and every policy is available.
// At packet fidelity the transfers are DCTCP flows: a stream of chunks is
// one connection of its own (FS), or every stream of an ordered pair
// shares the pair's persistent connection, whose byte stream serves
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
	cableDelay := delay
	if fid == Packet {
		if pol != FS && pol != FL {
			return nil, fmt.Errorf("scheduling %v needs flow fidelity (the packet engine offers fs and fl)", pol)
		}
		wo.AccessHeadroom = 2 // queues at the WAN ports, which mark ECN
		wo.PairQueue = func(i, j int) switchmodel.QueueConfig { return wanPortQueue(rates[i][j], delay[i][j]) }
	} else {
		cableDelay = ConstLatency(n, 0) // latency is added per transfer (see Net)
	}
	fab, err := topologies.WANWith(nw, rates, cableDelay, switchmodel.QueueConfig{}, wo)
	if err != nil {
		return nil, err
	}
	nt := &Net{Sim: sim, BW: bw, Delay: delay, Fabric: fab, pol: pol, hosts: fab.HostIDs(), cur: bw.Clone()}
	nt.index = make(map[netsim.NodeID]int, n)
	for i, h := range nt.hosts {
		nt.index[h] = i
	}
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
		} else {
			nt.Fluid = fluid.New(nw, fluid.MaxMin)
		}
		for _, h := range fab.Hosts {
			site := fab.EdgeOf(h.ID()).ID()
			for _, l := range []*netsim.Link{fab.LinkBetween(h.ID(), site), fab.LinkBetween(site, h.ID())} {
				if err := nt.Fluid.SetUncapped(l.ID); err != nil {
					return nil, err
				}
			}
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
		nt.bulk = propBulk{nt}
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
		tc.MaxRTO = max(tc.MaxRTO, tc.InitRTO) // a round trip of minutes (latency_ms, alpha_ms) outgrows the default cap
		if err := tc.Validate(); err != nil {
			return nil, err
		}
		nt.Stack = transport.NewStack(nw, tc)
		if pol == FL {
			nt.bulk = nt.Stack.Persistent()
			nt.conns = nt.bulk
		} else {
			nt.bulk = nt.Stack
		}
	default:
		return nil, fmt.Errorf("unknown fidelity %d", fid)
	}
	return nt, nil
}

// propBulk is the flow engine with each pair's latency added after the
// last byte left: what the baselines (collectives) send through.
type propBulk struct{ nt *Net }

func (b propBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	d := b.nt.Delay[b.nt.index[src]][b.nt.index[dst]]
	b.nt.Fluid.Send(src, dst, size, opts, func() { b.nt.later(d, done) })
}

// later runs f after d, or now if d is 0.
func (nt *Net) later(d netsim.Time, f func()) {
	if d <= 0 {
		f()
		return
	}
	nt.Sim.AfterFunc(d, f)
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

// Bulk is the bulk-transfer interface over the workers' hosts (with the
// pairs' latencies at flow fidelity), for the baselines.
func (nt *Net) Bulk() netsim.Bulk { return nt.bulk }

// Host is worker i's node.
func (nt *Net) Host(i int) netsim.NodeID { return nt.hosts[i] }

// newStream returns the Bulk a new stream of chunks sends through at
// packet fidelity: the pair's persistent connection (FL) or a connection
// of its own (FS). At flow fidelity it is nil (the fluid engine).
func (nt *Net) newStream() netsim.Bulk {
	if nt.Stack == nil {
		return nil
	}
	if nt.conns != nil {
		return nt.conns
	}
	return nt.Stack.Persistent()
}

// send moves size bytes from worker src to worker dst as a transfer of
// class cls tagged tag (legTag), through via at packet fidelity (nil: the
// baselines' Bulk). At flow fidelity left is called when the last byte has
// left src and arrived a latency later; at packet fidelity left is never
// called and arrived when the last byte has reached dst.
func (nt *Net) send(src, dst int, size netsim.Bytes, cls uint8, tag int64, via netsim.Bulk, left, arrived func()) fluid.Handle {
	nt.Transfers++
	nt.BytesSent += size
	opts := netsim.BulkOpts{Class: cls, Tag: tag}
	if nt.Fluid != nil {
		d := nt.Delay[src][dst]
		return nt.Fluid.Start(nt.hosts[src], nt.hosts[dst], size, opts, func() {
			if left != nil {
				left()
			}
			nt.later(d, arrived)
		})
	}
	if via == nil {
		via = nt.bulk
	}
	via.Send(nt.hosts[src], nt.hosts[dst], size, opts, arrived)
	return fluid.Handle{}
}

// sentBytes is how many bytes of a transfer have left its source (flow
// fidelity only).
func (nt *Net) sentBytes(h fluid.Handle) netsim.Bytes {
	if nt.Fluid == nil {
		return 0
	}
	b, _ := nt.Fluid.Sent(h)
	return b
}

// cancel abandons a transfer (flow fidelity only) and returns the bytes
// that had left its source.
func (nt *Net) cancel(h fluid.Handle) (netsim.Bytes, bool) {
	if nt.Fluid == nil {
		return 0, false
	}
	return nt.Fluid.Cancel(h)
}

// Up reports whether the connection between workers i and j works.
func (nt *Net) Up(i, j int) bool { return nt.up[i][j] }

// SetConnection takes the connection between workers i and j down (both
// directions stall at zero capacity) or brings it back at the bandwidths
// in force. Flow fidelity only.
func (nt *Net) SetConnection(i, j int, up bool) error {
	if nt.Fluid == nil {
		return fmt.Errorf("connection outages need flow fidelity")
	}
	if i == j {
		return nil
	}
	nt.up[i][j], nt.up[j][i] = up, up
	for _, d := range [][2]int{{i, j}, {j, i}} {
		if err := nt.rate(d[0], d[1]); err != nil {
			return err
		}
	}
	return nil
}

// SetBandwidth changes the capacity of the directed connection i -> j to
// bps from now on (a connection that is down takes it when it comes
// back). Flow fidelity only.
func (nt *Net) SetBandwidth(i, j int, bps float64) error {
	if nt.Fluid == nil {
		return fmt.Errorf("time-varying bandwidth needs flow fidelity")
	}
	if i == j {
		return nil
	}
	if !(bps > 0) || math.IsInf(bps, 0) {
		return fmt.Errorf("bandwidth (%d,%d) = %v bit/s: want a finite positive rate", i+1, j+1, bps)
	}
	nt.cur[i][j] = bps
	return nt.rate(i, j)
}

// Bandwidth is the capacity of the directed connection i -> j in force
// (bits/s), whether the connection is up or not.
func (nt *Net) Bandwidth(i, j int) float64 { return nt.cur[i][j] }

// rate sets the fluid capacity of i -> j from its state.
func (nt *Net) rate(i, j int) error {
	r := netsim.Rate(0)
	if nt.up[i][j] {
		r = max(netsim.Rate(math.Round(nt.cur[i][j])), 1)
	}
	if nt.onRate != nil {
		nt.onRate(i, j)
	}
	return nt.Fluid.SetCapacity(nt.pair[i][j], r)
}

// Check verifies the engine's books: the fluid engine's conservation and
// allocation, or the packet network's conservation.
func (nt *Net) Check() error {
	if nt.Fluid != nil {
		return nt.Fluid.Check()
	}
	return nt.Stack.Network().CheckConservation()
}
