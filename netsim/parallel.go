package netsim

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The parallel engine: conservative synchronous parallel discrete-event
// simulation. A partitioned Network (Network.Partition) gives every
// partition a Sim of its own (event queue, clock, packet pool, books);
// the Network's Sim becomes the coordinator. The coordinator advances all
// partitions in windows [T, E) no longer than the lookahead, the smallest
// propagation delay of a link whose ends lie in different partitions: an
// event at t >= T in one partition can affect another partition no
// earlier than t + lookahead >= E, so within a window every partition
// fires its events independently, on any number of threads.
//
// A packet handed to a crossing link goes to its partition's outbox for
// the receiving partition instead of the link. At the start of the next
// window the receiving partition drains its inboxes in a fixed order
// (source partition, then the order the source posted in), appends the
// packets to the link and schedules the arrivals in its own queue. (On
// one thread the packet goes into the link's FIFO at once, staged
// behind the packets on the wire, and the drain only counts it in, in
// the same order: Link.stage.) Every
// step depends only on the partitions and the windows, never on the
// number of threads or on which thread ran what, so a run is byte-for-
// byte the same at any thread count, one included.
//
// Events scheduled on the coordinator (the Network's Sim) are global:
// they fire at a barrier, with every partition paused, before the
// partitions' events of the same time; a window never spans one. Set-up
// code uses them for snapshots of the whole network (a warm-up mark).
// The coordinator's monitor (SetMonitor) is called at barriers.

// crossing is a packet posted to a link whose far end lies in another
// partition: it joins the link when the receiving partition drains its
// inbox. It carries the packet's descriptor only: the body stays in the
// sending partition's pool, lent to whoever holds the descriptor until
// it is freed (lend.go).
type crossing struct {
	at Time
	d  Desc
	l  LinkID // no pointer, so outboxes are neither scanned nor write-barriered
}

// MaxThreads bounds the worker threads of one parallel run.
const MaxThreads = 256

// parallel is the coordinator's state of a partitioned Network.
type parallel struct {
	root      *Sim
	parts     []*Sim
	net       *Network // the partitioned network (its links by LinkID)
	lookahead Time
	threads   int
	// out[w][src*P+dst]: packets partition src posted to dst in a window
	// of parity w. Window k writes parity k%2 and drains parity (k-1)%2.
	out [2][][]crossing
	// msgs[w][src*P+dst]: messages (Sim.Post) in the same layout.
	msgs [2][][]message
	// direct is set while a run goes on one thread: packets posted to a
	// crossing link are then staged on the link itself instead of the
	// outbox (Link.stage), and staged[w][src*P+dst] lists the links
	// partition src staged packets on for dst in a window of parity w,
	// in the order of their first packet.
	direct bool
	staged [2][][]LinkID
	// lend is what the partitions' pools share to lend packets.
	lend *lending
	cur  int
	// feeders are the open-loop sources (Sim.AddFeeder).
	feeders []Feeder
	prof    *Profile
	noSpin  bool // SetSpin(false)
	// barrier holds the hooks called after every window (OnBarrier).
	barrier []func()
}

// OnBarrier registers f to be called on the coordinator of a partitioned
// network after every window and at the end of every Run, with every
// partition paused: a component that keeps partition-local tallies folds
// them into totals there. It has no effect on an unpartitioned Sim.
func (s *Sim) OnBarrier(f func()) {
	if s.par != nil && s.par.root == s {
		s.par.barrier = append(s.par.barrier, f)
	}
}

// Settle advances the clock of every partition of a partitioned run to
// the coordinator's, between runs: after a run that a barrier hook
// stopped, every component then reads the same end time, the last
// instant of the last window (the partitions' clocks otherwise stop at
// their own last events). It has no effect on an unpartitioned Sim or
// inside a window.
func (s *Sim) Settle() {
	if s.par == nil || s.par.root != s || s.guard {
		return
	}
	for _, p := range s.par.parts {
		p.now = max(p.now, s.now)
	}
}

// InWindow reports whether this Sim is the coordinator of a partitioned
// run and a window is running: the partitions are then running, and
// nothing may touch two partitions at once.
func (s *Sim) InWindow() bool { return s.guard }

