package transport

import (
	"fmt"

	"syncsim/netsim"
)

// Stack runs the transport flows of one Network. Flow identifiers come from
// a per-stack counter starting at 1, so runs are deterministic.
type Stack struct {
	net *netsim.Network
	cfg Config

	nextID uint64
	active int

	// Started counts flows started; Completed counts flows whose receiver
	// has every byte; Stopped counts flows ended by Stop before completion.
	Started, Completed, Stopped uint64
	// Retransmits and Timeouts total the per-flow counters.
	Retransmits, Timeouts uint64
	// Segments counts data segments that reached their receiver
	// (duplicates included), the packets a benchmark's cost per
	// delivered packet divides by.
	Segments uint64

	// ctr holds the counters per partition on a partitioned network
	// (nil otherwise); the coordinator folds them into the exported
	// fields at every barrier (see fold).
	ctr []stackCtr
}

// Counters a Stack keeps per partition.
const (
	ctrStarted = iota
	ctrCompleted
	ctrStopped
	ctrRetransmits
	ctrTimeouts
	ctrSegments
	ctrActive
	numCtr
)

// stackCtr is one partition's counters, a cache line of its own so that
// partitions on different cores do not share one.
type stackCtr struct {
	n    [numCtr]int64
	next uint64 // the partition's last flow number (see newFlow)
	_    [64 - (numCtr+1)*8%64]byte
}

// partitionIDShift places the partition (plus one) above a partition's
// own flow numbers in the identifier of a flow opened inside a window of
// a parallel run; flows opened at set-up or between windows number from
// 1 and stay below 1<<partitionIDShift.
const partitionIDShift = 40

// count adds d to a counter of the stack: to the exported field direct
// (nil for active) on an unpartitioned network, to the counter of sim's
// partition on a partitioned one.
func (st *Stack) count(sim *netsim.Sim, field *uint64, which int, d int64) {
	if st.ctr == nil {
		if field != nil {
			*field += uint64(d)
		} else {
			st.active += int(d)
		}
		return
	}
	st.ctr[sim.Partition()].n[which] += d
}

// fold sets the exported counters to the sums over partitions; the
// coordinator calls it at every barrier, with the partitions paused, so
// readers outside a window (global events, the monitor, the results) see
// exact totals.
func (st *Stack) fold() {
	var t [numCtr]int64
	for i := range st.ctr {
		for j, v := range st.ctr[i].n {
			t[j] += v
		}
	}
	st.Started, st.Completed, st.Stopped = uint64(t[ctrStarted]), uint64(t[ctrCompleted]), uint64(t[ctrStopped])
	st.Retransmits, st.Timeouts, st.Segments = uint64(t[ctrRetransmits]), uint64(t[ctrTimeouts]), uint64(t[ctrSegments])
	st.active = int(t[ctrActive])
}

// NewStack returns a stack for net. cfg must be valid (see Config.Validate,
// which callers use to turn user input into errors); an invalid cfg is a
// programming error and panics.
func NewStack(net *netsim.Network, cfg Config) *Stack {
	if err := cfg.Validate(); err != nil {
		panic("transport: NewStack with invalid config: " + err.Error())
	}
	st := &Stack{net: net, cfg: cfg}
	if parts := net.Sim.Partitions(); parts != nil {
		st.ctr = make([]stackCtr, len(parts))
		net.Sim.OnBarrier(st.fold)
	}
	return st
}

// Config is the stack's configuration.
func (st *Stack) Config() Config { return st.cfg }

// Network is the network the stack runs on.
func (st *Stack) Network() *netsim.Network { return st.net }

// Active is the number of started flows that have neither completed nor
// been stopped.
func (st *Stack) Active() int { return st.active }

// FlowOpts qualifies a flow.
type FlowOpts struct {
	// Class labels the flow's packets for statistics.
	Class uint8
	// Tag is an opaque caller value kept on the Flow.
	Tag int64
	// StartLatency delays the first segment after Start (a per-message
	// software overhead); it counts towards the flow completion time.
	StartLatency netsim.Time
	// Size is the number of payload bytes; 0 makes a long-lived flow that
	// sends until Stop.
	Size netsim.Bytes
}

func (st *Stack) host(id netsim.NodeID) *netsim.Host {
	if int(id) < 0 || int(id) >= st.net.NumNodes() {
		panic(fmt.Sprintf("transport: node %d does not exist", id))
	}
	h, ok := st.net.Node(id).(*netsim.Host)
	if !ok {
		panic(fmt.Sprintf("transport: node %d (%s) is not a host", id, st.net.Node(id).Base().Name()))
	}
	return h
}

