package hostsync

import (
	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/workloads/training"
)

// srBandwidths is the run's bandwidth process: b_i from the law of Sec.
// IV-A (lambda) on the stream "training/bandwidth", static, redrawn or
// walking (bw_model, bw_period_s, bw_walk_step). Epoch 0 is the one draw
// of the static model, so every model starts from the same bandwidths.
func srBandwidths(sim *netsim.Sim, ps experiments.Params, n int) (*training.BWProcess, error) {
	model, err := training.ParseBWModel(ps.String("bw_model"))
	if err != nil {
		return nil, err
	}
	return training.NewBWProcess(sim.Rand("training/bandwidth"), n, training.BWProcessConfig{
		Law:    training.BandwidthLaw{Lambda: ps.Float("lambda")},
		Model:  model,
		Period: ps.Float("bw_period_s"),
		Step:   ps.Float("bw_walk_step"),
	})
}
