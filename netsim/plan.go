package netsim

import "fmt"

// Planned departures: one event per packet per hop at a first-in,
// first-out port.
//
// A port whose queue serves packets strictly in the order it admits them,
// and where nothing that happens later (a packet of higher priority, a
// pause, a shared buffer freed by another port) can move a packet's
// departure, knows each packet's departure when it admits it: the end of
// the serialisations already planned (freeAt) plus its own. Such a port
// hands the packet to its link at once, with that departure time, and
// the far node's arrival is the packet's only event at this hop; the
// port's start-next events (Port.startNext), one per queued packet,
// disappear. A packet that waits is still booked in the queue, and leaves
// it (the queue's NextDesc, its time average and series, and the port's
// TxPackets, TxBytes and busy time) at the instant its serialisation
// starts: lazily, when the port or its queue is next used or read
// (Port.Settle). So the queue an arriving packet finds, for drop-tail and
// ECN marking, is the packets whose serialisation has not started, as on
// the eager path; the difference is only among events of one picosecond:
// a serialisation that starts at t has started for a packet arriving at t
// (on the eager path that depended on which event was scheduled first),
// and the far node's arrival events are queued earlier, which changes
// their order against other events of the same instant.
//
// Ports with flow control (nic.go) keep the eager path: their departures
// tell endpoints their credit back. So do queues that are not
// PlannedQueues or whose Plannable is false.
//
// Planning is on by default at every port that allows it: the
// statistical equivalence check (scripts/perf/equivalence.sh) passed on
// its whole panel (docs/performance.md, "One event per packet per hop").
// A build with the tag syncsim_noplan keeps the eager engine
// (plan_eager.go), and Port.SetPlanning sets one port either way.

// PlannedQueue is a DescQueue that can tell a port it serves packets in
// the order it admits them, so that the port may fix each packet's
// departure at admission (plan.go).
type PlannedQueue interface {
	DescQueue
	// Plannable reports whether the queue as configured serves strictly
	// first in, first out, and whether nothing its departures change is
	// read elsewhere before the port settles them (a buffer shared with
	// other ports is). The port asks when the queue is set.
	Plannable() bool
	// AdmitDesc is EnqueueDesc that also returns the descriptor as the
	// queue keeps it (with any mark set on the way in). (A pointer to the
	// descriptor, through an interface, would move it to the heap.) With
	// start set the port is idle and the queue empty: an admitted packet
	// starts at once, so the queue books its arrival and its departure
	// at now (as EnqueueDesc then NextDesc would) without holding it.
	AdmitDesc(d Desc, now Time, start bool) (Desc, bool)
	// Depart books the departure at now of the oldest packet waiting (as
	// NextDesc would) and returns its size; the queue must hold one.
	Depart(now Time) Bytes
	// BindPort gives the queue the port that plans its departures (nil:
	// none), whose Settle the queue calls before it reports what it holds.
	BindPort(pt *Port)
}

// SetPlanning turns planned departures on or off at the port, wherever
// the queue allows them (see plan.go; without a call, the build's
// default: on, off in a build with the tag syncsim_noplan): off, every
// queued packet takes a start-next event as on any other port. It is
// for set-up, before packets wait in the port.
func (pt *Port) SetPlanning(on bool) {
	pt.planSet = -1
	if on {
		pt.planSet = 1
	}
	pt.updatePlan()
}

// Planned reports whether the port plans its departures at admission.
func (pt *Port) Planned() bool { return pt.plan }

