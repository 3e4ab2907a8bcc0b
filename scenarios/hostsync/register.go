package hostsync

import "syncsim/experiments"

// Register adds the host-synchronisation family's experiments to r:
// sr-example and sr-cluster.
func Register(r *experiments.Registry) {
	r.Register(SRExample(), SRCluster())
}
