package ina

import "syncsim/experiments"

// Register adds the in-network aggregation family's experiments to r:
// ina-motivation, ina-basic, ina-testbed, ina-leafspine and ina-model.
func Register(r *experiments.Registry) {
	r.Register(Motivation(), Basic(), Testbed(), LeafSpine(), Model())
}
