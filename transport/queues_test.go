package transport

import (
	"testing"

	"syncsim/netsim"
)

// TestQueuesAgree runs 20 ms of the incast scenario on both event queues:
// the same events fire in the same order, so every counter agrees.
func TestQueuesAgree(t *testing.T) {
	a, fa := incast8()
	b, fb := incast8(netsim.WithBtreeQueue())
	a.sim.Run(20 * netsim.Millisecond)
	b.sim.Run(20 * netsim.Millisecond)
	if a.sim.Events() != b.sim.Events() || a.bottle.TxPackets != b.bottle.TxPackets {
		t.Fatalf("heap: %d events, %d packets; B-tree: %d events, %d packets",
			a.sim.Events(), a.bottle.TxPackets, b.sim.Events(), b.bottle.TxPackets)
	}
	for i := range fa {
		if fa[i].Delivered() != fb[i].Delivered() || fa[i].Cwnd() != fb[i].Cwnd() {
			t.Fatalf("flow %d: delivered %d / %d, cwnd %d / %d", i, fa[i].Delivered(), fb[i].Delivered(), fa[i].Cwnd(), fb[i].Cwnd())
		}
	}
}
