package hostsync

import (
	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/learnrig"
	"syncsim/workloads/dssync"
)

// dssyncLearning is the learning of a dssync run (nil with
// learn_model=none): one job of the layout's workers, synchronised in the
// run's pieces, and sets cfg's recorder.
func dssyncLearning(r *experiments.Run, sim *netsim.Sim, cfg *dssync.Config) (*learnrig.Rig, error) {
	layout := cfg.Layout
	if layout == nil {
		layout = dssync.PaperLayout(cfg.Scenario)
	}
	plan, err := dssync.PlanFor(*cfg)
	if err != nil {
		return nil, err
	}
	var pieces []float64
	for _, b := range plan.Pieces {
		pieces = append(pieces, float64(b))
	}
	g, err := learnrig.New(r, sim, learnrig.Job{Workers: layout.Workers(), Pieces: pieces})
	if err != nil {
		return nil, err
	}
	cfg.Recorder = g.DSSync(cfg.Scheme)
	return g, nil
}