// Partitions returns the partitions' Sims in index order (nil when the
// network is not partitioned).
func (s *Sim) Partitions() []*Sim {
	if s.par == nil || s.par.root != s {
		return nil
	}
	return s.par.parts
}

// Partition is this Sim's partition index (0 on an unpartitioned Sim and
// on the coordinator).
func (s *Sim) Partition() int { return s.index }

// Lookahead is the window length of a partitioned run (0 when the Sim is
// not a partitioned run's coordinator).
func (s *Sim) Lookahead() Time {
	if s.par == nil {
		return 0
	}
	return s.par.lookahead
}

// SetThreads sets how many threads a partitioned run uses (1 to
// MaxThreads); results do not depend on it. It has no effect on an
// unpartitioned Sim.
func (s *Sim) SetThreads(n int) error {
	if n < 1 || n > MaxThreads {
		return fmt.Errorf("threads must be in [1, %d], got %d", MaxThreads, n)
	}
	if s.par != nil {
		s.par.threads = n
	}
	return nil
}

// SetSpin sets whether the threads of a partitioned run spin for a
// moment before they block between windows (default true): it saves the
// wake-up of a sleeping core every window when each thread has a core of
// its own, and costs cores when threads outnumber them. Results do not
// depend on it. It has no effect on an unpartitioned Sim.
func (s *Sim) SetSpin(on bool) {
	if s.par != nil {
		s.par.noSpin = !on
	}
}

// misuse reports a component bound to the coordinator that was used from
// inside a window, where only partitions run: it would read a stale clock
// or race with the partitions.
func (s *Sim) misuse() {
	panic("netsim: the coordinator Sim of a partitioned network was used inside a window; " +
		"components must use their node's Sim (NodeBase.Sim)")
}

// post puts the packet of d, whose serialisation ended so that it
// arrives at at, in its partition's outbox for the link's far partition
// (on one thread, on the link itself: see stage). The body is not
// touched: the descriptor is the packet's authority on what a hop
// changes, and it names the body in its home pool.
func (l *Link) post(d Desc, at Time) {
	src := l.port.sim
	if at < src.outMin {
		src.outMin = at
	}
	pr := src.par
	if !pr.direct {
		// The outbox (and below, a FIFO to grow) apart: their calls
		// would make the compiler keep d on the stack on every path.
		// On more threads the far partition is running: the link is
		// not to be read.
		l.postSlow(d, at, pr)
		return
	}
	n := l.count + l.staged[0] + l.staged[1]
	if int(n) == len(l.fifo) {
		l.postSlow(d, at, pr)
		return
	}
	l.fifo[int(l.head+n)&(len(l.fifo)-1)] = inflight{d, at}
	if w := pr.cur; l.staged[w] == 0 {
		l.list(w)
	} else {
		l.staged[w]++
	}
}

// postSlow is post to the outbox, or stage when the link's FIFO is
// full.
func (l *Link) postSlow(d Desc, at Time, pr *parallel) {
	if pr.direct {
		l.stage(d, at, pr.cur)
		return
	}
	box := &pr.out[pr.cur][l.port.sim.index*len(pr.parts)+l.rsim.index]
	n := len(*box)
	if n == cap(*box) {
		*box = append(*box, crossing{})
	}
	*box = (*box)[:n+1]
	(*box)[n] = crossing{at: at, d: d, l: l.ID}
}

// stage is post on one thread, where no other partition runs while
// this one does: the packet goes straight into the link's FIFO, after
// the packets on the wire and those staged before it, and is counted in
// staged[w], w being the parity of the window (or of the last window,
// between windows); a link's first packet of the window lists the link
// in the sender's staged list for the far partition. The far
// partition's drain then only moves each listed link's count
// (parallel.drain): the same links, packets and arrival events, in the
// same order, as the outbox's crossings give, without copying each
// packet twice.
func (l *Link) stage(d Desc, at Time, w int) {
	n := l.count + l.staged[0] + l.staged[1]
	if int(n) == len(l.fifo) {
		l.grow()
	}
	l.fifo[int(l.head+n)&(len(l.fifo)-1)] = inflight{d, at}
	if l.staged[w] == 0 {
		l.list(w)
	} else {
		l.staged[w]++
	}
}

