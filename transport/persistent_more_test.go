package transport

import (
	"testing"

	"syncsim/netsim"
)

// TestPersistentTwoPairs runs two senders into one receiver through a DCTCP
// switch port, plus the reverse pair, each posting 20 messages back to back
// (the next from the previous done): one connection per ordered pair, FIFO
// dones per pair, every byte delivered, books balanced.
func TestPersistentTwoPairs(t *testing.T) {
	s := newStar(2, 10*netsim.Gbps, 2*netsim.Microsecond, newECNQueue(netsim.Megabyte, 65))
	st := NewStack(s.net, DefaultConfig())
	p := st.Persistent()
	type pairRun struct {
		src, dst netsim.NodeID
		order    []int
	}
	runs := []*pairRun{
		{src: s.senders[0].ID(), dst: s.recv.ID()},
		{src: s.senders[1].ID(), dst: s.recv.ID()},
		{src: s.recv.ID(), dst: s.senders[0].ID()},
	}
	const msgs, size = 20, 50000
	for _, r := range runs {
		var post func(i int)
		post = func(i int) {
			p.Send(r.src, r.dst, size, netsim.BulkOpts{}, func() {
				r.order = append(r.order, i)
				if i+1 < msgs {
					post(i + 1)
				}
			})
		}
		post(0)
	}
	s.sim.Run(netsim.Never)
	if got := len(p.Conns()); got != len(runs) {
		t.Fatalf("%d connections, want %d", got, len(runs))
	}
	seen := map[uint64]bool{}
	for _, r := range runs {
		if len(r.order) != msgs {
			t.Fatalf("pair %d->%d: %d dones, want %d", r.src, r.dst, len(r.order), msgs)
		}
		for i, k := range r.order {
			if i != k {
				t.Fatalf("pair %d->%d: dones %v not in order", r.src, r.dst, r.order)
			}
		}
		c := p.Conn(r.src, r.dst)
		if c == nil || c.Flow().Src != r.src || c.Flow().Dst != r.dst || seen[c.Flow().ID] {
			t.Fatalf("pair %d->%d: wrong or shared connection", r.src, r.dst)
		}
		seen[c.Flow().ID] = true
		if f := c.Flow(); f.Delivered() != msgs*size || f.BytesAcked() != msgs*size {
			t.Fatalf("pair %d->%d: delivered %d acked %d", r.src, r.dst, f.Delivered(), f.BytesAcked())
		}
	}
	if p.Conn(s.senders[1].ID(), s.senders[0].ID()) != nil {
		t.Fatal("connection for a pair that never sent")
	}
	if p.Done != 3*msgs || p.Pending() != 0 {
		t.Fatalf("done %d pending %d", p.Done, p.Pending())
	}
	checkBooks(t, s.net)
}

