package collective

import (
	"fmt"

	"syncsim/netsim"
)

// Tree is a rooted tree over ranks 0..n-1: Parent[r] is r's parent (-1 for
// the root) and Children[r] its children in order.
type Tree struct {
	Root     int
	Parent   []int
	Children [][]int
}

// Depth is the number of edges on the longest root-to-leaf path.
func (t Tree) Depth() int {
	d := 0
	for r := range t.Parent {
		k := 0
		for x := r; t.Parent[x] >= 0; x = t.Parent[x] {
			k++
		}
		d = max(d, k)
	}
	return d
}

// NCCLBtree is the binary tree NCCL builds over n ranks (ncclGetBtree,
// NVIDIA/nccl src/graph/trees.cc): an in-order tree rooted at rank 0 that
// has a single child, the highest power of two below n; a rank whose lowest
// set bit is b has parent (r ^ b) | 2b, or r ^ b when that is out of range,
// and children r - b/2 and r + b/2 (the latter shifted down by powers of
// two until it is in range). Leaves are the odd ranks. For n = 8:
//
//	0 - 4 - {2 - {1, 3}, 6 - {5, 7}}
func NCCLBtree(n int) Tree {
	t := Tree{Root: 0, Parent: make([]int, n), Children: make([][]int, n)}
	for r := 0; r < n; r++ {
		t.Parent[r] = -1
		bit := 1
		for bit < n && bit&r == 0 {
			bit <<= 1
		}
		if r == 0 {
			if n > 1 {
				t.Children[0] = []int{bit >> 1}
			}
			continue
		}
		up := (r ^ bit) | (bit << 1)
		if up >= n {
			up = r ^ bit
		}
		t.Parent[r] = up
		low := bit >> 1
		if low == 0 {
			continue
		}
		t.Children[r] = append(t.Children[r], r-low)
		d1 := r + low
		for d1 >= n && low > 0 {
			low >>= 1
			d1 = r + low
		}
		if low > 0 {
			t.Children[r] = append(t.Children[r], d1)
		}
	}
	return t
}

// NCCLDoubleTree is NCCL's double binary tree (ncclGetDtree, same file):
// the first tree is NCCLBtree(n); the second mirrors it (rank r plays
// n-1-r) when n is even and shifts it by one rank (r plays r-1) when n is
// odd, so that most ranks that are inner nodes of one tree are leaves of
// the other and every rank's NIC carries about the same load.
func NCCLDoubleTree(n int) [2]Tree {
	a := NCCLBtree(n)
	b := Tree{Parent: make([]int, n), Children: make([][]int, n)}
	m := func(r int) int { return n - 1 - r }
	if n%2 == 1 {
		m = func(r int) int { return (r + 1) % n }
	}
	b.Root = m(a.Root)
	for r := 0; r < n; r++ {
		if a.Parent[r] < 0 {
			b.Parent[m(r)] = -1
		} else {
			b.Parent[m(r)] = m(a.Parent[r])
		}
		for _, c := range a.Children[r] {
			b.Children[m(r)] = append(b.Children[m(r)], m(c))
		}
	}
	return [2]Tree{a, b}
}

// ChainTree is the chain rooted at rank 0: rank r's parent is r-1. A
// pipelined reduce over it is NCCL's ring reduce to a root, and a pipelined
// broadcast its ring broadcast.
func ChainTree(n int) Tree {
	t := Tree{Root: 0, Parent: make([]int, n), Children: make([][]int, n)}
	for r := range t.Parent {
		t.Parent[r] = r - 1
		if r+1 < n {
			t.Children[r] = []int{r + 1}
		}
	}
	return t
}

// TreeOp selects the phases of a pipelined tree operation.
type TreeOp uint8

// Tree operations.
const (
	// TreeReduce sends every chunk from the leaves up to the root, each
	// node adding its children's chunks to its own; done when the root
	// holds every reduced chunk.
	TreeReduce TreeOp = 1 << iota
	// TreeBroadcast sends every chunk from the root down to the leaves;
	// done when every node holds every chunk.
	TreeBroadcast
	// TreeAllReduce is a reduce pipelined with the broadcast of its
	// result: the root starts sending a chunk down as soon as it is
	// reduced, as NCCL's tree all-reduce does.
	TreeAllReduce = TreeReduce | TreeBroadcast
)

