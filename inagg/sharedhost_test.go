package inagg

import (
	"testing"

	"syncsim/netsim"
)

// TestJobsShareHosts: two jobs whose workers share hosts (and NICs) and a
// tight NIC send-queue bound. A worker held back by the other job's
// backlog must wake up by itself when the NIC drains.
func TestJobsShareHosts(t *testing.T) {
	for _, proto := range []Protocol{PAATP, ATP, SwitchML, BytePS} {
		t.Run(proto.String(), func(t *testing.T) {
			s := newStar(t, starCfg{workers: 3})
			p := DefaultParams()
			p.NICQueuePackets = 2
			a := s.job(t, JobConfig{ID: 0, Protocol: proto, Gradient: 300 * netsim.Kilobyte, Iterations: 2, Params: &p})
			b := s.job(t, JobConfig{ID: 1, Protocol: proto, Gradient: 100 * netsim.Kilobyte, Iterations: 3, Params: &p,
				Compute: func(w, k int) netsim.Time { return 3 * netsim.Microsecond }})
			s.net.Sim.Run(netsim.Second)
			checkAll(t, s, a, b)
			for _, h := range s.workers {
				if h.Unclaimed != 0 {
					t.Fatalf("host %s: %d packets for no endpoint", h.Name(), h.Unclaimed)
				}
			}
		})
	}
}
