package transport

import (
	"testing"

	"syncsim/netsim"
)

// TestShortFlowFCT checks flow completion times against slow-start rounds
// worked out by hand on one 10 Gbps cable with a 100 us propagation delay,
// long enough that the rounds do not overlap. T is the serialisation of a
// full 1500 B segment, Ta of a 40 B ACK, d the propagation delay. With an
// initial window of 10 segments and one MSS of growth per ACK, every ACK of
// round 1 releases two segments of round 2, which keep the NIC busy.
func TestShortFlowFCT(t *testing.T) {
	const rate = 10 * netsim.Gbps
	d := 100 * netsim.Microsecond
	T := netsim.TxTime(1500, rate)
	Ta := netsim.TxTime(40, rate)
	tests := []struct {
		name    string
		size    netsim.Bytes
		latency netsim.Time
		maxCwnd int
		want    netsim.Time
	}{
		{"one segment", 1460, 0, 0, T + d},
		{"one small segment", 100, 0, 0, netsim.TxTime(140, rate) + d},
		{"initial window", 10 * 1460, 0, 0, 10*T + d},
		// Segment 10 (100 B) leaves when the first ACK returns.
		{"window plus a small tail", 10*1460 + 100, 0, 0, T + 2*d + Ta + netsim.TxTime(140, rate) + d},
		// Round 2 holds 20 segments sent back to back from the first ACK.
		{"two rounds", 30 * 1460, 0, 0, T + 2*d + Ta + 20*T + d},
		{"start latency counts", 1460, 7 * netsim.Microsecond, 0, 7*netsim.Microsecond + T + d},
		// A 4-segment cap: each ACK of round 1 releases exactly one
		// segment, so the last leaves one T after the fourth ACK.
		{"window cap", 8 * 1460, 0, 4, 4*T + 2*d + Ta + T + d},
	}
	for _, cc := range []CC{DCTCP, NewReno} {
		for _, tc := range tests {
			t.Run(cc.String()+"/"+tc.name, func(t *testing.T) {
				net, a, b := pair(rate, d, nil)
				cfg := DefaultConfig()
				cfg.CC = cc
				cfg.MaxCwndPkts = tc.maxCwnd
				st := NewStack(net, cfg)
				var got *Flow
				net.Sim.Run(5 * netsim.Microsecond) // flows need not start at zero
				f := st.Start(a.ID(), b.ID(), FlowOpts{Size: tc.size, StartLatency: tc.latency}, func(f *Flow) { got = f })
				net.Sim.Run(netsim.Never)
				if got != f {
					t.Fatal("done not called with the flow")
				}
				if f.FCT() != tc.want {
					t.Fatalf("FCT %v, want %v", f.FCT(), tc.want)
				}
				if f.Delivered() != tc.size || f.BytesAcked() != tc.size {
					t.Fatalf("delivered %d acked %d, want %d", f.Delivered(), f.BytesAcked(), tc.size)
				}
				if f.Retransmits != 0 || f.Timeouts != 0 || st.Active() != 0 || st.Completed != 1 {
					t.Fatalf("retx %d timeouts %d active %d completed %d", f.Retransmits, f.Timeouts, st.Active(), st.Completed)
				}
				checkBooks(t, net)
				if net.Sim.Packets().Live() != 0 {
					t.Fatalf("%d packets not returned to the pool", net.Sim.Packets().Live())
				}
			})
		}
	}
}

