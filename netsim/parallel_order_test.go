package netsim

import (
	"fmt"
	"strings"
	"testing"
)

// The parallel engine's ordering against the sequential engine's, event
// by event. On a network built so that the sequential engine's order of
// same-instant events is one the parallel engine promises to keep, the
// two must log the same deliveries at the same picoseconds in the same
// order:
//
//   - packets from different partitions that reach one switch at the
//     same instant: the sequential engine fires their arrivals in the
//     order they were scheduled, here the senders' order; the parallel
//     engine drains its inboxes in source-partition order, here the
//     same (parallel.go, drain). Drained in reverse, the switch queues
//     them the other way round and the receiver logs different times.
//   - messages (Sim.Post) from different partitions for the same
//     instant, drained in the same fixed order (post.go).
//   - global events at the very picosecond a packet arrives: they fire
//     before the partitions' events of their time, as the sequential
//     engine fires them before events scheduled after them. A window
//     that ran one picosecond too far (runUntil(end) instead of
//     runUntil(end - 1)) would let the arrival in first.
//   - Run(until) one picosecond before an arrival: nothing after until
//     fires, on either engine.

// tieRouter is a switch that forwards by route and logs, per input
// link, what it receives (the order between links at one instant is
// what its output queue shows).
type tieRouter struct {
	NodeBase
	log map[LinkID]*strings.Builder
}

func (r *tieRouter) Receive(p *Packet, in *Link) {
	b := r.log[in.ID]
	if b == nil {
		b = &strings.Builder{}
		r.log[in.ID] = b
	}
	fmt.Fprintf(b, "%d %d %d\n", r.Sim().Now(), p.Src, p.Seq)
	if pt := r.net.OutPort(r.id, p.Dst, p.Flow); pt != nil {
		pt.Send(p)
	} else {
		r.Drop(p)
	}
}

// tieHost is a host's endpoint: it logs every packet it receives and,
// as the receiver, answers each data packet with a 64-byte ACK.
type tieHost struct {
	h    *Host
	ack  bool
	recv int
	log  strings.Builder
}

func (e *tieHost) Receive(p *Packet) {
	s := e.h.Sim()
	e.recv++
	fmt.Fprintf(&e.log, "%d %d %d %d\n", s.Now(), p.Src, p.Seq, p.Size)
	if e.ack {
		p.Dst, p.Src, p.Size, p.Flags = p.Src, e.h.ID(), 64, FlagACK
		e.h.Send(p)
		return
	}
	s.Packets().Put(p)
}

// tieSpec is what a tieNet run does besides its bursts.
type tieSpec struct {
	partitioned bool
	threads     int
	globals     []Time // global snapshots
	pause       Time   // 0, or the end of a first Run, logged before the rest
}

