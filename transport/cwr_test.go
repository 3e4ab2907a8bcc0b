package transport

import (
	"testing"

	"syncsim/netsim"
)

// cwrFlow starts one long-lived DCTCP flow with the given CWR mode on a
// cable so long that nothing arrives during the test: the test feeds the
// sender its ACKs by hand.
func cwrFlow(t *testing.T, mode CWR) (*Flow, *netsim.Sim) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.CWR = mode
	net, a, b := pair(10*netsim.Gbps, netsim.Second, nil)
	st := NewStack(net, cfg)
	f := st.Start(a.ID(), b.ID(), FlowOpts{}, nil)
	net.Sim.Run(1) // the start event: the initial window leaves
	if f.sndMax != 10*1460 || f.Cwnd() != 10*1460 {
		t.Fatalf("after the start: sndMax %d, cwnd %d; want the 10-segment initial window", f.sndMax, f.Cwnd())
	}
	return f, net.Sim
}

// ackSeg hands the sender a cumulative ACK of the first seg segments.
func ackSeg(f *Flow, sim *netsim.Sim, seg int, ece bool) {
	p := sim.Packets().Get()
	p.Flow = f.ID
	p.Flags = netsim.FlagACK
	if ece {
		p.Flags |= netsim.FlagECE
	}
	p.Ack = int64(seg) * 1460
	p.Echo = sim.Now()
	p.SrcEP = f.dstEP
	f.Receive(p)
}

// TestCWRHandWorked follows one DCTCP sender (MSS 1460 B, initial window
// 10 segments, alpha 1 until the first window of data is acknowledged)
// through a cut, by hand, in the three CWR modes (cut is the window cut at
// once, hold the cut paced by PRR).
//
// ACK 1 (no ECE): slow start, cwnd 11 segments (16060 B); two segments
// leave, sndNxt = 12 segments. ACK 2 carries ECE:
//
//   - grow: slow start first (cwnd 17520), then the cut to 17520/2 = 8760
//     = ssthresh; nothing is sent (10 segments in flight), and the next
//     cut waits for ACK 12. ACKs 3-12 are congestion avoidance with byte
//     counting: after six ACKs 8760 B are counted and cwnd becomes 10220;
//     four more count 5840 < 10220. cwnd after ACK 12: 10220. The flight
//     falls below 8760 at ACK 7 (one segment leaves), the window grows at
//     ACK 8 (two leave) and one leaves per ACK after: sndMax 19 segments.
//   - cut: the cutting ACK does not grow the window: cwnd 16060/2 = 8030
//     = ssthresh, cwrEnd = 12 segments. ACKs 3-12 do not grow it (ACK 12
//     only reaches cwrEnd; Linux and ns-3 wait for an ACK above it). The
//     sender sends once the flight is below 8030: one segment per ACK from
//     ACK 8 on, so sndMax = 17 segments after ACK 12.
//   - hold: ssthresh 8030 from prior cwnd 16060, so PRR sends half of what
//     is delivered: on the cutting ACK ceil(1460/2) = 730 B, raised to a
//     segment (the first send of a reduction); then one segment on ACKs 5,
//     7 and 9; on ACK 11 the flight (5 segments, 7300 B) is below ssthresh
//     and the bound min(8030 - 7300, ...) = 730 sends nothing; on ACK 12
//     min(8030 - 5840, max(8760 - 5840, 1460) + 1460) = 2190 sends one.
//     cwnd after ACK 12: 5840 + 2190 = 8030, sndMax 17 segments.
//
// ACK 13 is above cwrEnd: cut and hold leave CWR (cwnd = ssthresh = 8030)
// and grow again: congestion avoidance counts 1460 B per ACK and reaches
// 8030 at ACK 18 (6 x 1460 = 8760), so cwnd is 9490 after ACK 18 and 8030
// after ACK 17.
func TestCWRHandWorked(t *testing.T) {
	cases := []struct {
		mode                       CWR
		afterCut, after12, max12   netsim.Bytes
		after17, after18, cutsAt18 netsim.Bytes
	}{
		{CWRGrow, 8760, 10220, 19 * 1460, -1, -1, 1},
		{CWRCut, 8030, 8030, 17 * 1460, 8030, 9490, 1},
		{CWRHold, 14600 + 1460, 8030, 17 * 1460, 8030, 9490, 1},
	}
	for _, c := range cases {
		t.Run(c.mode.String(), func(t *testing.T) {
			f, sim := cwrFlow(t, c.mode)
			ackSeg(f, sim, 1, false)
			if f.Cwnd() != 11*1460 || f.sndMax != 12*1460 {
				t.Fatalf("after ACK 1: cwnd %d, sndMax %d; want 16060, 17520", f.Cwnd(), f.sndMax)
			}
			ackSeg(f, sim, 2, true)
			if f.Cwnd() != c.afterCut || f.Cuts != 1 {
				t.Fatalf("after the cutting ACK 2: cwnd %d, %d cuts; want %d, 1", f.Cwnd(), f.Cuts, c.afterCut)
			}
			for k := 3; k <= 12; k++ {
				ackSeg(f, sim, k, false)
				if c.mode == CWRCut && f.Cwnd() != 8030 {
					t.Fatalf("cut: ACK %d inside CWR moved cwnd to %d", k, f.Cwnd())
				}
			}
			if f.Cwnd() != c.after12 || f.sndMax != int64(c.max12) {
				t.Fatalf("after ACK 12: cwnd %d, sndMax %d; want %d, %d", f.Cwnd(), f.sndMax, c.after12, c.max12)
			}
			if c.after17 < 0 {
				return
			}
			for k := 13; k <= 17; k++ {
				ackSeg(f, sim, k, false)
			}
			if f.Cwnd() != c.after17 {
				t.Fatalf("after ACK 17: cwnd %d, want %d", f.Cwnd(), c.after17)
			}
			ackSeg(f, sim, 18, false)
			if f.Cwnd() != c.after18 || netsim.Bytes(f.Cuts) != c.cutsAt18 {
				t.Fatalf("after ACK 18: cwnd %d, %d cuts; want %d (growth resumed), %d", f.Cwnd(), f.Cuts, c.after18, c.cutsAt18)
			}
		})
	}
}