// list counts the first packet staged on l in a window of parity w and
// lists l for the far partition's drain.
func (l *Link) list(w int) {
	l.staged[w] = 1
	pr := l.rsim.par
	i := l.port.sim.index*len(pr.parts) + l.rsim.index
	pr.staged[w][i] = append(pr.staged[w][i], l.ID)
}

// stageOutboxes moves the packets waiting in the outboxes onto their
// links as staged packets, in the order the drain would take them, when
// a run on one thread starts after packets were posted without staging
// (between the runs, after a run on more threads).
func (pr *parallel) stageOutboxes() {
	for _, w := range [2]int{1 - pr.cur, pr.cur} { // the older parity first
		for i, box := range pr.out[w] {
			for _, c := range box {
				pr.net.links[c.l].stage(c.d, c.at, w)
			}
			pr.out[w][i] = box[:0]
		}
	}
}

// drain moves the packets posted to partition s in the window of parity
// w onto their links, in source order, scheduling the arrivals.
func (pr *parallel) drain(s *Sim, w int) {
	n := len(pr.parts)
	for i := 0; i < n; i++ {
		src := i
		if reverseDrain {
			src = n - 1 - i // a test build's reordering (drain_reverse.go)
		}
		// The links with staged packets, then the outbox. A run on
		// one thread stages (what waits in the outboxes when it starts
		// too: stageOutboxes); a run on more threads posts to the
		// outboxes, and finds here what a one-thread run staged before
		// it, between the runs.
		j := src*n + s.index
		if ids := pr.staged[w][j]; len(ids) > 0 {
			for _, id := range ids {
				l := pr.net.links[id]
				if l.count == 0 {
					s.scheduleFixed(l.fifo[l.head].at, s.linkSlot(l))
				}
				l.count += l.staged[w]
				l.staged[w] = 0
			}
			pr.staged[w][j] = ids[:0]
		}
		box := &pr.out[w][j]
		for i := range *box {
			c := &(*box)[i]
			l := pr.net.links[c.l]
			if int(l.count) == len(l.fifo) {
				l.grow()
			}
			l.fifo[int(l.head+l.count)&(len(l.fifo)-1)] = inflight{c.d, c.at}
			l.count++
			if l.count == 1 {
				s.scheduleFixed(c.at, s.linkSlot(l))
			}
		}
		*box = (*box)[:0]
	}
}

// head is the time of the partition's next event (Never if none).
func (s *Sim) head() Time {
	if k, ok := s.peek(); ok {
		return k.at
	}
	return Never
}

// timedWindow runs s's window, and with a profile records the thread
// CPU it took.
func (pr *parallel) timedWindow(s *Sim, end Time) {
	if pr.prof == nil {
		pr.window(s, end)
		return
	}
	p0 := threadCPU()
	pr.window(s, end)
	s.winCPU = threadCPU() - p0
}

// window fires partition s's events before end, after taking back the
// packets the others freed for it and draining what they posted to it in
// the previous window.
func (pr *parallel) window(s *Sim, end Time) {
	pr.reclaim(s, 1-pr.cur)
	pr.drain(s, 1-pr.cur)
	pr.drainMessages(s, 1-pr.cur)
	s.stopped = false
	s.winEvents = s.events
	s.runUntil(end - 1)
	s.winEvents = s.events - s.winEvents
}

