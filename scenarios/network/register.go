package network

import "syncsim/experiments"

// Register adds the network family's experiments to r: incast,
// background and permutation.
func Register(r *experiments.Registry) {
	r.Register(Incast(), Background(), Permutation())
}
