package collective

import (
	"fmt"

	"syncsim/netsim"
)

// HierMode selects how HierarchicalAllReduce decomposes the all-reduce.
type HierMode uint8

// Hierarchical all-reduce decompositions.
const (
	// HierShard is BlueConnect's decomposition (Cho et al., MLSys 2019,
	// the DS-Sync paper's ref. [11]): a ring reduce-scatter inside every
	// rack leaves rank j of each rack with shard j; rank j of every rack
	// all-reduces shard j with its peers in the other racks (one ring per
	// shard, all at once); a ring all-gather inside every rack spreads the
	// result. Its cost is Table II's 2(G-1)/G S beta1 + 2(C-1)/C S beta2.
	// With unequal racks the buffer is cut into K = min rack size shards;
	// the ranks K and above of a larger rack hold empty shards and take
	// part in its intra-rack rings only.
	HierShard HierMode = iota
	// HierLeader reduces each rack's buffers to its first host (the
	// leader) over a pipelined chain (NCCL's ring reduce), all-reduces the
	// leaders' buffers over a ring, and broadcasts the result from each
	// leader over a pipelined chain (the three steps of the DS-Sync
	// paper's Fig. 1(b)): one connection per rack crosses the core, and
	// the leader's NIC carries the rack's whole reduce and broadcast.
	HierLeader
)

// HierModeNames lists the modes by name, indexed by HierMode.
var HierModeNames = []string{HierShard: "shard", HierLeader: "leader"}

// String names the mode.
func (m HierMode) String() string {
	if int(m) < len(HierModeNames) {
		return HierModeNames[m]
	}
	return fmt.Sprintf("hier-mode(%d)", uint8(m))
}

