package mixed

import (
	"math"

	"syncsim/netsim"
	"syncsim/workloads/collective"
	"syncsim/workloads/syncctl"
)

// A partial-reduce job on a partitioned network (engine=partitioned).
// Its syncctl cluster (the controller, the workers' compute and their
// random streams) runs whole on one partition, the partition of the job's
// first host, so the controller sees the workers' readiness in the order
// of its own events, as on the sequential engine. A group's ring
// all-reduce runs on the hosts' own partitions, as a ring job's does
// (ring_partitioned.go: each host's share of the ring on its partition, a
// sender learning of its send's completion one lookahead late across
// partitions); the controller reaches a host of another partition, and a
// host that received its last chunk reaches the controller, by a message
// one lookahead later (a control message crossing a cable), and at once
// on the controller's own partition. The job's end is booked on the
// controller's partition; its count in the run's jobs left, and the
// run's stop, at the barrier after it.

// groupRing is one group's ring all-reduce on a partitioned network.
type groupRing struct {
	ringSteps
	left int // hosts yet to report their last chunk (the controller's)
}

// startGroup starts the ring all-reduce of bytes among group (worker
// indices, in the controller's order) from the controller's partition;
// done runs there when every host holds its last chunk and has told the
// controller.
func (j *prJob) startGroup(group []int, bytes float64, done func()) {
	n := len(group)
	if n == 1 {
		j.sim.AfterFunc(0, done)
		return
	}
	r := &groupRing{left: n}
	r.ringSteps = ringSteps{hosts: make([]ringHost, n), ids: make([]netsim.NodeID, n),
		chunks: collective.EqualChunks(netsim.Bytes(math.Round(bytes)), n), steps: 2 * (n - 1),
		lookahead: j.lookahead, books: &j.bulkBooks,
		last: func(h *ringHost) {
			reach(h.sim, j.sim, j.lookahead, func() {
				if r.left--; r.left == 0 {
					done()
				}
			})
		}}
	for i, w := range group {
		r.ids[i] = j.hosts[w]
		r.hosts[i].sim = j.net.Node(r.ids[i]).Base().Sim()
	}
	for i := range r.hosts {
		h := &r.hosts[i]
		reach(j.sim, h.sim, j.lookahead, func() {
			h.live = true
			r.try(i)
		})
	}
}

// foldDone counts the job's end in the run at the barrier after it.
func (j *prJob) foldDone() {
	if j.done && !j.counted {
		j.counted = true
		j.onDone()
	}
}

var _ syncctl.Executor = (*prJob)(nil)
