package ina

import (
	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/inarig"
	"syncsim/scenarios/internal/learnrig"
)

// testbedLearning is the learning of ina-testbed's jobs (nil with
// learn_model=none), each of workers workers starting at start.
func testbedLearning(r *experiments.Run, g *inarig.Rig, jobs, workers int, start netsim.Time) (*learnrig.INA, error) {
	js := make([]learnrig.Job, jobs)
	for k := range js {
		js[k] = learnrig.Job{Workers: workers, Start: start}
	}
	l, err := learnrig.New(r, g.Sim, js...)
	if err != nil || l == nil {
		return nil, err
	}
	return &learnrig.INA{Rig: l}, nil
}
