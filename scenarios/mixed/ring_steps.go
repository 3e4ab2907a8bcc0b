package mixed

import (
	"syncsim/netsim"
	"syncsim/workloads/collective"
)

// ringSteps is the step rule of a ring all-reduce on a partitioned
// network, shared by ring jobs (ring_partitioned.go) and partial-reduce
// groups (pr_partitioned.go): each host's share of the ring (ringHost)
// lives on its own partition, host i sends step k when its all-reduce has
// started there, its previous send completed and it holds step k - 1's
// chunk (collective.RingAllReduce's dependency rule, split by owner). A
// send's done runs on the receiver's partition; the receiver books the
// chunk and tries its own next step at once, and the sender learns of the
// completion at once on the same partition, else one lookahead later.
type ringSteps struct {
	hosts     []ringHost
	ids       []netsim.NodeID // the hosts, in ring order
	chunks    []netsim.Bytes
	steps     int
	lookahead netsim.Time
	books     *bulkBooks // the job's transfers
	// last runs on host h's partition when h receives its last chunk.
	last func(h *ringHost)
	// done, if set, runs on host i's partition once host i has received
	// its last chunk and started its last send: the all-reduce is over
	// as far as host i is concerned (ring_layers.go resets its share
	// then).
	done func(i int)
}

// over reports whether host h has received every chunk and started
// every send.
func (r *ringSteps) over(h *ringHost) bool { return h.recvd == r.steps && h.next == r.steps }

// reach runs f on partition to: at once when from is to, else by a
// message one lookahead later (a control message crossing a cable).
func reach(from, to *netsim.Sim, lookahead netsim.Time, f func()) {
	if from == to {
		f()
		return
	}
	from.Post(to.Partition(), from.Now()+lookahead, f)
}

// try starts host i's next step if the dependency rule allows it; it
// runs on host i's partition.
func (r *ringSteps) try(i int) {
	h := &r.hosts[i]
	k := h.next
	if !h.live || k >= r.steps || h.busy || h.recvd < k {
		return
	}
	n := len(r.hosts)
	nx := (i + 1) % n
	h.next++
	h.busy = true
	sentLast := r.done != nil && r.over(h)
	r.books.Send(r.ids[i], r.ids[nx], r.chunks[collective.RingChunk(n, i, k)], netsim.BulkOpts{}, func() {
		// On host nx's partition: it holds the chunk.
		rn := &r.hosts[nx]
		rn.recvd++
		if rn.recvd == r.steps {
			r.last(rn)
			if r.done != nil && r.over(rn) {
				r.done(nx)
			}
		}
		reach(rn.sim, h.sim, r.lookahead, func() {
			h.busy = false
			r.try(i)
		})
		r.try(nx)
	})
	if sentLast {
		r.done(i)
	}
}
