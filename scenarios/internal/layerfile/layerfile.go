// Package layerfile declares the parameters that name a job's own layer
// table beside model_file (an ASTRA-sim 1.0 text workload, workload_file,
// at workload_ghz) and reads whichever a point sets, so every experiment
// that takes model_file takes workload_file the same way.
package layerfile

import (
	"syncsim/experiments"
	"syncsim/workloads/layers"
)

// File is the workload_file parameter; what says whose table it is
// ("ring jobs'", "overlap=layer: the jobs'").
func File(what string) experiments.Param {
	return experiments.TextParam("workload_file", "", what+" layer table as an ASTRA-sim 1.0 text workload (DATA parallelism: per layer "+
		"forward, input-gradient and weight-gradient cycles and the weight gradient's ALLREDUCE bytes; workloads/layers.ReadAstra), "+
		"taken as model_file takes its CSV; set one of the two")
}

// GHz is the workload_ghz parameter: workload_file's clock.
func GHz() experiments.Param {
	return experiments.FloatParam("workload_ghz", layers.DefaultWorkloadGHz, 1e-9, 1e9, "workload_file's clock, GHz: its compute "+
		"cycles last 1/workload_ghz ns each (1: ASTRA-sim's cycle of 1 ns)")
}

// Load reads the layer table a point names, model_file's or
// workload_file's (layers.LoadFile); ok is false when it names none.
func Load(ps experiments.Params) (m layers.Model, ok bool, err error) {
	text := func(name string) string {
		if !ps.Has(name) {
			return ""
		}
		return ps.Str(name)
	}
	ghz := layers.DefaultWorkloadGHz
	if ps.Has("workload_ghz") {
		ghz = ps.Float("workload_ghz")
	}
	return layers.LoadFile(text("model_file"), text("workload_file"), ghz)
}
