package collective

import (
	"fmt"

	"syncsim/netsim"
)

// ExponentialPeers is the out-peer schedule of stochastic gradient push's
// dynamic directed exponential graph with one peer per iteration (Assran
// et al., ICML 2019, the DS-Sync paper's ref. [21]; public implementation
// facebookresearch/stochastic_gradient_push, gossip_module/graph_manager.py,
// DynamicDirectedExponentialGraph._make_graph and GraphManager.get_peers):
// rank r's phone book lists r+1, r-1, r+2, r-2, r+4, ... (powers of two up
// to n-1, forward then backward, modulo n, duplicates and r itself
// dropped), and iteration t sends to entry t mod len. Every rank uses the
// same entry at once, so each iteration is a shift of the ranks; the
// result is that shift (an offset in 1..n-1). n = 8 gives 1, 7, 2, 6, 4.
func ExponentialPeers(n int) []int {
	if n < 2 {
		return nil
	}
	var offs []int
	seen := map[int]bool{0: true}
	for p := 1; p <= n-1; p *= 2 {
		for _, o := range []int{p % n, ((-p)%n + n) % n} {
			if !seen[o] {
				seen[o] = true
				offs = append(offs, o)
			}
		}
	}
	return offs
}

// GossipShift is one iteration of gossip on a shift graph: every host i
// sends size bytes (its model, or its push-sum share) to host
// (i + offset) mod n, all at once. hostDone(i), if not nil, is called when
// host i has both finished its own send and received the one addressed to
// it (the per-worker barrier of synchronous gossip); done, if not nil,
// when every host has. offset must be in 1..n-1; with one host there is
// nothing to exchange and both callbacks run through a zero-delay event.
func GossipShift(sim *netsim.Sim, bulk netsim.Bulk, hosts []netsim.NodeID, size netsim.Bytes, offset int, opts netsim.BulkOpts, hostDone func(i int), done func()) error {
	if err := checkHosts("gossip", hosts); err != nil {
		return err
	}
	if size < 0 {
		return fmt.Errorf("gossip: negative size %d", size)
	}
	n := len(hosts)
	if n == 1 {
		sim.AfterFunc(0, func() {
			if hostDone != nil {
				hostDone(0)
			}
			if done != nil {
				done()
			}
		})
		return nil
	}
	if offset < 1 || offset >= n {
		return fmt.Errorf("gossip: offset %d, want 1..%d", offset, n-1)
	}
	need := make([]int, n) // events host i still waits for: its send, its receive
	for i := range need {
		need[i] = 2
	}
	left := n
	one := func(i int) {
		need[i]--
		if need[i] > 0 {
			return
		}
		if hostDone != nil {
			hostDone(i)
		}
		left--
		if left == 0 && done != nil {
			done()
		}
	}
	for i := range hosts {
		j := (i + offset) % n
		bulk.Send(hosts[i], hosts[j], size, opts, func() {
			one(i)
			one(j)
		})
	}
	return nil
}
