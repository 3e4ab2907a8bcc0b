package dssync

import (
	"fmt"

	"syncsim/netsim"
	"syncsim/workloads/collective"
	"syncsim/workloads/layers"
)

// BGFlowBytes is the size of each transfer a long-lived background flow
// re-issues as soon as the previous one arrives (Background "flows").
const BGFlowBytes = 64 * netsim.Megabyte

// bgTask is the competing task of a scenario: the bytes it delivered.
type bgTask struct {
	delivered netsim.Bytes
}

// countBulk counts the bytes a Bulk delivers.
type countBulk struct {
	inner netsim.Bulk
	task  *bgTask
}

// Send implements netsim.Bulk.
func (b *countBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	b.inner.Send(src, dst, size, opts, func() {
		b.task.delivered += size
		if done != nil {
			done()
		}
	})
}

// background starts the scenario's competing task, if it has one (Sec.
// V-A5: "another background task training the BERT model distributedly on
// two workers of 2 racks"): either a two-worker data-parallel job training
// BGModel with layer-wise ring all-reduce, computing between its
// synchronisations, or BGFlows long-lived transfers in each direction
// between its two hosts. It runs until the simulation stops. At packet
// fidelity it has its own connections. The job starts at a random offset
// within one of its compute times, so that seeds sample its phase against
// the job's.
func (r *run) background() (*bgTask, error) {
	if r.place.Background == nil {
		return nil, nil
	}
	c := r.cfg
	hosts := []netsim.NodeID{r.hostAt(r.place.Background[0]), r.hostAt(r.place.Background[1])}
	task := &bgTask{}
	bulk := r.bulk
	if r.conns != nil {
		bulk = r.stack.Persistent()
	}
	cb := &countBulk{inner: bulk, task: task}
	opts := netsim.BulkOpts{StartLatency: c.Alpha}
	switch c.Background {
	case "job":
		m := c.BGModel
		// The competing task is an ordinary DDP job: its layer table in
		// DDP's buckets, overlapping its backward pass (the earlier equal
		// pieces when the job itself is cut into equal pieces), whatever
		// the job's own overlap and buckets.
		cut := Cutting{Layers: m.DefaultLayers()}
		if c.Layers < 0 && m.Table != "" {
			t, err := layers.Builtin(m.Table)
			if err != nil {
				return nil, err
			}
			cut = Cutting{Layers: -1, Table: &t, Bucket: layers.DDP}
		}
		plan, err := PlanOf(m.Bytes(), c.BGCompute, c.BackwardFrac, cut)
		if err != nil {
			return nil, fmt.Errorf("background job: %w", err)
		}
		start := netsim.Time(r.sim.Rand("dssync/background").Int64N(int64(max(c.BGCompute, 1))))
		ring := func(ws []int, size netsim.Bytes, done func()) error {
			h := make([]netsim.NodeID, len(ws))
			for i, w := range ws {
				h[i] = hosts[w]
			}
			return collective.RingAllReduce(r.sim, cb, h, size, opts, done)
		}
		jc := JobConfig{Name: "background", Hosts: hosts, Pieces: plan.Pieces, Spread: c.Spread, Start: start}
		plan.apply(&jc, c.BGCompute, c.BackwardFrac)
		job, err := NewJob(r.sim, jc, NewGroupSync(All(2), ring))
		if err != nil {
			return nil, err
		}
		job.Start(nil)
	case "flows":
		if c.BGFlows < 1 {
			return nil, fmt.Errorf("background flows: %d, need at least 1", c.BGFlows)
		}
		for i := 0; i < c.BGFlows; i++ {
			for d := 0; d < 2; d++ {
				src, dst := hosts[d], hosts[1-d]
				var again func()
				again = func() { cb.Send(src, dst, BGFlowBytes, opts, again) }
				again()
			}
		}
	default:
		return nil, fmt.Errorf("unknown background %q (allowed: job, flows)", c.Background)
	}
	return task, nil
}
