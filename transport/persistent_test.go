package transport

import (
	"testing"

	"syncsim/netsim"
)

// msgLog records, for each done of a persistent connection, the message
// index, the virtual time and the receiver's in-order bytes.
type msgLog struct {
	net  *netsim.Network
	conn func() *Conn
	idx  []int
	at   []netsim.Time
	held []netsim.Bytes
}

func (l *msgLog) done(i int) func() {
	return func() {
		l.idx = append(l.idx, i)
		l.at = append(l.at, l.net.Sim.Now())
		l.held = append(l.held, l.conn().Flow().Delivered())
	}
}

// TestPersistentBoundaries checks done times worked out by hand on one
// 10 Gbps cable with a 100 us delay (the rounds of TestShortFlowFCT). T is
// a full segment's serialisation, d the delay; every case starts at 5 us.
func TestPersistentBoundaries(t *testing.T) {
	const rate = 10 * netsim.Gbps
	d := 100 * netsim.Microsecond
	T := netsim.TxTime(1500, rate)
	Ta := netsim.TxTime(40, rate)
	T140 := netsim.TxTime(140, rate)
	us := netsim.Microsecond
	type msg struct {
		at      netsim.Time // post time after the start
		size    netsim.Bytes
		latency netsim.Time
	}
	tests := []struct {
		name string
		msgs []msg
		want []netsim.Time // done times after the start
	}{
		// Each Send pushes what the window allows at once (no Nagle
		// delay, TCP_NODELAY as collective libraries set it): the
		// second message's last 100 B leave as a 140 B segment, and
		// the third ends with a 1360 B one.
		{"eager segments", []msg{{0, 3 * 1460, 0}, {0, 2*1460 + 100, 0}, {0, 4*1460 - 100, 0}},
			[]netsim.Time{3*T + d, 5*T + T140 + d, 8*T + T140 + netsim.TxTime(1400, rate) + d}},
		// Bytes beyond the window wait and are cut from the stream: the
		// first message's last 700 B and the second's first 760 B share
		// the segment released by the first ACK (at T + 2d + Ta); the
		// second ACK releases the last 700 B.
		{"segment across a boundary", []msg{{0, 10*1460 + 700, 0}, {0, 1460, 0}},
			[]netsim.Time{T + 2*d + Ta + T + d, 2*T + 2*d + Ta + netsim.TxTime(740, rate) + d}},
		// The second message waits 3 us; the third, posted with a
		// shorter latency, waits for the second and follows it.
		{"start latency in stream order", []msg{{0, 1460, 0}, {0, 1460, 3 * us}, {0, 1460, us}},
			[]netsim.Time{T + d, 3*us + T + d, 3*us + 2*T + d}},
		// A 100 B message leaves alone; the next one, posted later,
		// starts at stream offset 100 and fits one 1500 B segment.
		{"unaligned stream", []msg{{0, 100, 0}, {10 * us, 1460, 0}},
			[]netsim.Time{netsim.TxTime(140, rate) + d, 10*us + T + d}},
		// A zero-size message moves nothing and is outside the pair's
		// order: it completes after its latency, before the first.
		{"zero-size message completes after its latency", []msg{{0, 1460, 0}, {0, 0, 2 * us}},
			[]netsim.Time{2 * us, T + d}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, a, b := pair(rate, d, nil)
			st := NewStack(net, DefaultConfig())
			p := st.Persistent()
			l := &msgLog{net: net, conn: func() *Conn { return p.Conn(a.ID(), b.ID()) }}
			start := 5 * us
			var total netsim.Bytes
			for i, m := range tc.msgs {
				total += max(m.size, 0)
				net.Sim.At(start+m.at, func() {
					p.Send(a.ID(), b.ID(), m.size, netsim.BulkOpts{StartLatency: m.latency}, l.done(i))
				})
			}
			net.Sim.Run(netsim.Never)
			if len(l.at) != len(tc.want) {
				t.Fatalf("%d dones, want %d", len(l.at), len(tc.want))
			}
			for i, w := range tc.want {
				if l.at[i]-start != w {
					t.Errorf("done %d (message %d) at %v, want %v", i, l.idx[i], l.at[i]-start, w)
				}
			}
			c := p.Conn(a.ID(), b.ID())
			if f := c.Flow(); f.Delivered() != total || f.BytesAcked() != total || c.Posted() != total || c.Queued() != 0 {
				t.Fatalf("delivered %d acked %d posted %d queued %d, want %d", f.Delivered(), f.BytesAcked(), c.Posted(), c.Queued(), total)
			}
			if p.Messages != uint64(len(tc.msgs)) || p.Done != p.Messages || p.Pending() != 0 {
				t.Fatalf("messages %d done %d", p.Messages, p.Done)
			}
			if st.Started != 0 || st.Active() != 0 || len(p.Conns()) != 1 {
				t.Fatalf("stack started %d active %d, %d connections", st.Started, st.Active(), len(p.Conns()))
			}
			checkBooks(t, net)
		})
	}
}

