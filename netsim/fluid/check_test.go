package fluid

import (
	"strings"
	"testing"

	"syncsim/netsim"
)

// TestCheckDetectsViolations corrupts a consistent engine in the ways
// Check is meant to catch and expects an error naming the problem.
func TestCheckDetectsViolations(t *testing.T) {
	cases := []struct {
		name    string
		corrupt func(e *Engine)
		want    string
	}{
		{"over capacity", func(e *Engine) { e.slots[0].rate *= 1.5 }, "over capacity"},
		{"under-allocated (no bottleneck)", func(e *Engine) { e.slots[0].rate *= 0.5 }, "no bottleneck"},
		{"lost bytes", func(e *Engine) { e.delivered-- }, "byte conservation"},
		{"negative remaining", func(e *Engine) { e.slots[1].remaining = -1e6 }, "remaining"},
		{"dropped from a link", func(e *Engine) {
			l := e.slots[0].path[0]
			e.links[l].trs = e.links[l].trs[:0]
		}, "not listed"},
		{"lost count", func(e *Engine) { e.active++ }, "transfer books"},
		{"active list", func(e *Engine) { e.first.nextAct = nil }, "active list"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			net, hosts := star(1, 3, 10*netsim.Gbps, 0, nil)
			e := New(net, MaxMin)
			var a, b, c netsim.Time
			send(e, hosts[0], hosts[2], mb, 0, &a)
			send(e, hosts[1], hosts[2], mb, 0, &b)
			send(e, hosts[0], hosts[1], netsim.Kilobyte, 0, &c)
			net.Sim.Run(us(100)) // the small one has completed
			mustCheck(t, e)
			tc.corrupt(e)
			err := e.Check()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check() = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
