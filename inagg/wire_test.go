package inagg

import (
	"testing"

	"syncsim/netsim"
)

// TestWireBytes checks the bytes on the wire exactly: each worker sends P
// gradient packets of 62 B header + payload (the gradient split in 248 B
// payloads, the last one the remainder), and receives one result per
// sequence of the same size as a gradient and, under the asynchronous
// protocols, one 62 B GACK per gradient the switch took without completing
// its aggregate (Sec. IV): (W - 1) P GACKs over the W workers, each worker
// as many as P less the sequences it completed (GACKOnComplete: W P, one
// per gradient, Sec. III-B1). The PS link carries one aggregate and one
// result per sequence.
func TestWireBytes(t *testing.T) {
	const g = 100*INAPayloadBytes + 17 // 101 packets, the last with 17 B
	for _, tc := range []struct {
		proto    Protocol
		gacks    bool
		complete bool // GACKOnComplete
	}{{PAATP, true, false}, {PAATP, true, true}, {ATP, false, false}, {StrawAsyn, true, false}, {StrawAsyn, true, true}} {
		name := tc.proto.String()
		if tc.complete {
			name += "/gack-on-complete"
		}
		t.Run(name, func(t *testing.T) {
			ac := DefaultAggregatorConfig()
			ac.GACKOnComplete = tc.complete
			s := newStar(t, starCfg{workers: 3, agg: ac})
			j := s.job(t, JobConfig{ID: 0, Protocol: tc.proto, Gradient: g, Iterations: 1})
			s.net.Sim.Run(netsim.Second)
			checkAll(t, s, j)
			p := j.PacketsPerIteration()
			if p != 101 {
				t.Fatalf("P = %d, want 101", p)
			}
			if s.agg.Stats.Collisions != 0 {
				t.Skip("hash collision: the byte count below assumes none")
			}
			data := netsim.Bytes(p)*INAHeaderBytes + g
			var gacks int64
			for i, h := range s.workers {
				if got := netsim.Bytes(h.NIC().TxBytes); got != data {
					t.Errorf("worker %d sent %d B, want %d", i, got, data)
				}
				n := int64(j.WorkerStats(i).GACKs)
				gacks += n
				want := data + netsim.Bytes(n)*INAHeaderBytes // results and GACKs
				if got := netsim.Bytes(s.sw.PortTo(h.ID()).TxBytes); got != want {
					t.Errorf("worker %d received %d B, want %d (%d GACKs)", i, got, want, n)
				}
			}
			want := int64(0)
			switch {
			case tc.gacks && tc.complete:
				want = 3 * p
			case tc.gacks:
				want = 2 * p
			}
			if gacks != want || int64(s.agg.Stats.GACKs) != want {
				t.Errorf("workers received %d GACKs, the switch sent %d; want %d", gacks, s.agg.Stats.GACKs, want)
			}
			if got := netsim.Bytes(s.sw.PortTo(s.ps.ID()).TxBytes); got != data {
				t.Errorf("PS received %d B, want %d (one aggregate per sequence)", got, data)
			}
			if got := netsim.Bytes(s.ps.NIC().TxBytes); got != data {
				t.Errorf("PS sent %d B, want %d (one result per sequence)", got, data)
			}
		})
	}
}
