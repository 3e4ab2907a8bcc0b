package collective

import (
	"fmt"

	"syncsim/netsim"
)

// RingAllReduce all-reduces size bytes held by every host over the logical
// ring hosts[0] -> hosts[1] -> ... -> hosts[n-1] -> hosts[0]. The buffer
// is split into n chunks (EqualChunks: size/n bytes, the remainder spread
// one byte each over the first chunks) and the ring runs 2(n-1) steps:
// n-1 reduce-scatter steps, in which at step k host i sends chunk
// (i-k) mod n to its successor, which adds it to its own copy; then n-1
// all-gather steps, in which at step n-1+k host i sends the fully reduced
// chunk (i+1-k) mod n. Each host thus sends 2(n-1)/n of the buffer.
//
// Dependency rule: host i starts step k+1 once (a) it has received its
// predecessor's step-k chunk (the data step k+1 forwards) and (b) its own
// step-k send has completed, i.e. its done fired (one message in flight
// per host, as ring implementations post one send per step). Hosts are
// not globally synchronised between steps: a fast part of the ring runs
// ahead as far as the data dependencies allow. done is called when every
// host has received its last chunk. With one host there is nothing to
// exchange and done is called through a zero-delay event.
//
// On a network where every host's path to its successor runs at B, each
// step takes alpha + (size/n)/B and the whole takes RingAllReduceTime.
func RingAllReduce(sim *netsim.Sim, bulk netsim.Bulk, hosts []netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) error {
	if err := checkHosts("ring all-reduce", hosts); err != nil {
		return err
	}
	if size < 0 {
		return fmt.Errorf("ring all-reduce: negative size %d", size)
	}
	startRing(sim, bulk, hosts, EqualChunks(size, len(hosts)), opts, done)
	return nil
}

// WeightedRingAllReduce is RingAllReduce with the buffer split into chunks
// proportional to the weights (WeightedChunks: chunk j gets
// size*weights[j]/sum(weights) bytes, rounded to whole bytes) instead of
// equal chunks, for rings whose hosts have heterogeneous bandwidth. Steps,
// chunk rotation (RingChunk) and the dependency rule are those of
// RingAllReduce; with equal weights the two are identical. Chunk j ends
// fully reduced at host j-1, and host i sends 2S - c(i+1) - c(i+2) bytes
// to its successor (S = size, c(j) = chunk j's size, indices mod n), so
// large chunks at positions i+1 and i+2 lighten host i's outgoing link:
// the caller chooses weights accordingly. (The "weighted all reduce" of
// the selective-reduce paper, Sec. III-A, weights the reduction by the
// workers' staleness; that changes no traffic and is RingAllReduce here.)
func WeightedRingAllReduce(sim *netsim.Sim, bulk netsim.Bulk, hosts []netsim.NodeID, size netsim.Bytes, weights []float64, opts netsim.BulkOpts, done func()) error {
	if err := checkHosts("weighted ring all-reduce", hosts); err != nil {
		return err
	}
	if len(weights) != len(hosts) {
		return fmt.Errorf("weighted ring all-reduce: %d weights for %d hosts", len(weights), len(hosts))
	}
	chunks, err := WeightedChunks(size, weights)
	if err != nil {
		return fmt.Errorf("weighted ring all-reduce: %w", err)
	}
	startRing(sim, bulk, hosts, chunks, opts, done)
	return nil
}

// RingChunk is the index of the chunk host i sends at step k of a ring of
// n hosts (0 <= k < 2(n-1)); see RingAllReduce.
func RingChunk(n, i, k int) int {
	if k < n-1 {
		return ((i-k)%n + n) % n
	}
	k -= n - 1
	return ((i+1-k)%n + n) % n
}

// ring is the state of one ring all-reduce in progress.
type ring struct {
	sim    *netsim.Sim
	bulk   netsim.Bulk
	hosts  []netsim.NodeID
	chunks []netsim.Bytes
	opts   netsim.BulkOpts
	done   func()
	steps  int
	next   []int  // next step each host will send
	busy   []bool // host has a send in flight
	recvd  []int  // steps whose chunk each host has received
	left   int    // sends not yet completed
}

func startRing(sim *netsim.Sim, bulk netsim.Bulk, hosts []netsim.NodeID, chunks []netsim.Bytes, opts netsim.BulkOpts, done func()) {
	n := len(hosts)
	if n == 1 {
		finishSoon(sim, done)
		return
	}
	r := &ring{
		sim: sim, bulk: bulk, hosts: hosts, chunks: chunks, opts: opts, done: done,
		steps: 2 * (n - 1),
		next:  make([]int, n), busy: make([]bool, n), recvd: make([]int, n),
	}
	r.left = n * r.steps
	for i := range hosts {
		r.try(i)
	}
}

// try starts host i's next step if the dependency rule allows it.
func (r *ring) try(i int) {
	k := r.next[i]
	if k >= r.steps || r.busy[i] || r.recvd[i] < k {
		return
	}
	n := len(r.hosts)
	j := (i + 1) % n
	r.next[i]++
	r.busy[i] = true
	r.bulk.Send(r.hosts[i], r.hosts[j], r.chunks[RingChunk(n, i, k)], r.opts, func() {
		r.busy[i] = false
		r.recvd[j]++
		r.left--
		if r.left == 0 {
			if r.done != nil {
				r.done()
			}
			return
		}
		r.try(i)
		r.try(j)
	})
}
