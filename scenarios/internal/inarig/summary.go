package inarig

import (
	"math"
	"slices"

	"syncsim/experiments"
)

// SummaryColumns are the columns of the job_summary series, one row per
// job (see JobsSeriesDoc).
var SummaryColumns = []string{
	"job", "protocol", "model", "workers", "ps_leaf",
	"mean_iter_ms", "iterations_done", "done",
	"retransmits", "timeouts", "overflow", "aecn_marks", "ecn_cuts", "awd_cuts",
	"mean_cwd", "awd_bound_frac", "agg_held_mean", "agg_held_max",
	"collision_seqs", "exhaustion_seqs", "resend_seqs", "self_collisions",
	"pulls", "drops",
}

// modelCode is the index of model in ModelChoices (NaN if unknown).
func modelCode(model string) float64 {
	if i := slices.Index(ModelChoices(), model); i >= 0 {
		return float64(i)
	}
	return math.NaN()
}

// summary is the job_summary series: one row per job, in the order the
// jobs were added, from the jobs' counters at the end of the run and the
// sampler's window rows.
func (g *Rig) summary(s *jobSampler) experiments.Series {
	rows := make([][]float64, 0, len(s.probes))
	for _, p := range s.probes {
		j := p.job
		model, ok := g.diag.models[j.ID()]
		if !ok && g.run.Params.Has("model") {
			model = g.run.Params.String("model")
		}
		leaf := math.NaN()
		if g.Fab != nil {
			leaf = float64(g.Fab.GroupOf(j.PSHost().ID()))
		}
		iter := math.NaN()
		if j.IterationsDone() > 0 {
			iter = MeanIteration(j.IterationTimes(), g.Skip).Seconds() * 1e3
		}
		done := 0.0
		if j.Done() {
			done = 1
		}
		var cuts uint64
		for w := 0; w < j.Workers(); w++ {
			cuts += j.Window(w).CWDCuts
		}
		cwd := math.NaN()
		if p.cwdN > 0 {
			cwd = p.cwdSum / float64(p.cwdN)
		}
		st, sw := j.TotalWorkerStats(), j.SwitchStats()
		drops := math.NaN()
		if g.drops != nil {
			drops = float64(g.drops.jobDrops(p.idx))
		}
		heldMean, heldMax, _ := j.AggregatorsHeld()
		rows = append(rows, []float64{
			float64(j.ID()), float64(j.Protocol()), modelCode(model), float64(j.Workers()), leaf,
			iter, float64(j.IterationsDone()), done,
			float64(st.Retransmits), float64(st.Timeouts), float64(sw.Overflowed), float64(sw.AECNMarked),
			float64(cuts), float64(j.AWDCuts()), cwd, j.AWDBoundFrac(), heldMean, float64(heldMax),
			float64(sw.CollisionSequences), float64(sw.ExhaustionSequences), float64(sw.ResendSequences), float64(sw.SelfCollisions),
			float64(st.Pulls), drops,
		})
	}
	return experiments.Series{Name: "job_summary", Columns: SummaryColumns, Rows: rows}
}
