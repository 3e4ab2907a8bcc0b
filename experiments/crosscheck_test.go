package experiments

import (
	"fmt"
	"testing"

	"syncsim/netsim"
	"syncsim/netsim/fluid"
	"syncsim/switchmodel"
	"syncsim/topologies"
	"syncsim/transport"
	"syncsim/workloads/collective"
)

// The same ring all-reduce at three fidelities: the packet engine (DCTCP
// flows through the transport stack), the flow engine (netsim/fluid,
// max-min) and the cost model 2(n-1) alpha + 2(n-1)/n S/B (Eq. 2 of the
// selective-reduce paper, collective.RingAllReduceTime), on a star of n
// hosts (topologies.Star) where every host's path to its ring successor is
// host -> switch -> host at B = 10 Gbps with d = 2 us per cable.
//
// alpha is the per-step latency both engines share: the one-way
// propagation 2d of a transfer. The fluid engine's transfer costs exactly
// size/B + 2d (netsim/fluid doc), so fluid and formula must agree to the
// picosecond rounding of each step. The packet engine pays more, and the
// excess is accounted for term by term:
//
//   - headers: every 1460 B segment carries 40 B, and every segment is
//     acknowledged by a 40 B ACK sent on the receiver's NIC. In a ring each
//     host both sends (to its successor) and receives (from its
//     predecessor), so its NIC carries its data, their headers and the
//     ACKs of the incoming flow: (1460 + 2 x 40) / 1460 = 1.055 times the
//     payload;
//   - store-and-forward: the switch serialises the last segment of each
//     step again (1.2 us at 10 Gbps);
//   - two-way traffic through FIFO NICs: the stack's NIC queues are
//     drop-tail FIFOs and a flow puts its whole congestion window into its
//     NIC (nothing marks there, so the window grows through slow start
//     unchecked, to some 500 packets here). The ACKs a host returns to its
//     predecessor wait behind that backlog, so each flow's ACK clock runs
//     on its successor's queue: the classic two-way-traffic effect (Zhang,
//     Shenker and Clark, SIGCOMM 1991). Per-step transfer times stay close
//     to the model, but hosts drift apart and the slowest sets the end.
//
// Slow start itself costs nothing here: the base RTT (10.5 us) times
// 10 Gbps is 13 KB, below the initial window of 10 segments (15 KB).
//
// The first two terms form crossPacketModel. Running the packet engine with
// NICs that send pure ACKs ahead of data (ackFirstNIC, as a host's fair-
// queueing qdisc serves sparse flows first) removes the third term, and
// that run must match the model within 0.5 percent, hence the formula
// within the header factor plus one store-and-forward per step. The default
// run (FIFO NICs) measures 1.07-1.19 times the formula for these cases: the
// third term is not bounded by a tolerance here, because its size is set by
// how much data the stack lets a flow queue in its own NIC (unbounded
// today; real stacks bound it with TCP small queues and byte queue limits),
// not by the collective. The test checks only that it can only slow the
// ring down, and logs it.
const (
	crossRate  = 10 * netsim.Gbps
	crossDelay = 2 * netsim.Microsecond
)

// crossCases are the ring sizes and buffer sizes cross-checked.
var crossCases = []struct {
	n    int
	size netsim.Bytes
}{
	{4, 4 * netsim.Megabyte},
	{8, 4 * netsim.Megabyte},
	{8, 1 * netsim.Megabyte},
}

// crossQueue is the switch queue of the star: DCTCP's K = 65 packets for
// 10 Gbps (Alizadeh et al., SIGCOMM 2010, Sec. 4) and a 2 MB buffer per
// port, larger than a chunk, so that neither a switch port nor a sender's
// NIC (topologies give NICs the same drop-tail buffer) ever drops: the
// cross-check is about the collective, not about loss recovery.
var crossQueue = switchmodel.QueueConfig{Buffer: 2 * netsim.Megabyte, ECNPackets: 65}

// crossRun is one ring all-reduce on a fresh star.
type crossRun struct {
	end   netsim.Time
	net   *netsim.Network
	stack *transport.Stack // packet engine
	eng   *fluid.Engine    // flow engine
	books *countingBulk
}

// countingBulk forwards to a Bulk engine and books every transfer, so a
// test can check that each was delivered exactly once.
type countingBulk struct {
	b                 netsim.Bulk
	sends, dones      int
	sentB, deliveredB netsim.Bytes
	doubleDone        bool
}

