package hostsync

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/workloads/training"
)

// traceFile reads the compute-time trace named by trace_file, for the
// experiments whose trace=file option takes measured times.
func traceFile(ps experiments.Params) (training.Dist, error) {
	name := ps.Str("trace_file")
	if name == "" {
		return nil, fmt.Errorf("trace=file needs trace_file")
	}
	e, err := training.ReadTraceFile(name)
	if err != nil {
		return nil, fmt.Errorf("trace_file: %w", err)
	}
	return e, nil
}