// runParallel is Run on the coordinator of a partitioned network.
func (pr *parallel) run(until Time) {
	root := pr.root
	root.stopped = false
	if root.halted {
		return
	}
	limit := until // windows cover events at or before until
	if pr.prof != nil {
		runtime.LockOSThread() // threadCPU reads this thread's clock
		defer runtime.UnlockOSThread()
	}
	var pool *workerPool
	if pr.threads > 1 {
		pool = newWorkerPool(pr, min(pr.threads, len(pr.parts)))
		defer pool.stop()
	}
	pr.direct = pool == nil
	if pr.direct {
		pr.stageOutboxes()
	}
	for !root.stopped {
		// The next event anywhere: a partition's, a posted packet's or
		// message's, a feeder's or a global one.
		t := pr.nextFed()
		for _, s := range pr.parts {
			t = min(t, s.head(), s.outMin)
		}
		g := root.head()
		if g <= t && g != Never {
			if g > limit {
				break
			}
			pr.flush()
			for _, s := range pr.parts {
				s.now = max(s.now, g)
			}
			root.fireAt(g)
			continue
		}
		if t == Never || t > limit {
			break
		}
		end := Never
		if pr.lookahead < Never-t {
			end = t + pr.lookahead
		}
		if g < end {
			end = g
		}
		if limit != Never && limit+1 < end {
			end = limit + 1
		}
		pr.feed(end)
		pr.cur = 1 - pr.cur
		for _, s := range pr.parts {
			s.outMin = Never
		}
		var t0 time.Time
		if pr.prof != nil {
			t0 = time.Now()
		}
		root.guard = true
		if pool == nil {
			for _, s := range pr.parts {
				pr.timedWindow(s, end)
			}
		} else {
			pool.window(end)
		}
		root.guard = false
		if pr.prof != nil {
			pr.prof.record(pr, time.Since(t0))
		}
		if end != Never {
			// Every event before end has fired: the barrier hooks
			// (and a stop they ask for) see the window's last instant.
			root.now = max(root.now, end-1)
		}
		for _, f := range pr.barrier {
			f()
		}
		for _, s := range pr.parts {
			if s.stopped {
				root.stopped = true
			}
		}
		if root.monitor != nil {
			if ev := root.Events(); ev >= root.monitorNext {
				root.monitorNext = ev + root.monitorEvery
				root.now = end - 1
				if !root.monitor(end-1, ev) {
					root.halted, root.stopped = true, true
				}
			}
		}
	}
	pr.flush()
	for _, f := range pr.barrier {
		f()
	}
	if !root.stopped && until != Never {
		for _, s := range pr.parts {
			s.now = max(s.now, until)
		}
		root.now = max(root.now, until)
	}
}

// flush drains every outbox now, at a barrier, in the order the
// partitions' own drains would have used.
func (pr *parallel) flush() {
	for _, s := range pr.parts {
		pr.drain(s, pr.cur)
		pr.drainMessages(s, pr.cur)
		s.outMin = Never
	}
}

// fireAt fires the coordinator's (global) events at time t, in sequence
// order, with every partition paused.
func (s *Sim) fireAt(t Time) {
	for !s.stopped {
		k, ok := s.peek()
		if !ok || k.at != t {
			return
		}
		s.popPeeked(k)
		s.fire(k)
	}
}

// workerPool runs the partitions of each window on a fixed set of
// goroutines; the coordinator's goroutine is worker 0. Each worker owns
// a list of partitions, so a partition's state stays in one core's cache
// from window to window, and the lists are rebalanced every
// rebalanceEvery windows from the events each partition fired since the
// last time (longest first onto the least loaded worker: load-adaptive
// assignment in the spirit of Unison). A worker done with its own list
// takes partitions from the others' (work stealing), so a thread the OS
// pauses does not hold the window up. Which worker runs a partition
// never affects results.
//
// The coordinator starts a window by publishing its end and moving the
// epoch; each worker, done, counts itself off pending. Both sides wait
// with a parker: a short spin, then a block.
type workerPool struct {
	pr    *parallel
	lists []workList
	// epoch counts the windows started; a worker runs a window when it
	// moves past the last one it ran (or stops when quit is set).
	epoch   atomic.Uint64
	end     Time // the window's end, written before epoch moves
	quit    atomic.Bool
	pending atomic.Int32 // workers other than 0 still in the window
	// park[w] is worker w's (park[0] the coordinator's, waiting for
	// pending to reach 0).
	park   []parker
	spin   time.Duration // how long a waiting side spins before it blocks
	failed []any         // per worker: what its partition panicked with, or nil
	wg     sync.WaitGroup
	// since counts the windows since the last rebalance.
	since int
	load  []uint64 // per partition: events since the last rebalance
}

// workList is one worker's partitions and the cursor the owner and
// thieves take them with, padded to a cache line.
type workList struct {
	parts []*Sim
	next  atomic.Int64
	_     [64 - 32]byte
}

// rebalanceEvery is how many windows pass between rebalances.
const rebalanceEvery = 64