// TestPersistentLoss drops chosen first transmissions on a persistent
// connection whose messages are posted one at a time (each from the
// previous done), so segment boundaries do not fall on MSS multiples after
// the first message, and checks the repair mechanism and the dones.
// Messages are 20000 B (14 segments: 13 full and one of 1020 B); message
// m starts at stream offset 20000 m and its segments at 20000 m + 1460 k.
func TestPersistentLoss(t *testing.T) {
	const msgs, size = 6, 20000
	seg := func(m, k int64) int64 { return m*size + k*1460 }
	tests := []struct {
		name                    string
		drop                    []int64 // stream offsets of lost first transmissions
		fastRec, retx, timeouts uint64
	}{
		{"loss inside a later message: fast retransmit", []int64{seg(2, 3)}, 1, 1, 0},
		// The last segment of message 1 has 0 segments behind it when
		// message 2 is not posted until message 1 is done: only the
		// RTO repairs it.
		{"message tail lost: RTO", []int64{seg(1, 13)}, 0, 1, 1},
		{"losses in two messages", []int64{seg(0, 4), seg(3, 2)}, 2, 2, 0},
	}
	for _, cc := range []CC{DCTCP, NewReno} {
		for _, tc := range tests {
			t.Run(cc.String()+"/"+tc.name, func(t *testing.T) {
				lq := &lossQueue{drop: map[int64]bool{}}
				net, a, b := pair(10*netsim.Gbps, 10*netsim.Microsecond, lq)
				for _, o := range tc.drop {
					lq.drop[o] = true
				}
				cfg := DefaultConfig()
				cfg.CC = cc
				st := NewStack(net, cfg)
				p := st.Persistent()
				lq.flow = 1 // the connection is the stack's first flow
				var held []netsim.Bytes
				var post func(i int)
				post = func(i int) {
					p.Send(a.ID(), b.ID(), size, netsim.BulkOpts{}, func() {
						held = append(held, p.Conn(a.ID(), b.ID()).Flow().Delivered())
						if i+1 < msgs {
							post(i + 1)
						}
					})
				}
				post(0)
				net.Sim.Run(netsim.Never)
				if len(lq.drop) != 0 {
					t.Fatalf("offsets never sent: %v", lq.drop)
				}
				if len(held) != msgs {
					t.Fatalf("%d dones, want %d", len(held), msgs)
				}
				for i, h := range held {
					// One message outstanding at a time: the receiver
					// holds exactly the message's end at its done.
					if h != netsim.Bytes((i+1)*size) {
						t.Fatalf("done %d with %d B held, want %d", i, h, (i+1)*size)
					}
				}
				f := p.Conn(a.ID(), b.ID()).Flow()
				if f.FastRecoveries != tc.fastRec || f.Retransmits != tc.retx || f.Timeouts != tc.timeouts {
					t.Fatalf("fast recoveries %d retransmits %d timeouts %d, want %d %d %d",
						f.FastRecoveries, f.Retransmits, f.Timeouts, tc.fastRec, tc.retx, tc.timeouts)
				}
				if st.Retransmits != tc.retx || st.Timeouts != tc.timeouts {
					t.Fatalf("stack totals: %d retransmits %d timeouts", st.Retransmits, st.Timeouts)
				}
				checkBooks(t, net)
			})
		}
	}
}

// TestPersistentLossAcrossBoundary posts six 20000 B messages at once, so
// the stream is cut into MSS segments regardless of messages, and drops
// segment 13 (bytes 18980-20440), which carries the end of message 0 and
// the start of message 1. Fast retransmit repairs it; the receiver, which
// holds the segments behind it, then jumps past the end of message 1, so
// both dones run at the retransmission's arrival, in order, and the others
// follow in order.
func TestPersistentLossAcrossBoundary(t *testing.T) {
	const msgs, size = 6, 20000
	lq := &lossQueue{flow: 1, drop: map[int64]bool{13 * 1460: true}}
	net, a, b := pair(10*netsim.Gbps, 10*netsim.Microsecond, lq)
	st := NewStack(net, DefaultConfig())
	p := st.Persistent()
	l := &msgLog{net: net, conn: func() *Conn { return p.Conn(a.ID(), b.ID()) }}
	for i := 0; i < msgs; i++ {
		p.Send(a.ID(), b.ID(), size, netsim.BulkOpts{}, l.done(i))
	}
	net.Sim.Run(netsim.Never)
	if len(lq.drop) != 0 || len(l.idx) != msgs {
		t.Fatalf("drop pending %v, %d dones", lq.drop, len(l.idx))
	}
	for k, i := range l.idx {
		if i != k || l.held[k] < netsim.Bytes((k+1)*size) || (k > 0 && l.at[k] < l.at[k-1]) {
			t.Fatalf("dones %v at %v holding %v: not FIFO at the message ends", l.idx, l.at, l.held)
		}
	}
	if l.at[0] != l.at[1] || l.held[0] < 2*size {
		t.Fatalf("messages 0 and 1 done at %v and %v (held %d): the repair should complete both", l.at[0], l.at[1], l.held[0])
	}
	f := p.Conn(a.ID(), b.ID()).Flow()
	if f.FastRecoveries != 1 || f.Retransmits != 1 || f.Timeouts != 0 || f.Delivered() != msgs*size {
		t.Fatalf("fast recoveries %d retransmits %d timeouts %d delivered %d", f.FastRecoveries, f.Retransmits, f.Timeouts, f.Delivered())
	}
	checkBooks(t, net)
}