// TreeAllReduceNCCL all-reduces size bytes held by every host over NCCL's
// double binary tree (NCCLDoubleTree over the hosts in the given order,
// which is the rank order): the first half of the buffer (EqualChunks(size,
// 2)[0]) is all-reduced over the first tree and the second half over the
// second, both at once, each cut into chunks pieces that are pipelined up
// and down their tree (PipelinedTree with TreeAllReduce). done is called
// when both halves are everywhere. Every send pays opts.StartLatency.
//
// Per rank the NIC carries about 2S out and 2S in (inner node of one tree:
// S/2 up and S down to two children; leaf of the other: S/2 up), so on a
// network where every host runs at B = 1/beta the operation takes about
// 2S beta once the pipeline is full, plus the time to fill and drain it
// over the trees' depth: the 2(log N + k) alpha + 2(log N + k) S beta / k
// of Tables I and II of the DS-Sync paper, with k = chunks.
func TreeAllReduceNCCL(sim *netsim.Sim, bulk netsim.Bulk, hosts []netsim.NodeID, size netsim.Bytes, chunks int, opts netsim.BulkOpts, done func()) error {
	if err := checkHosts("tree all-reduce", hosts); err != nil {
		return err
	}
	if size < 0 {
		return fmt.Errorf("tree all-reduce: negative size %d", size)
	}
	if chunks < 1 {
		return fmt.Errorf("tree all-reduce: %d chunks, need at least 1", chunks)
	}
	if len(hosts) == 1 {
		finishSoon(sim, done)
		return nil
	}
	halves := EqualChunks(size, 2)
	trees := NCCLDoubleTree(len(hosts))
	left := 2
	one := func() {
		left--
		if left == 0 && done != nil {
			done()
		}
	}
	for i, t := range trees {
		startPipe(sim, bulk, hosts, t, TreeAllReduce, EqualChunks(halves[i], chunks), opts, one)
	}
	return nil
}

// PipelinedTree runs op over tree t on hosts (t's rank r is hosts[r]) with
// the buffer of size bytes cut into chunks pieces (EqualChunks).
//
// Dependency rule, per directed tree edge one message in flight and chunks
// in order: a node sends chunk c up once it has received chunk c from every
// child (a leaf at once) and its send of chunk c-1 up has completed; a node
// sends chunk c to a child once it holds chunk c (the root: reduced, or at
// once for a plain broadcast; others: received from the parent) and its
// send of chunk c-1 to that child has completed. Sends to different
// children and up and down run concurrently. done is called once the
// operation's result is where it belongs (see TreeOp).
func PipelinedTree(sim *netsim.Sim, bulk netsim.Bulk, hosts []netsim.NodeID, t Tree, op TreeOp, size netsim.Bytes, chunks int, opts netsim.BulkOpts, done func()) error {
	if err := checkHosts("tree", hosts); err != nil {
		return err
	}
	if size < 0 {
		return fmt.Errorf("tree: negative size %d", size)
	}
	if chunks < 1 {
		return fmt.Errorf("tree: %d chunks, need at least 1", chunks)
	}
	if err := t.check(len(hosts)); err != nil {
		return err
	}
	if op&TreeAllReduce == 0 || op&^TreeAllReduce != 0 {
		return fmt.Errorf("tree: unknown operation %d", op)
	}
	if len(hosts) == 1 {
		finishSoon(sim, done)
		return nil
	}
	startPipe(sim, bulk, hosts, t, op, EqualChunks(size, chunks), opts, done)
	return nil
}

// check verifies that t is a tree over n ranks reaching every rank from
// its root.
func (t Tree) check(n int) error {
	if len(t.Parent) != n || len(t.Children) != n {
		return fmt.Errorf("tree: %d parents and %d child lists for %d ranks", len(t.Parent), len(t.Children), n)
	}
	if t.Root < 0 || t.Root >= n || t.Parent[t.Root] != -1 {
		return fmt.Errorf("tree: bad root %d", t.Root)
	}
	seen := 0
	stack := []int{t.Root}
	mark := make([]bool, n)
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if mark[r] {
			return fmt.Errorf("tree: rank %d reached twice", r)
		}
		mark[r] = true
		seen++
		for _, c := range t.Children[r] {
			if c < 0 || c >= n || t.Parent[c] != r {
				return fmt.Errorf("tree: child %d of %d does not name it as parent", c, r)
			}
			stack = append(stack, c)
		}
	}
	if seen != n {
		return fmt.Errorf("tree: %d of %d ranks reachable from the root", seen, n)
	}
	return nil
}

