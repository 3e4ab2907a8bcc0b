package mixed

import "syncsim/experiments"

// Register adds the mixed family's experiments to r: mixed-fabric.
func Register(r *experiments.Registry) {
	r.Register(MixedFabric())
}
