package hostsync

import "syncsim/experiments"

// Register adds the host-synchronisation family's experiments to r:
// sr-example, sr-cluster and dssync.
func Register(r *experiments.Registry) {
	r.Register(SRExample(), SRCluster(), DSSync())
}
