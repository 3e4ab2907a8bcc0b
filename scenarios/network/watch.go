package network

import (
	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/transport"
)

// watchFlows tells the harness that the payload the flows deliver is the
// run's progress, up to the simulated time end; flows of size bytes (0:
// long-lived) are done once all have finished, and quiet is how long, in
// simulated seconds, they may wait on purpose (retransmission timeouts).
func watchFlows(r *experiments.Run, flows []*transport.Flow, size netsim.Bytes, end netsim.Time, quiet float64) {
	w := experiments.Watch{
		What:  "payload delivered by the flows",
		Until: end.Seconds(),
		Quiet: quiet,
		Count: func() float64 {
			var b netsim.Bytes
			for _, f := range flows {
				b += f.Delivered()
			}
			return float64(b)
		},
	}
	if size > 0 {
		w.Goal = float64(size) * float64(len(flows))
		w.Done = func() bool {
			for _, f := range flows {
				if !f.Done() {
					return false
				}
			}
			return true
		}
	}
	r.Watch(w)
}