// Send implements netsim.Bulk.
func (c *countingBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	c.sends++
	c.sentB += size
	fired := false
	c.b.Send(src, dst, size, opts, func() {
		if fired {
			c.doubleDone = true
		}
		fired = true
		c.dones++
		c.deliveredB += size
		done()
	})
}

// ackFirstNIC is a host NIC queue that sends pure ACKs (packets without
// payload) ahead of queued data; data is drop-tail within limit bytes.
type ackFirstNIC struct {
	acks, data netsim.FIFO
}

func (q *ackFirstNIC) Enqueue(p *netsim.Packet, now netsim.Time) bool {
	if p.Payload == 0 {
		q.acks.Push(p)
		return true
	}
	return q.data.Enqueue(p, now)
}

func (q *ackFirstNIC) Dequeue(now netsim.Time) *netsim.Packet {
	if p := q.acks.Dequeue(now); p != nil {
		return p
	}
	return q.data.Dequeue(now)
}

func (q *ackFirstNIC) Len() int            { return q.acks.Len() + q.data.Len() }
func (q *ackFirstNIC) Bytes() netsim.Bytes { return q.acks.Bytes() + q.data.Bytes() }

// runCross runs one ring all-reduce of size bytes over n star hosts on the
// given engine: "packet", "packet-ackfirst" or "fluid".
func runCross(t *testing.T, engine string, n int, size netsim.Bytes) *crossRun {
	t.Helper()
	sim := netsim.New(1)
	net := netsim.NewNetwork(sim)
	fab, err := topologies.Star(net, n, crossRate, crossDelay, crossQueue)
	if err != nil {
		t.Fatal(err)
	}
	r := &crossRun{net: net, end: -1}
	switch engine {
	case "packet", "packet-ackfirst":
		if engine == "packet-ackfirst" {
			for _, h := range fab.Hosts {
				h.NIC().Queue = &ackFirstNIC{data: netsim.FIFO{Limit: crossQueue.Buffer}}
			}
		}
		r.stack = transport.NewStack(net, transport.DefaultConfig())
		r.books = &countingBulk{b: r.stack}
	case "fluid":
		r.eng = fluid.New(net, fluid.MaxMin)
		r.books = &countingBulk{b: r.eng}
	default:
		t.Fatalf("unknown engine %q", engine)
	}
	if err := collective.RingAllReduce(sim, r.books, fab.HostIDs(), size, netsim.BulkOpts{}, func() { r.end = sim.Now() }); err != nil {
		t.Fatal(err)
	}
	sim.Run(netsim.Second)
	if r.end < 0 {
		t.Fatalf("%s: ring all-reduce of %d B over %d hosts did not finish", engine, size, n)
	}
	return r
}

// crossPacketModel is the packet engine's time for the ring on the star
// without ACK-clocking effects: per step, alpha plus the switch's
// store-and-forward of one full segment, plus the step's NIC time for the
// chunk, its segment headers and the ACKs of the incoming chunk.
func crossPacketModel(n int, size netsim.Bytes) netsim.Time {
	cfg := transport.DefaultConfig()
	chunk := size / netsim.Bytes(n)
	segs := (chunk + cfg.MSS - 1) / cfg.MSS
	step := 2*crossDelay + netsim.TxTime(cfg.MSS+cfg.HeaderBytes, crossRate) +
		netsim.TxTime(chunk+2*segs*cfg.HeaderBytes, crossRate)
	return netsim.Time(2*(n-1)) * step
}

// crossBaseRTT is the unloaded round trip on the star: a full segment
// serialised at the sender and the switch, an ACK serialised twice, and
// four cable delays.
func crossBaseRTT() netsim.Time {
	return 4*crossDelay + 2*netsim.TxTime(cfgMSS+cfgHdr, crossRate) + 2*netsim.TxTime(cfgHdr, crossRate)
}

// The stack's default segment payload and header (transport.DefaultConfig).
var cfgMSS, cfgHdr = transport.DefaultConfig().MSS, transport.DefaultConfig().HeaderBytes

