package transport

import (
	"testing"

	"syncsim/netsim"
)

// TestLossRecovery drops chosen first transmissions of a 100-segment flow
// on a 10 Gbps cable (10 us delay) and checks which mechanism repairs them.
// Slow start from 10 segments sends rounds [0,10), [10,30), [30,70),
// [70,100).
func TestLossRecovery(t *testing.T) {
	const segs = 100
	const size = segs * 1460
	tests := []struct {
		name       string
		drop       []int64 // segment indices
		fastRec    uint64
		retx       uint64
		timeouts   uint64
		minFCT     netsim.Time
		maxFCTWant netsim.Time
	}{
		{name: "single loss: fast retransmit", drop: []int64{20}, fastRec: 1, retx: 1},
		{name: "first segment lost", drop: []int64{0}, fastRec: 1, retx: 1},
		{name: "three losses in a window: partial ACKs", drop: []int64{30, 32, 34}, fastRec: 1, retx: 3},
		{name: "losses in two windows", drop: []int64{15, 50}, fastRec: 2, retx: 2},
		// The last segment has nothing behind it to trigger duplicate
		// ACKs: only the 1 ms RTO repairs it.
		{name: "tail loss: RTO", drop: []int64{99}, timeouts: 1, retx: 1,
			minFCT: netsim.Millisecond, maxFCTWant: 2 * netsim.Millisecond},
		// After the RTO, go-back-N resends the last two from one segment
		// of window; two retransmissions in all.
		{name: "two tail losses: RTO then go-back-N", drop: []int64{98, 99}, timeouts: 1, retx: 2,
			minFCT: netsim.Millisecond, maxFCTWant: 2 * netsim.Millisecond},
	}
	for _, cc := range []CC{DCTCP, NewReno} {
		for _, tc := range tests {
			t.Run(cc.String()+"/"+tc.name, func(t *testing.T) {
				lq := &lossQueue{drop: map[int64]bool{}}
				net, a, b := pair(10*netsim.Gbps, 10*netsim.Microsecond, lq)
				for _, s := range tc.drop {
					lq.drop[s*1460] = true
				}
				cfg := DefaultConfig()
				cfg.CC = cc
				st := NewStack(net, cfg)
				lq.flow = 1 // the stack numbers flows from 1
				f := st.Start(a.ID(), b.ID(), FlowOpts{Size: size}, nil)
				net.Sim.Run(netsim.Never)
				if len(lq.drop) != 0 {
					t.Fatalf("segments never sent: %v", lq.drop)
				}
				if !f.Done() || f.Delivered() != size || f.BytesAcked() != size {
					t.Fatalf("done %v delivered %d acked %d, want %d", f.Done(), f.Delivered(), f.BytesAcked(), size)
				}
				if f.FastRecoveries != tc.fastRec || f.Timeouts != tc.timeouts || f.Retransmits != tc.retx {
					t.Fatalf("fast recoveries %d timeouts %d retransmits %d, want %d %d %d",
						f.FastRecoveries, f.Timeouts, f.Retransmits, tc.fastRec, tc.timeouts, tc.retx)
				}
				if tc.minFCT > 0 && (f.FCT() < tc.minFCT || f.FCT() > tc.maxFCTWant) {
					t.Fatalf("FCT %v, want in [%v, %v]", f.FCT(), tc.minFCT, tc.maxFCTWant)
				}
				if tc.minFCT == 0 && f.FCT() >= cfg.MinRTO {
					t.Fatalf("FCT %v: recovery should not wait for a timeout", f.FCT())
				}
				if f.Ssthresh() >= netsim.Bytes(1)<<62 {
					t.Fatal("a loss must set ssthresh")
				}
				checkBooks(t, net)
				if net.Sim.Packets().Live() != 0 {
					t.Fatalf("%d packets leaked", net.Sim.Packets().Live())
				}
			})
		}
	}
}

// TestRTOBackoff loses the same tail segment three times: the timeouts
// must back off exponentially (1, 2, 4 ms) before the fourth copy gets
// through.
func TestRTOBackoff(t *testing.T) {
	bq := &blackhole{until: 3}
	net, a, b := pair(10*netsim.Gbps, 10*netsim.Microsecond, bq)
	st := NewStack(net, DefaultConfig())
	bq.flow = 1
	f := st.Start(a.ID(), b.ID(), FlowOpts{Size: 1460}, nil)
	net.Sim.Run(netsim.Never)
	if !f.Done() || f.Timeouts != 3 || f.Retransmits != 3 {
		t.Fatalf("done %v timeouts %d retransmits %d, want true 3 3", f.Done(), f.Timeouts, f.Retransmits)
	}
	// Sent at 0, 1, 3 and 7 ms (RTO 1 ms doubled each time).
	want := []netsim.Time{0, netsim.Millisecond, 3 * netsim.Millisecond, 7 * netsim.Millisecond}
	for i, w := range want {
		if bq.sent[i] != w {
			t.Fatalf("transmission %d at %v, want %v", i, bq.sent[i], w)
		}
	}
	if got, w := f.FCT(), 7*netsim.Millisecond+netsim.TxTime(1500, 10*netsim.Gbps)+10*netsim.Microsecond; got != w {
		t.Fatalf("FCT %v, want %v", got, w)
	}
	checkBooks(t, net)
}

// blackhole drops the first `until` data packets of a flow and records
// when each data packet was offered.
type blackhole struct {
	netsim.FIFO
	flow  uint64
	until int
	sent  []netsim.Time
}

func (q *blackhole) Enqueue(p *netsim.Packet, now netsim.Time) bool {
	if p.Flow == q.flow && p.Flags&netsim.FlagACK == 0 {
		q.sent = append(q.sent, now)
		if len(q.sent) <= q.until {
			return false
		}
	}
	return q.FIFO.Enqueue(p, now)
}