// TestPersistentWarmWindow sends two 1 MB messages one after the other on a
// path whose bandwidth-delay product (10 Gbps x 200 us = 250 KB) is far
// above the initial window: on the warm connection the second message
// skips slow start and beats the same message on a fresh flow (Stack.Send)
// by at least two round trips, and its window, alpha and SRTT carry over.
// With IdleRestart and an idle gap above the RTO, the second message
// restarts from the initial window and takes exactly as long as the first.
func TestPersistentWarmWindow(t *testing.T) {
	const size = netsim.Megabyte
	d := 50 * netsim.Microsecond
	twoRTT := 4 * d // the base round trip is 2d plus serialisation
	tests := []struct {
		name    string
		restart bool
		gap     netsim.Time // idle time between the first done and the second post
	}{
		{"warm", false, 0},
		{"warm after idle", false, 5 * netsim.Millisecond},
		{"idle restart", true, 5 * netsim.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, a, b := pair(10*netsim.Gbps, d, nil)
			st := NewStack(net, DefaultConfig())
			p := st.Persistent()
			p.IdleRestart = tc.restart
			var first, second netsim.Time
			var cwnd1 netsim.Bytes
			p.Send(a.ID(), b.ID(), size, netsim.BulkOpts{}, func() {
				first = net.Sim.Now() // posted at 0
				net.Sim.AfterFunc(tc.gap, func() {
					posted := net.Sim.Now()
					cwnd1 = p.Conn(a.ID(), b.ID()).Flow().Cwnd()
					p.Send(a.ID(), b.ID(), size, netsim.BulkOpts{}, func() { second = net.Sim.Now() - posted })
				})
			})
			net.Sim.Run(netsim.Never)
			// The same message on a fresh flow.
			net2, a2, b2 := pair(10*netsim.Gbps, d, nil)
			st2 := NewStack(net2, DefaultConfig())
			var fresh netsim.Time
			st2.Send(a2.ID(), b2.ID(), size, netsim.BulkOpts{}, func() { fresh = net2.Sim.Now() })
			net2.Sim.Run(netsim.Never)
			if first != fresh {
				t.Fatalf("first message %v on a new connection, %v on a fresh flow: should be equal", first, fresh)
			}
			f := p.Conn(a.ID(), b.ID()).Flow()
			iw := netsim.Bytes(DefaultConfig().InitCwndPkts) * DefaultConfig().MSS
			if cwnd1 <= 4*iw || f.SRTT() == 0 || !(f.Alpha() < 1) {
				t.Fatalf("after the first message cwnd %d SRTT %v alpha %v: state did not carry over", cwnd1, f.SRTT(), f.Alpha())
			}
			if tc.restart {
				if p.Restarts != 1 || second != fresh {
					t.Fatalf("restarts %d, second message %v, want 1 and the fresh flow's %v", p.Restarts, second, fresh)
				}
				return
			}
			t.Logf("first %v, second %v (cwnd %d B before it), fresh flow %v", first, second, cwnd1, fresh)
			if p.Restarts != 0 || second > fresh-twoRTT {
				t.Fatalf("second message %v on the warm connection, fresh flow %v: want at least %v faster", second, fresh, twoRTT)
			}
		})
	}
}

// BenchmarkPersistentMessages measures one 64 KB message (45 segments) on
// a warm persistent connection over a 10 Gbps, 1 us cable, each message
// posted from the previous one's done (one reused done func, so allocs/op
// shows the per-packet and per-message paths allocate nothing once the
// message slice has grown).
func BenchmarkPersistentMessages(b *testing.B) {
	net, a, c := pair(10*netsim.Gbps, netsim.Microsecond, nil)
	st := NewStack(net, DefaultConfig())
	p := st.Persistent()
	left := 100
	var post func()
	post = func() {
		left--
		if left >= 0 {
			p.Send(a.ID(), c.ID(), 64*netsim.KiB, netsim.BulkOpts{}, post)
		}
	}
	post()
	net.Sim.Run(netsim.Never) // warm-up: window, rings, message slice
	left = b.N
	b.ReportAllocs()
	b.ResetTimer()
	post()
	net.Sim.Run(netsim.Never)
	if p.Pending() != 0 || p.Done != uint64(100+b.N) {
		b.Fatalf("done %d of %d", p.Done, 100+b.N)
	}
}
