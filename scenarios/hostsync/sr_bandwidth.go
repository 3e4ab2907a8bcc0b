package hostsync

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/workloads/syncctl"
	"syncsim/workloads/training"
)

// srBandwidths is the run's bandwidths: b_i from the law of Sec. IV-A
// (lambda) on the stream "training/bandwidth", static, redrawn or walking
// (bw_model, bw_period_s, bw_walk_step), or following the measured
// per-worker series in bw_trace_file (bw_model=trace: rows time_s, worker,
// gbps override the law's draw from their time on). Epoch 0 is the one
// draw of the static model, so every model starts from the same
// bandwidths. It returns the bandwidths at time 0 (Gbps) and the schedule
// (nil when static).
func srBandwidths(sim *netsim.Sim, ps experiments.Params, n int) ([]float64, syncctl.BandwidthSchedule, error) {
	model, err := training.ParseBWModel(ps.String("bw_model"))
	if err != nil {
		return nil, nil, err
	}
	law := training.BandwidthLaw{Lambda: ps.Float("lambda")}
	if model == training.BWFromTrace {
		bwp, err := training.NewBWProcess(sim.Rand("training/bandwidth"), n, training.BWProcessConfig{Law: law, Model: training.BWStatic})
		if err != nil {
			return nil, nil, err
		}
		rows, err := srTraceRows(ps, n)
		if err != nil {
			return nil, nil, err
		}
		tr, err := training.NewBWTrace(bwp.Epoch(0), rows)
		if err != nil {
			return nil, nil, err
		}
		return tr.Epoch(0), syncctl.Trace(tr), nil
	}
	bwp, err := training.NewBWProcess(sim.Rand("training/bandwidth"), n, training.BWProcessConfig{
		Law:    law,
		Model:  model,
		Period: ps.Float("bw_period_s"),
		Step:   ps.Float("bw_walk_step"),
	})
	if err != nil {
		return nil, nil, err
	}
	if bwp.Period() == 0 {
		return bwp.Epoch(0), nil, nil
	}
	return bwp.Epoch(0), syncctl.Process(bwp), nil
}

// srTraceRows reads bw_trace_file for n workers.
func srTraceRows(ps experiments.Params, n int) ([]training.SeriesRow, error) {
	name := ps.Str("bw_trace_file")
	if name == "" {
		return nil, fmt.Errorf("bw_model=trace needs bw_trace_file (CSV rows time_s,worker,gbps)")
	}
	rows, err := training.ReadSeriesFile(name, 1, n)
	if err != nil {
		return nil, fmt.Errorf("bw_trace_file: %w", err)
	}
	if err := training.CheckRates(name, rows, 1, 1e9, "Gbps"); err != nil {
		return nil, fmt.Errorf("bw_trace_file: %w", err)
	}
	return rows, nil
}
