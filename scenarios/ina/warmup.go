package ina

import "syncsim/scenarios/internal/setup"

// The background warm-ups, measured as setup's documentation says and
// shared with the other leaf-spine experiments.
const (
	warmupMs        = setup.LeafSpineWarmupMs
	testbedWarmupMs = setup.TestbedWarmupMs
)
