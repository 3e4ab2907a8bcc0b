package transport

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"syncsim/netsim"
)

// randomLoss drops each packet (data or ACK) with probability p from a
// seeded stream.
type randomLoss struct {
	netsim.FIFO
	p     float64
	rng   *rand.Rand
	drops int
}

func (q *randomLoss) Enqueue(pk *netsim.Packet, now netsim.Time) bool {
	if q.rng.Float64() < q.p {
		q.drops++
		return false
	}
	return q.FIFO.Enqueue(pk, now)
}

// TestRandomLoss sends flows across a path that drops data and ACKs at
// random in both directions: every flow must still deliver exactly its
// bytes, and the books must balance.
func TestRandomLoss(t *testing.T) {
	for _, cc := range []CC{DCTCP, NewReno} {
		for _, p := range []float64{0.01, 0.05} {
			t.Run(fmt.Sprintf("%s/p=%v", cc, p), func(t *testing.T) {
				sim := netsim.New(3)
				net := netsim.NewNetwork(sim)
				a, b := net.AddHost("a"), net.AddHost("b")
				fwd := &randomLoss{p: p, rng: sim.Rand("fwd")}
				rev := &randomLoss{p: p, rng: sim.Rand("rev")}
				net.Connect(a.ID(), b.ID(), 10*netsim.Gbps, 5*netsim.Microsecond, fwd, rev)
				net.BuildRoutes()
				cfg := DefaultConfig()
				cfg.CC = cc
				st := NewStack(net, cfg)
				sizes := []netsim.Bytes{1, 1460, 1461, 100_000, 1_000_000}
				flows := make([]*Flow, len(sizes))
				for i, sz := range sizes {
					flows[i] = st.Start(a.ID(), b.ID(), FlowOpts{Size: sz}, nil)
				}
				sim.Run(netsim.Never)
				var retx uint64
				for i, f := range flows {
					if !f.Done() || f.Delivered() != sizes[i] || f.BytesAcked() != sizes[i] {
						t.Fatalf("flow %d: done %v delivered %d acked %d, want %d", i, f.Done(), f.Delivered(), f.BytesAcked(), sizes[i])
					}
					retx += f.Retransmits
				}
				if fwd.drops == 0 || rev.drops == 0 || retx == 0 {
					t.Fatalf("drops %d/%d retransmits %d: the path should have lost packets", fwd.drops, rev.drops, retx)
				}
				if st.Active() != 0 || st.Completed != uint64(len(sizes)) {
					t.Fatalf("active %d completed %d", st.Active(), st.Completed)
				}
				big := flows[len(flows)-1]
				t.Logf("1 MB flow: FCT %v, retransmits %d, fast recoveries %d, timeouts %d", big.FCT(), big.Retransmits, big.FastRecoveries, big.Timeouts)
				checkBooks(t, net)
				if sim.Packets().Live() != 0 {
					t.Fatalf("%d packets leaked", sim.Packets().Live())
				}
			})
		}
	}
}

// TestIncastShallowBuffer synchronises 16 senders of 64 KB into a 100 KB
// drop-tail port (the incast pattern). NewReno overflows the buffer and
// needs timeouts; DCTCP with K = 20 keeps the queue below the buffer.
// Every flow must complete with its exact byte count either way.
func TestIncastShallowBuffer(t *testing.T) {
	const n = 16
	const size = 64 * netsim.Kilobyte
	tests := []struct {
		cc       CC
		k        int
		timeouts bool
	}{
		{NewReno, 0, true},
		{DCTCP, 20, false},
	}
	for _, tc := range tests {
		t.Run(tc.cc.String(), func(t *testing.T) {
			q := newECNQueue(100*netsim.Kilobyte, tc.k)
			s := newStar(n, 10*netsim.Gbps, 2*netsim.Microsecond, q)
			cfg := DefaultConfig()
			cfg.CC = tc.cc
			cfg.InitCwndPkts = 2 // the first windows (48 KB) fit the buffer
			st := NewStack(s.net, cfg)
			var last netsim.Time
			flows := make([]*Flow, n)
			for i, h := range s.senders {
				flows[i] = st.Start(h.ID(), s.recv.ID(), FlowOpts{Size: size}, func(f *Flow) { last = f.End })
			}
			s.sim.Run(netsim.Never)
			for i, f := range flows {
				if !f.Done() || f.Delivered() != size {
					t.Fatalf("flow %d: done %v delivered %d", i, f.Done(), f.Delivered())
				}
			}
			// The ideal: all bytes through one 10 Gbps port.
			ideal := netsim.TxTime(n*size*1500/1460, 10*netsim.Gbps)
			t.Logf("%s: last completion %v (ideal %v), drops %d, marks %d, timeouts %d",
				tc.cc, last, ideal, q.drops, q.marks, st.Timeouts)
			if last < ideal {
				t.Fatalf("finished at %v, faster than the port allows (%v)", last, ideal)
			}
			if (st.Timeouts > 0) != tc.timeouts {
				t.Fatalf("timeouts %d, want timeouts: %v", st.Timeouts, tc.timeouts)
			}
			if !tc.timeouts && (last > ideal*11/10 || q.drops != 0) {
				t.Fatalf("DCTCP incast took %v with %d drops, want no drops and within 10%% of the ideal %v", last, q.drops, ideal)
			}
			checkBooks(t, s.net)
		})
	}
}
