package mixed

import (
	"fmt"

	"syncsim/netsim"
	"syncsim/workloads/collective"
)

// A ring job on a partitioned network (the parallel engine,
// engine=partitioned). Its hosts may lie in different partitions, which
// run concurrently inside windows of one lookahead, so the ring's state is
// kept per host and touched only on the host's own partition:
//
//   - host i's next step and whether its send is in flight are i's;
//     the steps it has received are i's (collective.RingAllReduce's
//     dependency rule on the same books, split by owner);
//   - a send's done runs on the receiver's partition, when the receiver
//     holds the chunk (transport.Persistent). The receiver books the
//     chunk and tries its own next step at once, as in the sequential
//     model; the sender learns that its send completed at once when it
//     shares the receiver's partition, else by a message
//     (netsim.Sim.Post) one lookahead later, a credit crossing a cable;
//   - the iteration's end (every host received its last chunk) is folded
//     at the barrier after it from the hosts' own finish times: it ends at
//     the latest of them, which is what the sequential model books. The
//     next iteration's compute starts then, so its all-reduce starts at
//     that end plus the compute time, exactly as in the sequential model
//     when the compute time is at least one lookahead, and at the barrier
//     (at most one lookahead late) otherwise. The job's end, its "jobs
//     left" count and the run's stop are booked at that barrier too.

// ringHost is one host's share of a partitioned ring's state.
type ringHost struct {
	sim   *netsim.Sim // the host's partition
	next  int         // next step the host sends
	recvd int         // steps whose chunk the host received
	end   netsim.Time // when it received its last chunk (recvd == steps)
	live  bool        // this iteration's all-reduce has started here
	busy  bool        // the host's send is in flight (as far as it knows)
	_     [30]byte    // a cache line each: hosts on different cores
}

// partRing drives a ring job's iterations on a partitioned network.
type partRing struct {
	ringSteps
	job     *mixedRingJob
	root    *netsim.Sim // the coordinator
	running bool        // an iteration's all-reduce is under way
}

// newPartRing sets up job's ring on the partitioned network net and
// registers its barrier hook.
func newPartRing(job *mixedRingJob, net *netsim.Network) (*partRing, error) {
	n := len(job.hosts)
	if n < 2 {
		return nil, fmt.Errorf("ring all-reduce over %d hosts", n)
	}
	r := &partRing{job: job, root: net.Sim}
	r.ringSteps = ringSteps{hosts: make([]ringHost, n), ids: job.hosts, chunks: collective.EqualChunks(job.size, n),
		steps: 2 * (n - 1), lookahead: net.Sim.Lookahead(), books: &job.bulkBooks,
		last: func(h *ringHost) { h.end = h.sim.Now() }}
	for i, id := range job.hosts {
		r.hosts[i].sim = net.Node(id).Base().Sim()
	}
	net.Sim.OnBarrier(r.fold)
	return r, nil
}

// begin starts an iteration whose compute begins at at (outside a
// window): every host's all-reduce starts at at plus the compute time.
func (r *partRing) begin(at netsim.Time) {
	r.job.begun = at
	r.running = true
	for i := range r.hosts {
		h := &r.hosts[i]
		h.live, h.next, h.recvd, h.end = false, 0, 0, 0
		h.sim.Post(h.sim.Partition(), at+r.job.compute, func() {
			h.live = true
			r.try(i)
		})
	}
}

// fold runs at every barrier: when every host has received its last
// chunk, the iteration ended at the latest of their times; the next one
// begins then (its all-reduce no earlier than the next window), or the
// job is done.
func (r *partRing) fold() {
	if !r.running {
		return
	}
	end := netsim.Time(0)
	for i := range r.hosts {
		h := &r.hosts[i]
		if h.recvd < r.steps {
			return
		}
		end = max(end, h.end)
	}
	r.running = false
	j := r.job
	j.times = append(j.times, end-j.begun)
	if len(j.times) < j.iters {
		// Every partition's clock is at most the coordinator's: the
		// all-reduce starts in the next window at the earliest.
		r.begin(max(end, r.root.Now()+1-j.compute))
		j.begun = end
		return
	}
	j.doneAt = end
	j.onDone()
}
