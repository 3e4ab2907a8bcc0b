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
	j      *prJob
	hosts  []ringHost
	ids    []netsim.NodeID
	chunks []netsim.Bytes
	steps  int
	left   int // hosts yet to report their last chunk (the controller's)
	done   func()
}

// startGroup starts the ring all-reduce of group (worker indices, in the
// controller's order) from the controller's partition; done runs there
// when every host holds its last chunk and has told the controller.
func (j *prJob) startGroup(group []int, done func()) {
	n := len(group)
	if n == 1 {
		j.sim.AfterFunc(0, done)
		return
	}
	r := &groupRing{j: j, hosts: make([]ringHost, n), ids: make([]netsim.NodeID, n),
		chunks: collective.EqualChunks(netsim.Bytes(math.Round(j.cluster.Config().ModelBytes)), n), steps: 2 * (n - 1), left: n, done: done}
	for i, w := range group {
		r.ids[i] = j.hosts[w]
		r.hosts[i].sim = j.net.Node(r.ids[i]).Base().Sim()
	}
	for i := range r.hosts {
		h := &r.hosts[i]
		j.reach(j.sim, h.sim, func() {
			h.live = true
			r.try(i)
		})
	}
}

// reach runs f on partition to: at once when from is to, else by a
// message one lookahead later.
func (j *prJob) reach(from, to *netsim.Sim, f func()) {
	if from == to {
		f()
		return
	}
	from.Post(to.Partition(), from.Now()+j.lookahead, f)
}

// try starts host i's next step if the dependency rule allows it (on
// host i's partition).
func (r *groupRing) try(i int) {
	h := &r.hosts[i]
	k := h.next
	if !h.live || k >= r.steps || h.busy || h.recvd < k {
		return
	}
	n := len(r.hosts)
	nx := (i + 1) % n
	h.next++
	h.busy = true
	r.j.Send(r.ids[i], r.ids[nx], r.chunks[collective.RingChunk(n, i, k)], netsim.BulkOpts{}, func() {
		// On host nx's partition: it holds the chunk.
		rn := &r.hosts[nx]
		rn.recvd++
		if rn.recvd == r.steps {
			r.j.reach(rn.sim, r.j.sim, func() {
				if r.left--; r.left == 0 {
					r.done()
				}
			})
		}
		r.j.reach(rn.sim, h.sim, func() {
			h.busy = false
			r.try(i)
		})
		r.try(nx)
	})
}

// foldDone counts the job's end in the run at the barrier after it.
func (j *prJob) foldDone() {
	if j.done && !j.counted {
		j.counted = true
		j.onDone()
	}
}

var _ syncctl.Executor = (*prJob)(nil)