// TestCWREndsAboveCwrEnd checks where the next cut may come, after the cut
// of TestCWRHandWorked (cwrEnd = 12 segments): an ECN echo on ACK 12, which
// only reaches cwrEnd, cuts again under grow (its rule is sndUna >=
// cwrEnd) but not under cut and hold, which wait for an ACK above cwrEnd
// as Linux's TCP_CA_CWR and ns-3's CA_CWR do; an echo on ACK 13 cuts in
// every mode.
func TestCWREndsAboveCwrEnd(t *testing.T) {
	for _, c := range []struct {
		mode    CWR
		cutsAt2 uint64
	}{{CWRGrow, 2}, {CWRCut, 1}, {CWRHold, 1}} {
		t.Run(c.mode.String(), func(t *testing.T) {
			f, sim := cwrFlow(t, c.mode)
			ackSeg(f, sim, 1, false)
			ackSeg(f, sim, 2, true)
			for k := 3; k <= 11; k++ {
				ackSeg(f, sim, k, false)
			}
			ackSeg(f, sim, 12, true)
			if f.Cuts != c.cutsAt2 {
				t.Fatalf("ECE on the ACK reaching cwrEnd: %d cuts, want %d", f.Cuts, c.cutsAt2)
			}
			ackSeg(f, sim, 13, true)
			if f.Cuts != c.cutsAt2+1 && c.mode != CWRGrow {
				t.Fatalf("ECE on the ACK above cwrEnd: %d cuts, want %d", f.Cuts, c.cutsAt2+1)
			}
		})
	}
}

// TestCWRTimeoutGrows checks that a timeout ends a reduction: after an RTO
// the window restarts from one segment and slow start grows it at once,
// as Linux's TCP_CA_Loss does, although cwrEnd then lies far ahead.
func TestCWRTimeoutGrows(t *testing.T) {
	for _, mode := range []CWR{CWRCut, CWRHold} {
		t.Run(mode.String(), func(t *testing.T) {
			f, sim := cwrFlow(t, mode)
			ackSeg(f, sim, 1, false)
			ackSeg(f, sim, 2, true)
			f.onTimeout()
			if f.Cwnd() != 1460 {
				t.Fatalf("after the timeout cwnd is %d, want one segment", f.Cwnd())
			}
			ackSeg(f, sim, 3, false)
			if f.Cwnd() != 2*1460 {
				t.Fatalf("the first ACK after the timeout left cwnd at %d, want slow start to 2920", f.Cwnd())
			}
		})
	}
}

// TestPRRWindow checks PRRWindow against RFC 6937's two cases worked by
// hand (MSS 1000 B, a reduction from prior = 10000 B to ssthresh = 7000 B).
func TestPRRWindow(t *testing.T) {
	const mss = 1000
	cases := []struct {
		name                                string
		prrDelivered, prrOut, del, inflight netsim.Bytes
		want                                netsim.Bytes
	}{
		// ceil(1000 * 7000 / 10000) = 700 < one segment: the first send of a
		// reduction is a whole segment.
		{"first ACK", 1000, 0, 1000, 9000, 9000 + 1000},
		// ceil(3000 * 0.7) - 1000 = 1100.
		{"proportional", 3000, 1000, 1000, 8000, 8000 + 1100},
		// Already sent more than the proportion: nothing (not negative).
		{"ahead", 3000, 3000, 1000, 8000, 8000},
		// Flight below ssthresh: min(7000 - 5000, max(6000 - 4000, 1000) + 1000) = 2000.
		{"slow-start bound", 6000, 4000, 1000, 5000, 5000 + 2000},
		// ... but never above ssthresh: min(7000 - 6500, 3000 + 1000) = 500.
		{"capped at ssthresh", 8000, 5000, 1000, 6500, 7000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := PRRWindow(7000, 10000, c.prrDelivered, c.prrOut, c.del, c.inflight, mss); got != c.want {
				t.Fatalf("PRRWindow = %d, want %d", got, c.want)
			}
		})
	}
}

func TestParseCWR(t *testing.T) {
	for _, m := range []CWR{CWRCut, CWRGrow, CWRHold} {
		got, err := ParseCWR(m.String())
		if err != nil || got != m {
			t.Fatalf("ParseCWR(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := ParseCWR("HOLD"); err != nil {
		t.Fatalf("names are case-insensitive: %v", err)
	}
	if _, err := ParseCWR("shrink"); err == nil {
		t.Fatal("an unknown mode was accepted")
	}
	cfg := DefaultConfig()
	cfg.CWR = CWR(len(cwrNames))
	if cfg.Validate() == nil {
		t.Fatal("Validate accepted an unknown CWR mode")
	}
}
