package mixed

import (
	"fmt"
	"math"

	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/netsim"
	"syncsim/scenarios/internal/inarig"
	"syncsim/scenarios/internal/layerfile"
	"syncsim/scenarios/internal/setup"
	"syncsim/scenarios/internal/workers"
	"syncsim/workloads/training"
)

// validateMixedFabric checks a point without building it: there are jobs,
// the fabric has hosts for them, and idle hosts enough for background
// traffic when it is confined to them.
func validateMixedFabric(ps experiments.Params) error {
	if err := setup.ValidateFlowsFile(ps); err != nil {
		return err
	}
	if err := validateEngine(ps); err != nil {
		return err
	}
	if err := inarig.ValidateJobParams(ps); err != nil {
		return err
	}
	if ps.Int("ina_jobs")+ps.Int("ring_jobs")+ps.Int("pr_jobs") == 0 {
		return fmt.Errorf("no jobs (ina_jobs=0, ring_jobs=0 and pr_jobs=0); the run ends when the jobs do")
	}
	if err := setup.ValidateFabric(ps); err != nil {
		return err
	}
	shape, err := setup.ShapeOf(ps)
	if err != nil {
		return err
	}
	hosts := int64(shape.Hosts)
	need := mixedDemand(ps)
	if need > hosts {
		return fmt.Errorf("jobs need %d hosts (ina_jobs x (workers+1) + ring_jobs x ring_workers + pr_jobs x pr_workers) "+
			"but the fabric has %d", need, hosts)
	}
	if ps.Int("ring_jobs") > 0 {
		// The ring jobs' own layer table is refused before anything runs.
		if _, _, err := layerfile.Load(ps); err != nil {
			return err
		}
	}
	if ps.Int("pr_jobs") > 0 {
		if err := checkPRP(ps.String("pr_scheme"), ps.Int("pr_p"), ps.Int("pr_workers")); err != nil {
			return err
		}
		if ps.Int("pr_slow_nics") > ps.Int("pr_workers") {
			return fmt.Errorf("pr_slow_nics = %d exceeds pr_workers = %d", ps.Int("pr_slow_nics"), ps.Int("pr_workers"))
		}
		if err := workers.Validate(ps, ps.Int("pr_workers")); err != nil {
			return err
		}
		c, s := ps.Float("pr_compute_ms")/1e3, ps.Float("pr_compute_spread")
		if err := workers.CheckCompute(ps, training.Constant{T: c * (1 + s)}, fmt.Sprintf("pr_compute_ms = %g", ps.Float("pr_compute_ms"))); err != nil {
			return err
		}
	}
	if ps.Float("load") > 0 && ps.String("bg_hosts") != "all" && hosts-need < 2 {
		return fmt.Errorf("bg_hosts=%s leaves %d background hosts; need at least 2 (use a larger fabric or bg_hosts=all)",
			ps.String("bg_hosts"), hosts-need)
	}
	return nil
}

// watch tells the harness that INA results and completed ring transfers
// are the run's progress. A job may go quiet for its compute phase, a
// backed-off timeout, or the longest single ring transfer at host rate
// (a ring job's compute is its layer table's, which model_file may make
// longer than compute_ms).
func (rig *mixedRig) watch(r *experiments.Run, limit netsim.Time) {
	ps := r.Params
	p := inarig.JobParams(ps)
	quiet := netsim.FromMillis(ps.Float("compute_ms")) + 2*(p.MaxRTO+p.SwitchMLLongestWait())
	var ringCompute netsim.Time // a ring job's own compute (its layer table's)
	for _, j := range rig.rings {
		ringCompute = max(ringCompute, j.compute)
	}
	quiet += ringCompute
	if n := ps.Int("ring_workers"); rig.rings != nil && n > 0 {
		bytes := math.Round(ps.Float("ring_mb") * float64(netsim.Megabyte) / float64(n))
		quiet += netsim.FromSeconds(8 * bytes / (ps.Float("host_gbps") * 1e9))
	}
	if len(rig.prs) > 0 {
		// A partial-reduce group waits for its slowest worker's compute.
		slow := 1.0
		if ps.Int("stragglers") > 0 {
			slow = ps.Float("straggler_slowdown")
		}
		quiet += netsim.FromMillis(4 * slow * ps.Float("pr_compute_ms"))
		// Its progress is counted when a group's whole all-reduce ends: at
		// most about 2v over the slowest NIC (Eq. 2's bandwidth term).
		nic := ps.Float("host_gbps")
		if ps.Int("pr_slow_nics") > 0 {
			nic = min(nic, ps.Float("pr_slow_nic_gbps"))
		}
		quiet += netsim.FromSeconds(2 * 8 * ps.Float("pr_mb") * 1e6 / (nic * 1e9))
	}
	// Every INA worker receives every result; a ring all-reduce over n
	// hosts moves n transfers in each of its 2(n-1) steps.
	iters := float64(ps.Int("iterations"))
	var goal float64
	for _, j := range rig.ina {
		goal += float64(j.Workers()) * float64(j.PacketsPerIteration()) * iters
	}
	for _, j := range rig.rings {
		n, rings := float64(len(j.hosts)), 1.0
		if j.lay != nil {
			rings = float64(len(j.lay.buckets)) // an all-reduce per bucket
		}
		goal += 2 * n * (n - 1) * iters * rings
	}
	for _, j := range rig.prs {
		goal += float64(j.target)
	}
	r.Watch(experiments.Watch{
		What:  "INA results and ring transfers completed",
		Goal:  goal,
		Until: limit.Seconds(),
		Quiet: quiet.Seconds(),
		Count: func() float64 {
			var n float64
			for _, j := range rig.ina {
				n += float64(j.TotalWorkerStats().Results)
			}
			for _, j := range rig.rings {
				n += float64(j.totals().dones)
			}
			for _, j := range rig.prs {
				n += float64(j.rounds)
			}
			return n
		},
	})
}

// recordBooks records the books check verified beyond packets: the INA
// jobs' aggregation and aggregators, and the ring transfers.
func (rig *mixedRig) recordBooks(r *experiments.Run) {
	var aggs []*inagg.Aggregator
	for _, a := range rig.aggs {
		if a != nil {
			aggs = append(aggs, a)
		}
	}
	if len(rig.ina) > 0 {
		inarig.RecordBooks(r, rig.ina, aggs)
	}
	rings := make([]*bulkBooks, len(rig.rings))
	for i, j := range rig.rings {
		rings[i] = &j.bulkBooks
	}
	r.Book(transferBook("ring transfers", rings))
	if len(rig.prs) > 0 {
		prs := make([]*bulkBooks, len(rig.prs))
		for i, j := range rig.prs {
			prs[i] = &j.bulkBooks
		}
		r.Book(transferBook("partial-reduce transfers", prs))
	}
}