// pipe is one pipelined tree operation in progress.
type pipe struct {
	sim    *netsim.Sim
	bulk   netsim.Bulk
	hosts  []netsim.NodeID
	t      Tree
	op     TreeOp
	chunks []netsim.Bytes
	opts   netsim.BulkOpts
	done   func()
	window int // messages in flight per directed edge

	upRecv  [][]int // upRecv[r][c]: children whose chunk c reached r
	upNext  []int   // next chunk r sends up
	upFly   []int   // r's sends up in flight
	got     [][]bool
	have    []int   // chunks r holds in final form (a prefix), down phase
	dnNext  [][]int // dnNext[r][j]: next chunk r sends to its j-th child
	dnFly   [][]int
	pending int // nodes (reduce: the root) still missing their result
}

// pipeWindow is the number of chunks a tree edge carries at once. It is
// one: the flow engine shares a path among the transfers on it instead of
// delivering them in order, so two chunks in flight on one edge would
// arrive together and undo the pipelining. (NCCL keeps NCCL_STEPS = 8
// slots per connection; on the packet engine a window of one drains the
// connection at every chunk, and the last bytes of a chunk wait behind the
// other flows in the sender's NIC queue, which makes a pipelined tree
// 5-20 percent slower there than on the flow engine.)
const pipeWindow = 1

func startPipe(sim *netsim.Sim, bulk netsim.Bulk, hosts []netsim.NodeID, t Tree, op TreeOp, chunks []netsim.Bytes, opts netsim.BulkOpts, done func()) {
	n, k := len(hosts), len(chunks)
	p := &pipe{sim: sim, bulk: bulk, hosts: hosts, t: t, op: op, chunks: chunks, opts: opts, done: done,
		window: pipeWindow,
		upRecv: make([][]int, n), upNext: make([]int, n), upFly: make([]int, n), got: make([][]bool, n),
		have: make([]int, n), dnNext: make([][]int, n), dnFly: make([][]int, n)}
	for r := 0; r < n; r++ {
		p.upRecv[r] = make([]int, k)
		p.got[r] = make([]bool, k)
		p.dnNext[r] = make([]int, len(t.Children[r]))
		p.dnFly[r] = make([]int, len(t.Children[r]))
	}
	switch {
	case op&TreeBroadcast != 0:
		p.pending = n
	default:
		p.pending = 1
	}
	if op&TreeReduce == 0 {
		p.have[t.Root] = k // a broadcast's root holds everything
		p.pending--
	}
	for r := 0; r < n; r++ {
		p.try(r)
	}
}

// rootHave advances the root's count of reduced chunks.
func (p *pipe) rootHave() {
	r, k := p.t.Root, len(p.chunks)
	before := p.have[r]
	for p.have[r] < k && p.upRecv[r][p.have[r]] == len(p.t.Children[r]) {
		p.have[r]++
	}
	if before < k && p.have[r] == k {
		p.finishOne()
	}
}

// arrive records chunk c at non-root r from its parent and advances r's
// prefix of held chunks.
func (p *pipe) arrive(r, c int) {
	k := len(p.chunks)
	p.got[r][c] = true
	before := p.have[r]
	for p.have[r] < k && p.got[r][p.have[r]] {
		p.have[r]++
	}
	if before < k && p.have[r] == k {
		p.finishOne()
	}
}

func (p *pipe) finishOne() {
	p.pending--
	if p.pending == 0 && p.done != nil {
		p.done()
	}
}

// try starts whatever sends node r may start now.
func (p *pipe) try(r int) {
	k := len(p.chunks)
	if p.op&TreeReduce != 0 {
		if r == p.t.Root {
			p.rootHave()
		} else {
			for c := p.upNext[r]; p.upFly[r] < p.window && c < k && p.upRecv[r][c] == len(p.t.Children[r]); c = p.upNext[r] {
				p.sendUp(r, c)
			}
		}
	}
	if p.op&TreeBroadcast == 0 {
		return
	}
	for j := range p.t.Children[r] {
		for c := p.dnNext[r][j]; p.dnFly[r][j] < p.window && c < k && c < p.have[r]; c = p.dnNext[r][j] {
			p.sendDown(r, j, c)
		}
	}
}

func (p *pipe) sendUp(r, c int) {
	p.upNext[r]++
	p.upFly[r]++
	par := p.t.Parent[r]
	p.bulk.Send(p.hosts[r], p.hosts[par], p.chunks[c], p.opts, func() {
		p.upFly[r]--
		p.upRecv[par][c]++
		p.try(r)
		p.try(par)
	})
}

func (p *pipe) sendDown(r, j, c int) {
	p.dnNext[r][j]++
	p.dnFly[r][j]++
	ch := p.t.Children[r][j]
	p.bulk.Send(p.hosts[r], p.hosts[ch], p.chunks[c], p.opts, func() {
		p.dnFly[r][j]--
		p.arrive(ch, c)
		p.try(r)
		p.try(ch)
	})
}
