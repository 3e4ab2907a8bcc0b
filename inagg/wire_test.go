package inagg

import (
	"testing"

	"syncsim/netsim"
)

// TestWireBytes checks the bytes on the wire exactly: each worker sends P
// gradient packets of 62 B header + payload (the gradient split in 248 B
// payloads, the last one the remainder), and receives one 62 B GACK per
// gradient (PA-ATP) plus one result per sequence of the same size as a
// gradient. The PS link carries one aggregate and one result per sequence.
func TestWireBytes(t *testing.T) {
	const g = 100*INAPayloadBytes + 17 // 101 packets, the last with 17 B
	for _, tc := range []struct {
		proto Protocol
		gacks bool
	}{{PAATP, true}, {ATP, false}, {StrawAsyn, true}} {
		t.Run(tc.proto.String(), func(t *testing.T) {
			s := newStar(t, starCfg{workers: 3})
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
			for i, h := range s.workers {
				if got := netsim.Bytes(h.NIC().TxBytes); got != data {
					t.Errorf("worker %d sent %d B, want %d", i, got, data)
				}
				want := data // results
				if tc.gacks {
					want += netsim.Bytes(p) * INAHeaderBytes
				}
				if got := netsim.Bytes(s.sw.PortTo(h.ID()).TxBytes); got != want {
					t.Errorf("worker %d received %d B, want %d", i, got, want)
				}
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