// tieNet runs 4 senders, each in a partition of its own, that send
// bursts to one receiver through a switch in a fifth partition. Every
// burst is a random subset of at least two senders sending a packet of
// one random size at one instant, so the packets reach the switch at
// the same picosecond over different links; each sender also posts a
// message to the receiver's partition for exactly one lookahead later.
// Everything is scheduled at set-up, in sender order within a burst,
// and bursts are far enough apart that every link is empty when one
// starts: on the sequential engine same-instant arrivals then fire in
// sender order, the order the parallel engine promises. It returns
// every log, in a fixed order, and the receiver's reception times.
func tieNet(t *testing.T, spec tieSpec) (string, []Time) {
	t.Helper()
	const senders = 4
	s := New(11)
	net := NewNetwork(s)
	sw := &tieRouter{log: map[LinkID]*strings.Builder{}}
	net.AddNode(sw, KindSwitch, "sw")
	rh := net.AddHost("r")
	net.Connect(rh.ID(), sw.ID(), 10*Gbps, 100*Nanosecond, NewFIFO(1<<20), NewFIFO(1<<20))
	var hs []*Host
	part := []int{senders, senders} // the switch and the receiver
	for i := 0; i < senders; i++ {
		h := net.AddHost(fmt.Sprintf("h%d", i))
		net.Connect(h.ID(), sw.ID(), 10*Gbps, Microsecond, NewFIFO(1<<20), NewFIFO(1<<20))
		hs = append(hs, h)
		part = append(part, i)
	}
	if spec.partitioned {
		if _, err := net.Partition(part); err != nil {
			t.Fatal(err)
		}
		if la := s.Lookahead(); la != Microsecond {
			t.Fatalf("lookahead %v, want 1us", la)
		}
		if err := s.SetThreads(spec.threads); err != nil {
			t.Fatal(err)
		}
	}
	recv := &tieHost{h: rh, ack: true}
	rh.Register(recv)
	var eps []*tieHost
	for _, h := range hs {
		e := &tieHost{h: h}
		h.Register(e)
		eps = append(eps, e)
	}
	var msgs strings.Builder // written only in the receiver's partition
	rng := s.Rand("tie/bursts")
	const bursts = 80
	for k := 0; k < bursts; k++ {
		at := Microsecond + Time(k)*5*Microsecond
		size := Bytes(64 + rng.IntN(737)) // at most 800 B: 640 ns at 10 Gbps
		mask := 0
		for bitsSet(mask) < 2 {
			mask = rng.IntN(1 << senders)
		}
		for i, h := range hs {
			if mask&(1<<i) == 0 {
				continue
			}
			h, i, seq := h, i, int64(k)
			h.Sim().At(at, func() {
				hs := h.Sim()
				p := hs.Packets().Get()
				p.Dst, p.Size, p.Seq, p.Flow = rh.ID(), size, seq, uint64(i)
				h.Send(p)
				hs.Post(rh.Sim().Partition(), hs.Now()+Microsecond, func() {
					fmt.Fprintf(&msgs, "%d %d %d\n", rh.Sim().Now(), i, seq)
				})
			})
		}
	}
	var snaps strings.Builder
	for _, g := range spec.globals {
		s.At(g, func() {
			fmt.Fprintf(&snaps, "%d %d", g, recv.recv)
			for _, e := range eps {
				fmt.Fprintf(&snaps, " %d", e.recv)
			}
			snaps.WriteString("\n")
		})
	}
	var out strings.Builder
	if spec.pause > 0 {
		s.Run(spec.pause)
		fmt.Fprintf(&out, "# pause at %d: now %d, receiver %d packets\n%s", spec.pause, s.Now(), recv.recv, recv.log.String())
	}
	s.Run(Never)
	if err := net.CheckConservation(); err != nil {
		t.Fatal(err)
	}
	out.WriteString("# receiver\n" + recv.log.String())
	for i, e := range eps {
		fmt.Fprintf(&out, "# sender %d\n%s", i, e.log.String())
	}
	for _, l := range net.Links() {
		if b := sw.log[l.ID]; b != nil {
			fmt.Fprintf(&out, "# switch from link %d\n%s", l.ID, b.String())
		}
	}
	out.WriteString("# messages\n" + msgs.String() + "# snapshots\n" + snaps.String())
	fmt.Fprintf(&out, "# events %d\n", s.Events())
	var times []Time
	for _, line := range strings.Split(strings.TrimSpace(recv.log.String()), "\n") {
		var at Time
		fmt.Sscan(line, &at)
		times = append(times, at)
	}
	return out.String(), times
}

func bitsSet(m int) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// TestPartitionedMatchesSequential runs tieNet sequentially and
// partitioned at 1 and 2 threads and requires the same logs, line for
// line: every delivery at the receiver, the senders and the switch,
// every message, global snapshots taken at the very picoseconds of
// arrivals, and the state at a pause one picosecond before an arrival.
// It fails if a partition drains its inboxes in any order but source
// order (parallel.go, drain) or a window runs one picosecond past its
// end (parallel.go, window).
func TestPartitionedMatchesSequential(t *testing.T) {
	_, arrivals := tieNet(t, tieSpec{})
	if len(arrivals) < 200 {
		t.Fatalf("the receiver got %d packets", len(arrivals))
	}
	// Snapshots at every 7th arrival and a pause one picosecond before
	// the 101st.
	spec := tieSpec{pause: arrivals[100] - 1}
	for i := 3; i < len(arrivals); i += 7 {
		spec.globals = append(spec.globals, arrivals[i])
	}
	ref, _ := tieNet(t, spec)
	// The test must see what it claims to: bursts of several senders
	// at one instant (so the switch logs same-instant arrivals), and
	// messages.
	if !strings.Contains(ref, "# messages\n") || strings.Count(ref, "\n") < 1000 {
		t.Fatalf("the reference run logged too little:\n%s", ref)
	}
	for _, threads := range []int{1, 2} {
		spec.partitioned, spec.threads = true, threads
		got, _ := tieNet(t, spec)
		if got != ref {
			t.Fatalf("partitioned at %d threads differs from sequential: %s", threads, firstDiff(ref, got))
		}
	}
}

// firstDiff describes the first line where a and b differ, with the
// section ("# ..." line) it is in.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	section := ""
	for i := 0; i < min(len(la), len(lb)); i++ {
		if strings.HasPrefix(la[i], "# ") {
			section = la[i]
		}
		if la[i] != lb[i] {
			return fmt.Sprintf("in %q, line %d: sequential %q, partitioned %q", section, i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("sequential has %d lines, partitioned %d", len(la), len(lb))
}
