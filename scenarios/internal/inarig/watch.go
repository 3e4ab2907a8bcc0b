package inarig

import (
	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/netsim"
)

// watch tells the harness that results reaching the workers are the
// run's progress: the goal is every worker's every result, and a job may
// go quiet for its compute phase and a backed-off retransmission timeout,
// and before it starts, for the background's warm-up.
func (g *Rig) watch(horizon netsim.Time) {
	p := g.Params
	quiet := 2*(p.MaxRTO+p.SwitchMLLongestWait()) + max(g.first, 0)
	if g.run.Params.Has("compute_ms") {
		quiet += netsim.FromMillis(g.run.Params.Float("compute_ms"))
	}
	WatchJobs(g.run, g.Jobs, g.goal, horizon, quiet)
}

// WatchJobs declares the results the INA jobs' workers receive as the
// progress of run r (goal of them in all), which ends by horizon; quiet
// is how long a job may wait without a result by design.
func WatchJobs(r *experiments.Run, jobs []*inagg.Job, goal float64, horizon, quiet netsim.Time) {
	r.Watch(experiments.Watch{
		What:  "results received by the INA workers",
		Goal:  goal,
		Until: horizon.Seconds(),
		Quiet: quiet.Seconds(),
		Count: func() float64 {
			var n uint64
			for _, j := range jobs {
				n += j.TotalWorkerStats().Results
			}
			return float64(n)
		},
	})
}

// RecordBooks records the books Check verified for finished jobs and
// aggregators: every worker's results, the contributions summed at
// switches and parameter servers, and aggregators left held.
func RecordBooks(r *experiments.Run, jobs []*inagg.Job, aggs []*inagg.Aggregator) {
	var want, results, sw, ps float64
	for _, j := range jobs {
		if !j.Done() {
			continue
		}
		n := float64(j.Workers()) * float64(j.PacketsPerIteration()) * float64(j.IterationsDone())
		want += n
		results += float64(j.TotalWorkerStats().Results)
		st := j.Stats()
		sw += float64(st.SwitchContributions)
		ps += float64(st.PSContributions)
	}
	r.Book(experiments.Book{Name: "aggregation", Rule: "switch + ps = workers x packets x iterations = results", Terms: []experiments.Term{
		{Name: "switch", Value: sw}, {Name: "ps", Value: ps}, {Name: "workers_x_packets_x_iterations", Value: want}, {Name: "results", Value: results},
	}})
	var leaked float64
	for _, a := range aggs {
		if a != nil {
			leaked += float64(a.Stats.Leaked)
		}
	}
	r.Book(experiments.Book{Name: "aggregators", Rule: "held after their jobs = 0", Terms: []experiments.Term{{Name: "held", Value: leaked}}})
}
