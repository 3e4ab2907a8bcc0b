package inarig

import (
	"fmt"
	"math"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/setup"
)

// MeanIteration is the mean of the iteration times ts from index skip on
// (PA-ATP Sec. V-A: "the average iteration time of model training", less
// the first skip iterations, which run while the windows leave their
// initial values). A skip that would leave nothing is lowered to keep the
// last iteration; no iterations give 0.
func MeanIteration(ts []netsim.Time, skip int) netsim.Time {
	if len(ts) == 0 {
		return 0
	}
	skip = max(0, min(skip, len(ts)-1))
	var sum netsim.Time
	for _, t := range ts[skip:] {
		sum += t
	}
	return sum / netsim.Time(len(ts)-skip)
}

// Fill writes the common metrics into res and, when the run asks for it,
// checks the books: every finished job's sums, aggregator leaks and packet
// conservation. Every job metric starts at the job's start, after the
// background's warm-up: iteration times from the job's start, aggregation
// throughput and the tiers' utilisation from the first job start to the
// last job end (the run's end if a job did not finish).
func (g *Rig) Fill(r *experiments.Run, res *experiments.Result) error {
	if g.err != nil {
		return g.err
	}
	res.Trace = g.trace
	m := res.Metrics
	var sum, worst float64
	done := 0
	var end netsim.Time
	var reduced, atSwitch, atPS float64
	var retx, tos, ovfSeqs, collSeqs, exhSeqs uint64
	var bound float64
	for _, j := range g.Jobs {
		if j.Done() {
			done++
			a := MeanIteration(j.IterationTimes(), g.Skip).Seconds() * 1e3
			sum += a
			worst = math.Max(worst, a)
			if j.DoneAt() > end {
				end = j.DoneAt()
			}
		}
		st := j.TotalWorkerStats()
		reduced += float64(st.Results) * float64(j.PayloadBytes())
		retx += st.Retransmits
		tos += st.Timeouts
		sw := j.SwitchStats()
		ovfSeqs += sw.OverflowSequences
		collSeqs += sw.CollisionSequences
		exhSeqs += sw.ExhaustionSequences
		bound += j.AWDBoundFrac()
		atSwitch += j.SwitchAggregatedBytes()
		atPS += j.PSAggregatedBytes()
	}
	if done > 0 {
		m["ajct_done_ms"] = sum / float64(done)
		if g.BaseRTT > 0 {
			m["iter_rtts"] = sum / float64(done) / (g.BaseRTT.Seconds() * 1e3)
		}
	}
	if done < len(g.Jobs) {
		end = g.Sim.Now()
	} else if len(g.Jobs) > 0 {
		m["ajct_ms"] = sum / float64(len(g.Jobs))
		m["jct_max_ms"] = worst
	}
	m["jobs_done"] = float64(done)
	m["agg_tput_gbps"] = setup.Gbps(reduced, end-max(g.first, 0))
	if g.up != nil && g.Sim.Now() == end {
		m["uplink_util"] = g.up.Util(end)
		m["downlink_util"] = g.down.Util(end)
	} else if g.up != nil && g.Partitioned() {
		// The run stopped at the barrier after the last job's end.
		m["uplink_util"] = g.up.Util(g.Sim.Now())
		m["downlink_util"] = g.down.Util(g.Sim.Now())
	}
	if atSwitch+atPS > 0 {
		m["switch_agg_frac"] = atSwitch / (atSwitch + atPS)
	}
	m["retransmits"] = float64(retx)
	m["worker_timeouts"] = float64(tos)
	var over, aecn uint64
	var peak, occ, occMax float64
	for _, a := range g.Aggs {
		over += a.Stats.Collisions + a.Stats.PassedForwarded + a.Stats.RetxForwarded
		aecn += a.Stats.AECNMarked
		if n := a.Memory().Size(); n > 0 {
			peak = math.Max(peak, float64(a.Memory().Peak())/float64(n))
		}
		occ = math.Max(occ, a.MeanOccupancyFrac())
		occMax = math.Max(occMax, a.PeakOccupancyFrac())
	}
	m["overflow_pkts"] = float64(over)
	m["overflow_seqs"] = float64(ovfSeqs)
	m["collision_seqs"] = float64(collSeqs)
	m["exhaustion_seqs"] = float64(exhSeqs)
	if len(g.Jobs) > 0 {
		m["awd_bound_frac"] = bound / float64(len(g.Jobs))
	}
	m["aecn_marks"] = float64(aecn)
	if len(g.Aggs) > 0 {
		m["agg_mem_peak_frac"] = peak
		m["agg_occ_mean_frac"] = occ
		m["agg_occ_max_frac"] = occMax
	}
	d, _ := setup.QueueTotals(g.Fab.SwitchQueues())
	nic, _ := setup.QueueTotals(g.Fab.HostQueues())
	m["drops"] = float64(d + nic)
	g.fillDrops(m)
	m["events"] = float64(g.Sim.Events())
	res.Events = g.Sim.Events()
	if g.series != nil {
		res.Series = append(res.Series, g.series.Series())
	}
	g.addSeries(res)
	return g.Check(r)
}

// Check runs the books when r.Check is set.
func (g *Rig) Check(r *experiments.Run) error {
	if !r.Check {
		return nil
	}
	for _, j := range g.Jobs {
		if !j.Done() {
			continue
		}
		if err := j.Check(); err != nil {
			return fmt.Errorf("%s: job %d: %w", r.Exp.Name, j.ID(), err)
		}
	}
	for _, a := range g.Aggs {
		if err := a.CheckLeaks(); err != nil {
			return fmt.Errorf("%s: switch %s: %w", r.Exp.Name, a.Switch().Name(), err)
		}
	}
	RecordBooks(r, g.Jobs, g.Aggs)
	return setup.CheckBooks(r, g.Net)
}
