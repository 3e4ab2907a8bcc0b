package topologies

import (
	"testing"

	"syncsim/netsim"
	"syncsim/switchmodel"
)

// TestWANWith: access cables carry headroom times the sum of the site's
// WAN rates (up: outgoing, down: incoming); each WAN port gets its pair's
// queue configuration; headroom below 1 and invalid queues are errors.
func TestWANWith(t *testing.T) {
	rates := [][]netsim.Rate{{0, 1, 2}, {3, 0, 4}, {5, 6, 0}}
	for i := range rates {
		for j := range rates[i] {
			rates[i][j] *= netsim.Gbps
		}
	}
	net := newNet(1)
	f, err := WANWith(net, rates, uniformDelays(3, 0), q0, WANOptions{AccessHeadroom: 2,
		PairQueue: func(i, j int) switchmodel.QueueConfig {
			return switchmodel.QueueConfig{Buffer: netsim.Bytes(1000 * (10*i + j + 1))}
		}})
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
	for i := range rates {
		for j := range rates {
			if i == j {
				continue
			}
			if q := f.QueueBetween(f.Edge[i].ID(), f.Edge[j].ID()); q == nil || q.Config().Buffer != netsim.Bytes(1000*(10*i+j+1)) {
				t.Errorf("queue %d->%d: %v", i, j, q)
			}
		}
	}
	if _, err := WANWith(newNet(1), rates, uniformDelays(3, 0), q0, WANOptions{AccessHeadroom: 0.5}); err == nil {
		t.Error("headroom 0.5 accepted")
	}
	bad := WANOptions{PairQueue: func(i, j int) switchmodel.QueueConfig { return switchmodel.QueueConfig{Buffer: -1} }}
	if _, err := WANWith(newNet(1), rates, uniformDelays(3, 0), q0, bad); err == nil {
		t.Error("invalid pair queue accepted")
	}
}
