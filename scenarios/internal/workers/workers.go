// Package workers holds the parameters of heterogeneous workers that the
// host-synchronisation experiments share (sr-cluster, crew-training,
// dssync): kinds of accelerator with relative speeds, per-worker compute
// multipliers from a file, and persistent stragglers. The mechanism is
// training.Heterogeneity; this package reads it from a run's parameters.
package workers

import (
	"fmt"
	"strings"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/workloads/training"
)

// Stream is the random stream that deals workers to classes and picks the
// stragglers: the same seed gives every scheme the same workers.
const Stream = "training/workers"

// Params are the heterogeneity parameters.
func Params() []experiments.Param {
	return []experiments.Param{
		experiments.TextParam("worker_classes", "", "kinds of accelerator as name:share[:speed] joined by '+', speed relative to a V100 "+
			"(built in: v100 1, p100 0.60, k80 0.14 from Gavel's ResNet-50 throughputs, a100 2.56 from NVIDIA's ResNet-50 examples), "+
			"e.g. v100:0.5+k80:0.5 or v100:0.5+t4:0.5:0.3; a worker computes 1/speed times the trace's (a V100's) time; empty: all alike"),
		experiments.TextParam("worker_multipliers_file", "", "a file of per-worker compute multipliers, one per line in worker order (overrides worker_classes)"),
		experiments.IntParam("stragglers", 0, 0, 1<<20, "persistent stragglers: workers, chosen at random, that compute straggler_slowdown times longer in every iteration"),
		experiments.FloatParam("straggler_slowdown", 4, 1, 1e4, "how many times longer a straggler computes").OnlyWhenPositive("stragglers"),
	}
}

// Read is the heterogeneity the parameters describe.
func Read(ps experiments.Params) (training.Heterogeneity, error) {
	h, _, err := read(ps)
	return h, err
}

// read is Read with the lines of worker_multipliers_file's values.
func read(ps experiments.Params) (training.Heterogeneity, []int, error) {
	var h training.Heterogeneity
	var err error
	if h.Classes, err = training.ParseWorkerClasses(ps.Str("worker_classes")); err != nil {
		return h, nil, fmt.Errorf("worker_classes: %w", err)
	}
	var lines []int
	if f := strings.TrimSpace(ps.Str("worker_multipliers_file")); f != "" {
		m, err := training.ReadMultiplierLinesFile(f)
		if err != nil {
			return h, nil, fmt.Errorf("worker_multipliers_file: %w", err)
		}
		h.Multipliers, lines = m.Values, m.Lines
	}
	h.Stragglers, h.Slowdown = ps.Int("stragglers"), ps.Float("straggler_slowdown")
	return h, lines, nil
}

// Multipliers is each of n workers' compute multiplier for a run on sim
// (nil when the workers are alike).
func Multipliers(ps experiments.Params, sim *netsim.Sim, n int) ([]float64, error) {
	return MultipliersFrom(ps, sim, Stream, n)
}

// MultipliersFrom is Multipliers drawn from the named stream, for runs
// that hold several jobs.
func MultipliersFrom(ps experiments.Params, sim *netsim.Sim, stream string, n int) ([]float64, error) {
	h, err := Read(ps)
	if err != nil {
		return nil, err
	}
	m, err := h.WorkerMultipliers(sim.Rand(stream), n)
	if err != nil {
		return nil, fmt.Errorf("workers: %w", err)
	}
	return m, nil
}

// Validate checks the parameters for n workers (n <= 0: the count is not
// known before the run).
func Validate(ps experiments.Params, n int) error {
	h, err := Read(ps)
	if err != nil {
		return err
	}
	if n > 0 {
		if h.Multipliers != nil && len(h.Multipliers) != n {
			return fmt.Errorf("worker_multipliers_file holds %d multipliers for %d workers", len(h.Multipliers), n)
		}
		if h.Stragglers > n {
			return fmt.Errorf("stragglers = %d exceeds the %d workers", h.Stragglers, n)
		}
	}
	return nil
}
