package learnrig

import (
	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/netsim"
)

// INA is the learning of an INA experiment's jobs (nil with
// learn_model=none): one fleet per job of workers workers, each starting
// at start.
type INA struct{ *Rig }

// Replay applies each job's schedule once the network run is over: job
// k's iteration i ends when its last worker holds every result of i
// (inagg.Job.IterationTimes, counted from the job's start).
func (g *INA) Replay(jobs []*inagg.Job) {
	if g == nil || g.Rig == nil {
		return
	}
	for k, j := range jobs {
		if k >= len(g.Fleets) {
			break
		}
		end := g.start[k]
		var ends []netsim.Time
		for _, d := range j.IterationTimes() {
			end += d
			ends = append(ends, end)
		}
		g.Iterations(k, ends)
	}
}

// Fill is Rig.Fill, for a nil INA too.
func (g *INA) Fill(r *experiments.Run, res *experiments.Result) {
	if g == nil {
		return
	}
	g.Rig.Fill(r, res)
}