// updatePlan decides whether the port plans its departures, after its
// queue or its flow control changed.
func (pt *Port) updatePlan() {
	pq, _ := pt.queue.(PlannedQueue)
	want := pt.planSet > 0 || pt.planSet == 0 && planByDefault
	plan := want && pq != nil && !pt.flowCtl && pq.Plannable()
	if pt.nwait > 0 && (!plan || pq != pt.pq) {
		panic(fmt.Sprintf("netsim: port %d of node %d changed its queue or flow control with planned packets waiting", pt.Index, pt.Node))
	}
	if pt.pq != nil && pt.pq != pq {
		pt.pq.BindPort(nil)
	}
	pt.plan, pt.pq = plan, nil
	if plan {
		pt.pq = pq
		pq.BindPort(pt)
	} else if pq != nil {
		pq.BindPort(nil)
	}
}

// sendPlanned is SendDesc at a port that plans departures: the packet is
// admitted against what has not started serialising, and handed to the
// link with its departure time at once.
func (pt *Port) sendPlanned(d Desc) bool {
	now := pt.sim.now
	if pt.nwait > 0 && pt.waitFrom <= now {
		pt.settle(now)
	}
	// The port is idle when every planned packet has started (the queue
	// is then empty): d starts now, as startNext would start it.
	idle := now >= pt.freeAt
	d, ok := pt.pq.AdmitDesc(d, now, idle)
	if !ok {
		pt.Drops++
		pt.DropBytes += uint64(d.Size())
		pt.net.dropAt(pt.sim, pt.sim.pool.Body(&d), pt)
		return false
	}
	dt := pt.txTime(d.Bytes())
	start := pt.freeAt
	if idle {
		start = now
		pt.busyTime += dt
		pt.TxPackets++
		pt.TxBytes += uint64(d.Size())
	} else if pt.nwait++; pt.nwait == 1 {
		pt.waitFrom = start
		if !pt.listed {
			pt.listed = true
			pt.sim.settling = append(pt.sim.settling, pt)
		}
	}
	pt.freeAt = start + dt
	if pt.cross {
		pt.Link.post(d, pt.freeAt+pt.Link.Delay)
	} else {
		pt.Link.carry(d, pt.freeAt)
	}
	return true
}

// settle books the start of every planned serialisation at or before t,
// in order: the packet leaves the queue at its start time and the
// port's counters take it, as startNext would have done then.
func (pt *Port) settle(t Time) {
	for pt.nwait > 0 && pt.waitFrom <= t {
		size := pt.pq.Depart(pt.waitFrom)
		dt := pt.txTime(size)
		pt.busyTime += dt
		pt.TxPackets++
		pt.TxBytes += uint64(size)
		pt.waitFrom += dt
		pt.nwait--
	}
}

// Settle books the planned serialisations that have started by now (the
// port's clock; between the windows of a partitioned run, the
// coordinator's), so that the queue, the counters and the busy time read
// as on a port without planning. A PlannedQueue calls it before it reports
// what it holds; the port's own readers call it too.
func (pt *Port) Settle() {
	if pt.nwait > 0 {
		pt.settle(pt.sim.clock())
	}
}

// clock is the time a reader of the network's state sees: the Sim's own
// clock, or between the windows of a partitioned run the coordinator's,
// which every partition has reached (its events up to then have fired).
func (s *Sim) clock() Time {
	if pr := s.par; pr != nil && !pr.root.guard {
		return max(s.now, pr.root.now)
	}
	return s.now
}

// waitBytes is the bytes of the packets a planning port has admitted and
// not started (its queue holds exactly those once settled); 0 at other
// ports.
func (pt *Port) waitBytes() uint64 {
	if !pt.plan {
		return 0
	}
	return uint64(pt.queue.Bytes())
}

// settleAll settles the ports of s that may hold planned packets, when a
// run returns, so that the counters read directly (TxPackets, TxBytes)
// are those of the run's end. A port leaves the list once nothing of its
// waits.
func (s *Sim) settleAll() {
	keep := s.settling[:0]
	for _, pt := range s.settling {
		pt.Settle()
		if pt.nwait > 0 {
			keep = append(keep, pt)
		} else {
			pt.listed = false
		}
	}
	clear(s.settling[len(keep):])
	s.settling = keep
}
