package netsim

import "fmt"

// Cross-partition messages and feeders: the two ways besides packets in
// which work reaches a partition of a parallel run.
//
// A message (Sim.Post) is a function a partition hands to another
// partition, to run there at a time no earlier than its own clock plus
// the lookahead: a transport opening a flow to a host of another
// partition registers the receiving endpoint with one. Like a packet on
// a crossing link, it waits in the sender's outbox until the next window
// starts; the receiving partition then schedules the messages posted to
// it in a fixed order (source partition, then the order the source
// posted in), after the packets of the same source. Nothing depends on
// the thread count.
//
// A feeder (Sim.AddFeeder) is an open-loop source whose events do not
// depend on the network's state, such as a Poisson flow generator drawing
// from one random stream: it lives on the coordinator, which asks it
// before every window for the events falling in that window and puts
// them in the partitions' queues itself, with every partition paused.
// The source's random streams are therefore drawn in exactly the order of
// an unpartitioned run.

// message is a function posted to another partition, to run at at.
type message struct {
	at Time
	f  func()
}

// Post arranges for f to run at time at in partition dst of a
// partitioned run (Sim.Partition numbers them), s being the Sim of the
// component posting. Inside a window at must be at least s's clock plus
// the lookahead: the message then crosses at the next window's start, as
// a packet does. Between windows (at set-up, in a global event, from a
// barrier hook) every partition is paused and f is scheduled in dst at
// once (at no earlier than dst's clock). On an unpartitioned Sim, Post is
// s.At(at, f) and dst must be 0. f runs on dst's Sim and may touch only
// what that partition owns. Post allocates; it is for rare events (flow
// set-up), not for every packet.
func (s *Sim) Post(dst int, at Time, f func()) {
	pr := s.par
	if pr == nil {
		if dst != 0 {
			panic(fmt.Sprintf("netsim: Post to partition %d of an unpartitioned Sim", dst))
		}
		s.At(at, f)
		return
	}
	if dst < 0 || dst >= len(pr.parts) {
		panic(fmt.Sprintf("netsim: Post to partition %d of %d", dst, len(pr.parts)))
	}
	if !pr.root.guard {
		pr.parts[dst].At(at, f)
		return
	}
	if s == pr.root {
		s.misuse()
	}
	if at < s.now+pr.lookahead {
		panic(fmt.Sprintf("netsim: Post at %v from partition %d inside a window; the earliest is now + lookahead = %v",
			at, s.index, s.now+pr.lookahead))
	}
	box := &pr.msgs[pr.cur][s.index*len(pr.parts)+dst]
	*box = append(*box, message{at: at, f: f})
	if at < s.outMin {
		s.outMin = at
	}
}

// drainMessages schedules the messages posted to partition s in the
// window of parity w, in source order.
func (pr *parallel) drainMessages(s *Sim, w int) {
	n := len(pr.parts)
	for i := 0; i < n; i++ {
		src := i
		if reverseDrain {
			src = n - 1 - i // a test build's reordering (drain_reverse.go)
		}
		box := &pr.msgs[w][src*n+s.index]
		for i := range *box {
			m := &(*box)[i]
			s.At(m.at, m.f)
			m.f = nil
		}
		*box = (*box)[:0]
	}
}

// Feeder is an open-loop event source of a partitioned run (see
// Sim.AddFeeder): its events do not depend on what the network does.
type Feeder interface {
	// Next is the time of the feeder's next event (Never: none left).
	Next() Time
	// Feed schedules every event of the feeder before end on the Sims
	// of the partitions they belong to. The coordinator calls it between
	// windows, with every partition paused, only when Next is before end.
	Feed(end Time)
}

// AddFeeder registers f with the coordinator of a partitioned run: before
// each window [T, E) it calls f.Feed(E) if f's next event is before E,
// and an idle network waits for f's next event as for any other. It
// panics on a Sim that is not a partitioned run's coordinator.
func (s *Sim) AddFeeder(f Feeder) {
	if s.par == nil || s.par.root != s {
		panic("netsim: AddFeeder on a Sim that is not the coordinator of a partitioned network")
	}
	s.par.feeders = append(s.par.feeders, f)
}

// feed asks the feeders for their events before end.
func (pr *parallel) feed(end Time) {
	for _, f := range pr.feeders {
		if f.Next() < end {
			f.Feed(end)
		}
	}
}

// nextFed is the earliest next event of the feeders (Never if none).
func (pr *parallel) nextFed() Time {
	t := Never
	for _, f := range pr.feeders {
		t = min(t, f.Next())
	}
	return t
}