// ParseHierMode maps "shard" or "leader" to its mode.
func ParseHierMode(s string) (HierMode, error) {
	for i, n := range HierModeNames {
		if s == n {
			return HierMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown hierarchical all-reduce mode %q (allowed: shard, leader)", s)
}

// HierarchicalAllReduce all-reduces size bytes held by every host of
// racks (racks[r] lists rack r's hosts, in rank order) in three serial
// phases, each waiting for the previous one to finish everywhere:
// intra-rack reduce, inter-rack all-reduce and intra-rack broadcast, as
// chosen by mode (HierShard or HierLeader). chunks is the pipeline depth of
// HierLeader's chain reduce and broadcast (ignored by HierShard). Empty
// racks are skipped. done is called when every host holds the result.
func HierarchicalAllReduce(sim *netsim.Sim, bulk netsim.Bulk, racks [][]netsim.NodeID, size netsim.Bytes, mode HierMode, chunks int, opts netsim.BulkOpts, done func()) error {
	var all []netsim.NodeID
	var rs [][]netsim.NodeID
	for _, r := range racks {
		if len(r) > 0 {
			rs = append(rs, r)
			all = append(all, r...)
		}
	}
	if err := checkHosts("hierarchical all-reduce", all); err != nil {
		return err
	}
	if size < 0 {
		return fmt.Errorf("hierarchical all-reduce: negative size %d", size)
	}
	if mode == HierLeader && chunks < 1 {
		return fmt.Errorf("hierarchical all-reduce: %d chunks, need at least 1", chunks)
	}
	if mode != HierShard && mode != HierLeader {
		return fmt.Errorf("hierarchical all-reduce: unknown mode %d", mode)
	}
	if len(all) == 1 {
		finishSoon(sim, done)
		return nil
	}
	h := &hier{sim: sim, bulk: bulk, racks: rs, size: size, chunks: chunks, opts: opts, done: done}
	if mode == HierShard {
		h.shardReduceScatter()
	} else {
		h.leaderReduce()
	}
	return nil
}

// hier is one hierarchical all-reduce in progress.
type hier struct {
	sim    *netsim.Sim
	bulk   netsim.Bulk
	racks  [][]netsim.NodeID
	size   netsim.Bytes
	chunks int
	opts   netsim.BulkOpts
	done   func()
}

// barrier returns a callback that runs next after it has been called n
// times (at once, through a zero-delay event, when n is zero).
func (h *hier) barrier(n int, next func()) func() {
	if n == 0 {
		h.sim.AfterFunc(0, next)
		return nil
	}
	return func() {
		n--
		if n == 0 {
			next()
		}
	}
}

// shards is the shard layout of HierShard: K = min rack size equal shards,
// and rack r's ring chunks (the K shards, then empty chunks).
func (h *hier) shards() (shard []netsim.Bytes, perRack [][]netsim.Bytes) {
	k := len(h.racks[0])
	for _, r := range h.racks {
		k = min(k, len(r))
	}
	shard = EqualChunks(h.size, k)
	perRack = make([][]netsim.Bytes, len(h.racks))
	for i, r := range h.racks {
		perRack[i] = make([]netsim.Bytes, len(r))
		copy(perRack[i], shard)
	}
	return shard, perRack
}

func (h *hier) shardReduceScatter() {
	_, per := h.shards()
	next := h.barrier(len(h.racks), h.shardInter)
	for i, r := range h.racks {
		startRingPhase(h.sim, h.bulk, r, per[i], reduceScatterChunk, h.opts, next)
	}
}

func (h *hier) shardInter() {
	shard, _ := h.shards()
	if len(h.racks) == 1 {
		h.shardAllGather()
		return
	}
	next := h.barrier(len(shard), h.shardAllGather)
	for j, b := range shard {
		peers := make([]netsim.NodeID, len(h.racks))
		for i, r := range h.racks {
			peers[i] = r[j]
		}
		startRing(h.sim, h.bulk, peers, EqualChunks(b, len(peers)), h.opts, next)
	}
}

func (h *hier) shardAllGather() {
	_, per := h.shards()
	next := h.barrier(len(h.racks), h.finish)
	for i, r := range h.racks {
		startRingPhase(h.sim, h.bulk, r, per[i], allGatherChunk, h.opts, next)
	}
}

func (h *hier) finish() {
	if h.done != nil {
		h.done()
	}
}

func (h *hier) leaderReduce() {
	next := h.barrier(len(h.racks), h.leaderInter)
	for _, r := range h.racks {
		if len(r) == 1 {
			h.sim.AfterFunc(0, next)
			continue
		}
		startPipe(h.sim, h.bulk, r, ChainTree(len(r)), TreeReduce, EqualChunks(h.size, h.chunks), h.opts, next)
	}
}

func (h *hier) leaderInter() {
	leaders := make([]netsim.NodeID, len(h.racks))
	for i, r := range h.racks {
		leaders[i] = r[0]
	}
	if len(leaders) == 1 {
		h.leaderBroadcast()
		return
	}
	startRing(h.sim, h.bulk, leaders, EqualChunks(h.size, len(leaders)), h.opts, h.leaderBroadcast)
}

func (h *hier) leaderBroadcast() {
	next := h.barrier(len(h.racks), h.finish)
	for _, r := range h.racks {
		if len(r) == 1 {
			h.sim.AfterFunc(0, next)
			continue
		}
		startPipe(h.sim, h.bulk, r, ChainTree(len(r)), TreeBroadcast, EqualChunks(h.size, h.chunks), h.opts, next)
	}
}

// reduceScatterChunk is the chunk host i of an n-ring sends at step k of a
// reduce-scatter that leaves chunk j fully reduced at host j: chunk
// (i-k-1) mod n.
func reduceScatterChunk(n, i, k int) int { return ((i-k-1)%n + 2*n) % n }

// allGatherChunk is the chunk host i sends at step k of an all-gather that
// starts with chunk j at host j: chunk (i-k) mod n.
func allGatherChunk(n, i, k int) int { return ((i-k)%n + 2*n) % n }

// ringPhase is one half of a ring all-reduce (n-1 steps) in progress, with
// RingAllReduce's dependency rule: host i starts step k+1 once it has
// received its predecessor's step-k chunk and its own step-k send is done.
type ringPhase struct {
	bulk   netsim.Bulk
	hosts  []netsim.NodeID
	chunks []netsim.Bytes
	chunk  func(n, i, k int) int
	opts   netsim.BulkOpts
	done   func()
	next   []int
	busy   []bool
	recvd  []int
	left   int
}

// startRingPhase runs a reduce-scatter or all-gather (chunk selects which)
// over the ring hosts[0] -> hosts[1] -> ... -> hosts[0].
func startRingPhase(sim *netsim.Sim, bulk netsim.Bulk, hosts []netsim.NodeID, chunks []netsim.Bytes, chunk func(n, i, k int) int, opts netsim.BulkOpts, done func()) {
	n := len(hosts)
	if n == 1 {
		finishSoon(sim, done)
		return
	}
	r := &ringPhase{bulk: bulk, hosts: hosts, chunks: chunks, chunk: chunk, opts: opts, done: done,
		next: make([]int, n), busy: make([]bool, n), recvd: make([]int, n), left: n * (n - 1)}
	for i := range hosts {
		r.try(i)
	}
}

func (r *ringPhase) try(i int) {
	n := len(r.hosts)
	k := r.next[i]
	if k >= n-1 || r.busy[i] || r.recvd[i] < k {
		return
	}
	j := (i + 1) % n
	r.next[i]++
	r.busy[i] = true
	r.bulk.Send(r.hosts[i], r.hosts[j], r.chunks[r.chunk(n, i, k)], r.opts, func() {
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
