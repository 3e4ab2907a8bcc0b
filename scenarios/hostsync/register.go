package hostsync

import "syncsim/experiments"

// Register adds the host-synchronisation family's experiments to r:
// sr-example, sr-cluster, dssync, crew-single and crew-training.
func Register(r *experiments.Registry) {
	r.Register(SRExample(), SRCluster(), DSSync(), CrewSingle(), CrewTraining())
}