// Start opens a flow from host src to host dst now and returns it. done, if
// not nil, is called once, at the virtual time the receiver holds every
// byte: the flow completion time is End - Start, from the call to the
// arrival of the last byte (the Bulk contract; the sender's last ACK
// arrives one half round trip later and only closes the endpoints).
// Long-lived flows (opts.Size == 0) never call done.
//
// src and dst must be hosts (a programming error otherwise). A flow from a
// host to itself moves no packets and completes after StartLatency.
func (st *Stack) Start(src, dst netsim.NodeID, opts FlowOpts, done func(f *Flow)) *Flow {
	f := st.newFlow(src, dst, opts)
	f.done = done
	st.launch(f)
	return f
}

// Send implements netsim.Bulk with a flow of the stack's congestion
// control: done is called when dst holds all size bytes. A size of zero or
// less, or src == dst, completes after opts.StartLatency without packets.
func (st *Stack) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	if size <= 0 {
		size = 0
		src = dst // nothing to move: complete locally
	}
	f := st.newFlowID(src, dst, FlowOpts{Class: opts.Class, Tag: opts.Tag, StartLatency: opts.StartLatency, Size: size}, opts.ID)
	f.bulkDone, f.bulkAcked = done, opts.Acked
	st.launch(f)
}

var _ netsim.Bulk = (*Stack)(nil)

// ReserveID takes the next flow identifier for a flow the caller opens
// later with Send and netsim.BulkOpts.ID: a source that draws its flows
// ahead of time (a feeder on a parallel run's coordinator) numbers them
// as they would be numbered if opened when drawn. It panics inside a
// window of a parallel run.
func (st *Stack) ReserveID() uint64 {
	if st.net.Sim.InWindow() {
		panic("transport: ReserveID inside a window of a parallel run")
	}
	st.nextID++
	return st.nextID
}

func (st *Stack) newFlow(src, dst netsim.NodeID, opts FlowOpts) *Flow {
	return st.newFlowID(src, dst, opts, 0)
}

// newFlowID is newFlow with the identifier id, reserved by ReserveID (0:
// number it now).
func (st *Stack) newFlowID(src, dst netsim.NodeID, opts FlowOpts, id uint64) *Flow {
	if opts.Size < 0 {
		panic(fmt.Sprintf("transport: flow with negative size %d", opts.Size))
	}
	if opts.StartLatency < 0 {
		panic(fmt.Sprintf("transport: flow with negative start latency %v", opts.StartLatency))
	}
	sh, dh := st.host(src), st.host(dst)
	inWindow := st.ctr != nil && st.net.Sim.InWindow()
	switch {
	case id != 0:
	case inWindow:
		// Partition-local numbers, unique and the same at every
		// thread count: the partition in the high bits.
		c := &st.ctr[sh.Sim().Partition()]
		c.next++
		id = uint64(sh.Sim().Partition()+1)<<partitionIDShift | c.next
	default:
		st.nextID++
		id = st.nextID
	}
	f := &Flow{
		ID: id, Src: src, Dst: dst, Size: opts.Size, Class: opts.Class, Tag: opts.Tag,
		Start: sh.Sim().Now(), st: st, cc: st.cfg.CC, startLatency: opts.StartLatency,
		srcHost: sh, dstHost: dh,
	}
	f.init()
	if st.ctr != nil && sh.Sim() != dh.Sim() && src != dst {
		if inWindow {
			// The receiving endpoint belongs to another partition,
			// running now: begin posts its registration there.
			f.posted = true
		} else {
			// At set-up or between windows the caller may touch the
			// other partition: the receiving endpoint is registered
			// now (begin could run inside a window).
			f.rcv.ep = dh.Register(&f.rcv)
			f.rcv.open = true
			f.dstEP = f.rcv.ep
		}
	}
	return f
}

func (st *Stack) launch(f *Flow) {
	st.count(f.srcHost.Sim(), &st.Started, ctrStarted, 1)
	st.count(f.srcHost.Sim(), nil, ctrActive, 1)
	if f.Src == f.Dst {
		f.local = true
	}
	if d := f.startLatency; d > 0 || f.local {
		f.srcHost.Sim().After(d, f, kindStart, nil, 0)
		return
	}
	f.begin()
}
