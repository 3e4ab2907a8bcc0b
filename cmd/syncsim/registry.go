package main

import (
	"syncsim/experiments"
	"syncsim/scenarios/hostsync"
	"syncsim/scenarios/ina"
	"syncsim/scenarios/mixed"
	"syncsim/scenarios/network"
)

// newRegistry returns the experiments this program offers. Each scenario
// family adds its own through one explicit call, here and nowhere else:
// there is no registration at package initialisation, so what the program
// offers, and in what order it was added, is read off this function.
func newRegistry() *experiments.Registry {
	r := experiments.NewRegistry()
	network.Register(r)  // incast, background, permutation
	ina.Register(r)      // ina-motivation, ina-basic, ina-testbed, ina-leafspine, ina-model
	hostsync.Register(r) // sr-example, sr-cluster, dssync, crew-single, crew-training
	mixed.Register(r)    // mixed-fabric
	return r
}
