package topologies

import (
	"testing"

	"syncsim/netsim"
)

// TestWANHeadroom: access cables carry headroom times the sum of the
// site's WAN rates (up: outgoing, down: incoming); headroom below 1 is an
// error.
func TestWANHeadroom(t *testing.T) {
	rates := [][]netsim.Rate{{0, 1, 2}, {3, 0, 4}, {5, 6, 0}}
	for i := range rates {
		for j := range rates[i] {
			rates[i][j] *= netsim.Gbps
		}
	}
	net := newNet(1)
	f, err := WANHeadroom(net, rates, uniformDelays(3, 0), q0, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range f.Hosts {
		site := f.Edge[i].ID()
		var out, in netsim.Rate
		for j := range rates {
			out += rates[i][j]
			in += rates[j][i]
		}
		if up := f.LinkBetween(h.ID(), site).Rate; up != 2*out {
			t.Errorf("site %d access up %v, want %v", i, up, 2*out)
		}
		if down := f.LinkBetween(site, h.ID()).Rate; down != 2*in {
			t.Errorf("site %d access down %v, want %v", i, down, 2*in)
		}
	}
	if _, err := WANHeadroom(newNet(1), rates, uniformDelays(3, 0), q0, 0.5); err == nil {
		t.Error("headroom 0.5 accepted")
	}
}