// TestPersistentManyMessages posts 300 messages of random sizes at random
// times on one pair, some from other messages' dones, through a DCTCP
// bottleneck, and checks FIFO dones at the exact in-order offsets: at each
// done the receiver holds the message's end, and the segment that arrived
// last carried it (the receiver holds less than one MSS beyond it).
func TestPersistentManyMessages(t *testing.T) {
	for _, cc := range []CC{DCTCP, NewReno} {
		t.Run(cc.String(), func(t *testing.T) {
			q := newECNQueue(0, 20)
			net, a, b := pair(10*netsim.Gbps, 5*netsim.Microsecond, q)
			cfg := DefaultConfig()
			cfg.CC = cc
			st := NewStack(net, cfg)
			p := st.Persistent()
			rng := netsim.Stream(3, "msgs")
			l := &msgLog{net: net, conn: func() *Conn { return p.Conn(a.ID(), b.ID()) }}
			var ends []netsim.Bytes
			var total netsim.Bytes
			var post func(i int)
			post = func(i int) {
				size := netsim.Bytes(1 + rng.Int64N(40000))
				total += size
				ends = append(ends, total)
				lat := netsim.Time(0)
				if rng.IntN(4) == 0 {
					lat = netsim.Time(rng.Int64N(int64(20 * netsim.Microsecond)))
				}
				done := l.done(i)
				p.Send(a.ID(), b.ID(), size, netsim.BulkOpts{StartLatency: lat}, func() {
					done()
					if i%3 == 0 && len(ends) < 300 {
						post(len(ends)) // chained from a done
					}
				})
			}
			// 200 posts at random times (messages are numbered in post
			// order), plus up to 100 chained from dones.
			for k := 0; k < 200; k++ {
				at := netsim.Time(rng.Int64N(int64(2 * netsim.Millisecond)))
				net.Sim.At(at, func() { post(len(ends)) })
			}
			net.Sim.Run(netsim.Never)
			if len(l.idx) != len(ends) || p.Pending() != 0 {
				t.Fatalf("%d dones of %d messages (pending %d)", len(l.idx), len(ends), p.Pending())
			}
			for k, i := range l.idx {
				if i != k {
					t.Fatalf("done %d was message %d: not FIFO", k, i)
				}
				if h := l.held[k]; h < ends[k] || h-ends[k] >= cfg.MSS {
					t.Fatalf("message %d (end %d) done with %d B held", k, ends[k], h)
				}
				if k > 0 && l.at[k] < l.at[k-1] {
					t.Fatalf("done %d before done %d", k, k-1)
				}
			}
			f := p.Conn(a.ID(), b.ID()).Flow()
			if f.Delivered() != total || f.Retransmits != 0 {
				t.Fatalf("delivered %d of %d, %d retransmits", f.Delivered(), total, f.Retransmits)
			}
			if cc == DCTCP && (q.marks == 0 || f.Cuts == 0) {
				t.Fatalf("DCTCP never reacted (marks %d cuts %d)", q.marks, f.Cuts)
			}
			checkBooks(t, net)
		})
	}
}