// TestRingCrossFidelity runs each case at packet and flow fidelity and
// against the formula, with the tolerances derived in the comment above.
func TestRingCrossFidelity(t *testing.T) {
	for _, c := range crossCases {
		t.Run(fmt.Sprintf("n=%d/S=%dB", c.n, c.size), func(t *testing.T) {
			alpha := 2 * crossDelay
			formula := collective.RingAllReduceTime(c.n, c.size, crossRate, alpha)
			fl := runCross(t, "fluid", c.n, c.size).end
			pk := runCross(t, "packet", c.n, c.size).end
			pkAck := runCross(t, "packet-ackfirst", c.n, c.size).end
			model := crossPacketModel(c.n, c.size)
			steps := netsim.Time(2 * (c.n - 1))
			t.Logf("formula %v, fluid %v (%.6f), packet %v (%.4f; model %v, ACK-first NICs %v), base RTT %v",
				formula, fl, ratio(fl, formula), pk, ratio(pk, formula), model, pkAck, crossBaseRTT())

			// Fluid = formula: the same alpha and B, one picosecond of
			// rounding per step at most.
			if d := fl - formula; d < 0 || d > steps {
				t.Errorf("fluid %v vs formula %v: differ by %v, want 0..%v", fl, formula, d, steps)
			}
			// Packet engine without ACK clocking = header and
			// store-and-forward model within 0.5 percent.
			if r := ratio(pkAck, model); r < 0.995 || r > 1.005 {
				t.Errorf("packet with ACK-first NICs %v vs model %v: ratio %.4f, want within 0.5%%", pkAck, model, r)
			}
			// Packet vs formula: the header factor (1460+80)/1460 and one
			// segment's store-and-forward per step, nothing else.
			hdr := float64(cfgMSS+2*cfgHdr) / float64(cfgMSS)
			hi := (float64(formula)*hdr + float64(steps*netsim.TxTime(cfgMSS+cfgHdr, crossRate))) * 1.005
			if pkAck < formula || float64(pkAck) > hi {
				t.Errorf("packet with ACK-first NICs %v outside [formula %v, formula x %.4f + store-and-forward + 0.5%% = %v]",
					pkAck, formula, hdr, netsim.Time(hi))
			}
			// Default packet engine (FIFO NICs): two-way traffic only adds.
			if pk < pkAck {
				t.Errorf("packet with FIFO NICs %v faster than with ACK-first NICs %v", pk, pkAck)
			}
		})
	}
}

// TestRingCrossBooks checks that at both fidelities every transfer the
// ring started was delivered exactly once, that the bytes moved are the
// ring's 2(n-1) S, and that the engines' own books balance: the packet
// engine conserves packets, has none in flight, dropped none and closed
// every flow; the fluid engine passes its Check with nothing pending.
func TestRingCrossBooks(t *testing.T) {
	const n, size = 6, 3 * netsim.Megabyte
	wantSends := n * 2 * (n - 1)
	wantBytes := netsim.Bytes(2*(n-1)) * size
	for _, engine := range []string{"packet", "fluid"} {
		t.Run(engine, func(t *testing.T) {
			r := runCross(t, engine, n, size)
			b := r.books
			if b.doubleDone || b.sends != wantSends || b.dones != b.sends || b.sentB != wantBytes || b.deliveredB != wantBytes {
				t.Fatalf("books: %d sends, %d dones (double %v), %d B sent, %d B delivered; want %d transfers of %d B in all",
					b.sends, b.dones, b.doubleDone, b.sentB, b.deliveredB, wantSends, wantBytes)
			}
			switch engine {
			case "packet":
				st := r.stack
				if st.Started != uint64(wantSends) || st.Completed != st.Started || st.Active() != 0 || st.Retransmits != 0 {
					t.Errorf("stack: started %d completed %d active %d retransmits %d", st.Started, st.Completed, st.Active(), st.Retransmits)
				}
				if err := r.net.CheckConservation(); err != nil {
					t.Error(err)
				}
				s := r.net.Stats()
				if s.Dropped != 0 || r.net.InFlight() != 0 || s.Injected == 0 {
					t.Errorf("network: injected %d dropped %d in flight %d", s.Injected, s.Dropped, r.net.InFlight())
				}
			case "fluid":
				e := r.eng
				if err := e.Check(); err != nil {
					t.Error(err)
				}
				if e.Pending() != 0 || e.Completed() != uint64(wantSends) || e.BytesDelivered() != wantBytes {
					t.Errorf("fluid: pending %d completed %d delivered %d B", e.Pending(), e.Completed(), e.BytesDelivered())
				}
			}
		})
	}
}

func ratio(a, b netsim.Time) float64 { return float64(a) / float64(b) }