// TestLineRate runs one large flow alone: it must move exactly Size bytes
// at nearly the goodput of the link, 10 Gbps * 1460/1500.
func TestLineRate(t *testing.T) {
	const rate = 10 * netsim.Gbps
	const size = 8 * netsim.Megabyte
	goodput := float64(rate) * 1460 / 1500
	tests := []struct {
		name string
		cc   CC
		q    func() netsim.Queue
	}{
		{"newreno direct", NewReno, nil},
		{"dctcp through a K=65 switch", DCTCP, func() netsim.Queue { return newECNQueue(netsim.Megabyte, 65) }},
		{"newreno through a 1 MB switch", NewReno, func() netsim.Queue { return newECNQueue(netsim.Megabyte, 0) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var net *netsim.Network
			var src, dst netsim.NodeID
			if tc.q == nil {
				n, a, b := pair(rate, 2*netsim.Microsecond, nil)
				net, src, dst = n, a.ID(), b.ID()
			} else {
				s := newStar(1, rate, 2*netsim.Microsecond, tc.q())
				net, src, dst = s.net, s.senders[0].ID(), s.recv.ID()
			}
			cfg := DefaultConfig()
			cfg.CC = tc.cc
			st := NewStack(net, cfg)
			f := st.Start(src, dst, FlowOpts{Size: size}, nil)
			net.Sim.Run(netsim.Never)
			if !f.Done() || f.Delivered() != size {
				t.Fatalf("done %v delivered %d, want %d", f.Done(), f.Delivered(), size)
			}
			g := netsim.RateOf(size, f.FCT())
			if g < 0.97*goodput || g > goodput {
				t.Fatalf("goodput %.3f Gbps, want within 3%% below %.3f", g/1e9, goodput/1e9)
			}
			if f.Retransmits != 0 {
				t.Fatalf("%d retransmissions on an uncongested path", f.Retransmits)
			}
			checkBooks(t, net)
		})
	}
}

// TestBulkSend drives the netsim.Bulk interface: done fires once when the
// last byte arrives, and empty or local transfers finish after the start
// latency.
func TestBulkSend(t *testing.T) {
	const rate = 10 * netsim.Gbps
	d := netsim.Microsecond
	net, a, b := pair(rate, d, nil)
	var bulk netsim.Bulk = NewStack(net, DefaultConfig())
	var at []netsim.Time
	done := func() { at = append(at, net.Sim.Now()) }
	lat := 3 * netsim.Microsecond
	bulk.Send(a.ID(), b.ID(), 1460, netsim.BulkOpts{StartLatency: lat}, done)
	bulk.Send(a.ID(), a.ID(), 5000, netsim.BulkOpts{StartLatency: lat}, done)
	bulk.Send(a.ID(), b.ID(), 0, netsim.BulkOpts{}, done)
	net.Sim.Run(netsim.Never)
	want := []netsim.Time{0, lat, lat + netsim.TxTime(1500, rate) + d}
	if len(at) != len(want) {
		t.Fatalf("done called %d times, want %d", len(at), len(want))
	}
	for i := range want {
		if at[i] != want[i] {
			t.Errorf("completion %d at %v, want %v", i, at[i], want[i])
		}
	}
	st := bulk.(*Stack)
	if st.Active() != 0 || st.Completed != 3 || st.Started != 3 {
		t.Fatalf("active %d completed %d started %d", st.Active(), st.Completed, st.Started)
	}
	checkBooks(t, net)
}

// TestStopLongLived stops a long-lived flow: it must stop sending, release
// its endpoints, and leave no packet behind.
func TestStopLongLived(t *testing.T) {
	net, a, b := pair(10*netsim.Gbps, netsim.Microsecond, nil)
	st := NewStack(net, DefaultConfig())
	called := false
	f := st.Start(a.ID(), b.ID(), FlowOpts{}, func(*Flow) { called = true })
	net.Sim.Run(netsim.Millisecond)
	if st.Active() != 1 {
		t.Fatalf("active %d, want 1", st.Active())
	}
	f.Stop()
	delivered := f.Delivered()
	// Roughly 1 ms at 9.73 Gbps of goodput.
	if delivered < 1100*netsim.Kilobyte || delivered > 1220*netsim.Kilobyte {
		t.Fatalf("delivered %d bytes in 1 ms", delivered)
	}
	net.Sim.Run(netsim.Never)
	if called || f.Done() || st.Active() != 0 || st.Stopped != 1 {
		t.Fatalf("called %v done %v active %d stopped %d", called, f.Done(), st.Active(), st.Stopped)
	}
	if f.Delivered() != delivered {
		t.Fatal("receiver accepted data after Stop")
	}
	if b.Unclaimed == 0 {
		t.Fatal("in-flight segments should have arrived at a closed endpoint")
	}
	checkBooks(t, net)
	if net.Sim.Packets().Live() != 0 {
		t.Fatalf("%d packets leaked", net.Sim.Packets().Live())
	}
}