func newWorkerPool(pr *parallel, n int) *workerPool {
	wp := &workerPool{pr: pr, lists: make([]workList, n), load: make([]uint64, len(pr.parts)),
		park: make([]parker, n), failed: make([]any, n), spin: spinFor}
	if pr.noSpin {
		wp.spin = 0
	}
	for i := range wp.park {
		wp.park[i] = newParker()
	}
	// Start with contiguous blocks: neighbouring partitions (a leaf's
	// hosts) on one worker.
	for i, s := range pr.parts {
		w := i * n / len(pr.parts)
		wp.lists[w].parts = append(wp.lists[w].parts, s)
	}
	for i := 1; i < n; i++ {
		wp.wg.Add(1)
		go wp.worker(i)
	}
	return wp
}

// worker is worker w's goroutine: it runs every window the coordinator
// starts until quit.
func (wp *workerPool) worker(w int) {
	defer wp.wg.Done()
	if wp.pr.prof != nil {
		// threadCPU reads this thread's clock.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	for ran := uint64(0); ; {
		next := ran + 1
		wp.park[w].wait(wp.spin, func() bool { return wp.epoch.Load() >= next || wp.quit.Load() })
		if wp.quit.Load() {
			return
		}
		ran = next
		wp.failed[w] = wp.safeWork(w, wp.end)
		if wp.pending.Add(-1) == 0 {
			wp.park[0].wake()
		}
	}
}

// rebalance reassigns partitions to workers from their recent events.
func (wp *workerPool) rebalance() {
	parts := slices.Clone(wp.pr.parts)
	slices.SortStableFunc(parts, func(a, b *Sim) int { return cmp.Compare(wp.load[b.index], wp.load[a.index]) })
	loads := make([]uint64, len(wp.lists))
	for i := range wp.lists {
		wp.lists[i].parts = wp.lists[i].parts[:0]
	}
	for _, s := range parts {
		w := 0
		for i := range loads {
			if loads[i] < loads[w] {
				w = i
			}
		}
		loads[w] += wp.load[s.index] + 1
		wp.lists[w].parts = append(wp.lists[w].parts, s)
	}
	clear(wp.load)
}

// work runs worker w's partitions of the window ending at end, then
// steals from the other workers until none is left.
func (wp *workerPool) work(w int, end Time) {
	pr := wp.pr
	n := len(wp.lists)
	for k := 0; k < n; k++ {
		l := &wp.lists[(w+k)%n]
		for {
			i := int(l.next.Add(1)) - 1
			if i >= len(l.parts) {
				break
			}
			pr.timedWindow(l.parts[i], end)
		}
	}
}

// safeWork is work on a worker goroutine: a panic in a partition is
// caught and handed to the coordinator, which raises it again on its own
// goroutine, where the caller of Run can recover it.
func (wp *workerPool) safeWork(w int, end Time) (v any) {
	defer func() {
		if r := recover(); r != nil {
			v = r
			for i := range wp.lists { // the others stop taking partitions
				wp.lists[i].next.Store(int64(len(wp.lists[i].parts)))
			}
		}
	}()
	wp.work(w, end)
	return nil
}

// window runs one window on every worker and waits for all.
func (wp *workerPool) window(end Time) {
	if wp.since++; wp.since > rebalanceEvery {
		wp.since = 1
		wp.rebalance()
	}
	for i := range wp.lists {
		wp.lists[i].next.Store(0)
	}
	n := len(wp.lists)
	wp.end = end
	wp.pending.Store(int32(n - 1))
	wp.epoch.Add(1)
	for w := 1; w < n; w++ {
		wp.park[w].wake()
	}
	own := wp.safeWork(0, end)
	wp.park[0].wait(wp.spin, func() bool { return wp.pending.Load() == 0 })
	first := own
	for w := 1; w < n && first == nil; w++ {
		first = wp.failed[w]
	}
	if first != nil {
		panic(first)
	}
	for _, s := range wp.pr.parts {
		wp.load[s.index] += s.winEvents
	}
}

func (wp *workerPool) stop() {
	wp.quit.Store(true)
	for w := 1; w < len(wp.park); w++ {
		wp.park[w].wake()
	}
	wp.wg.Wait()
}
