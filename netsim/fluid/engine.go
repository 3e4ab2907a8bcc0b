package fluid

import (
	"fmt"

	"github.com/google/btree"

	"syncsim/netsim"
)

// Mode is a bandwidth allocation policy.
type Mode uint8

// Allocation policies (see the package documentation).
const (
	// MaxMin shares every link max-min fairly (progressive filling).
	MaxMin Mode = iota
	// FCFS gives bandwidth to transfers in the order they became active.
	FCFS
	// Priority gives bandwidth by strict priority of a caller-supplied key
	// (lower first), FCFS among equal keys (see NewPriority).
	Priority
)

// String names the mode as it appears in parameters: "maxmin" or "fcfs".
func (m Mode) String() string {
	switch m {
	case MaxMin:
		return "maxmin"
	case FCFS:
		return "fcfs"
	case Priority:
		return "priority"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode returns the mode named s ("maxmin" or "fcfs"). Priority needs
// a key function and is made with NewPriority.
func ParseMode(s string) (Mode, error) {
	switch s {
	case "maxmin":
		return MaxMin, nil
	case "fcfs":
		return FCFS, nil
	}
	return 0, fmt.Errorf("unknown fluid allocation mode %q (allowed: maxmin, fcfs)", s)
}

// Event kinds handled by the engine.
const (
	kindComplete int32 = iota // the earliest projected completion is due
	kindStart                 // Arg: slot whose StartLatency has elapsed
	kindDone                  // Arg: slot whose last byte reached dst
	kindFlush                 // recompute rates after changes at this instant
)

// Engine is the flow-level engine over one netsim.Network. It implements
// netsim.Bulk. Create it with New after the topology is complete.
type Engine struct {
	net   *netsim.Network
	sim   *netsim.Sim
	mode  Mode
	key   func(netsim.BulkOpts) int64 // Priority mode only
	links []linkState

	slots []*transfer
	first *transfer // active transfers in activation order (linked list)
	last  *transfer
	free  []int32
	tree  *btree.BTreeG[item]
	timer netsim.Timer

	nextID  uint64
	actSeq  uint64
	dirty   []int32
	flushAt netsim.Time // time of the queued flush event, or -1
	stale   int         // superseded entries still in the ordered set
	busy    bool        // inside a handler that flushes before returning
	full    bool        // tests: recompute every transfer on every change

	// scratch, reused across recomputations
	comp    []*transfer
	queue   []int32
	touched []int32
	changed []int32
	heap    linkHeap
	doneBuf []*transfer
	items   []item
	cepoch  uint32
	fepoch  uint32
	chepoch uint32

	active, pending int
	sends           uint64
	completed       uint64
	recomputes      uint64
	rerated         uint64       // transfers re-rated, summed over recomputations
	sizeSent        netsim.Bytes // sizes of every Send
	delivered       netsim.Bytes // sizes of transfers whose done fired
	cancels         uint64       // transfers cancelled and released
	cancelledSize   netsim.Bytes // sizes of the transfers cancelled and released
	cancelledSent   netsim.Bytes // bytes those transfers had sent when cancelled
	maxResidual     float64      // largest |remaining| at completion, bytes
}

var _ netsim.Bulk = (*Engine)(nil)

// New returns an engine over net with the given allocation mode. Link
// capacities start at each link's Rate; routes are built if needed. An
// unknown mode is a programming error and panics.
func New(net *netsim.Network, mode Mode) *Engine {
	if mode != MaxMin && mode != FCFS {
		panic(fmt.Sprintf("fluid: unknown mode %d (Priority is made with NewPriority)", mode))
	}
	return newEngine(net, mode)
}

// NewPriority returns an engine that allocates bandwidth by strict
// priority: key(opts) of each Send is the transfer's priority, lower keys
// first. Transfers are ranked by (key, activation time); each rank is
// filled max-min on what the higher ranks left, exactly as FCFS ranks are
// (FCFS is the special case of one key). A transfer of a lower key that
// arrives later preempts, on every link it crosses, the bandwidth of
// higher-key transfers. CREW's flow scheduling policies (Sec. IV-C and
// V-E of its paper: task-level FCFS by partial-reduce id, multicast before
// scatter, scatter before multicast) are keys of this kind. A nil key
// panics.
func NewPriority(net *netsim.Network, key func(netsim.BulkOpts) int64) *Engine {
	if key == nil {
		panic("fluid: NewPriority with a nil key function")
	}
	e := newEngine(net, Priority)
	e.key = key
	return e
}

func newEngine(net *netsim.Network, mode Mode) *Engine {
	e := &Engine{net: net, sim: net.Sim, mode: mode, flushAt: -1}
	// Degree 32 measured as good as 8-64 here; the free list keeps the
	// nodes that sweeps and bursts of completions release for reuse.
	e.tree = btree.NewWithFreeListG(32, itemLess, btree.NewFreeListG[item](1024))
	ls := net.Links()
	e.links = make([]linkState, len(ls))
	for i, l := range ls {
		e.links[i].cap = float64(l.Rate)
		e.links[i].hpos = -1
	}
	net.Routes()
	e.timer.Init(e.sim, e, kindComplete)
	return e
}

// Mode is the engine's allocation policy.
func (e *Engine) Mode() Mode { return e.mode }

// Active is the number of transfers competing for bandwidth now.
func (e *Engine) Active() int { return e.active }

// Pending is the number of transfers sent whose done has not fired yet
// (waiting out StartLatency, active, or propagating their last byte).
func (e *Engine) Pending() int { return e.pending }

// Completed is the number of transfers whose done has fired.
func (e *Engine) Completed() uint64 { return e.completed }

// Recomputations is the number of rate recomputations performed.
func (e *Engine) Recomputations() uint64 { return e.recomputes }

// BytesDelivered is the total size of the transfers whose done has fired.
func (e *Engine) BytesDelivered() netsim.Bytes { return e.delivered }

// Cancelled is the number of transfers cancelled, and the bytes they had
// sent when cancelled.
func (e *Engine) Cancelled() (uint64, netsim.Bytes) { return e.cancels, e.cancelledSent }

// Capacity is the current capacity of link l in bits/s.
func (e *Engine) Capacity(l netsim.LinkID) netsim.Rate { return netsim.Rate(e.links[l].cap) }

// SetCapacity changes link l's capacity to r bits/s from now on (for WAN
// dynamics or failures; r = 0 stalls the transfers crossing it). Transfers
// crossing it are re-rated at this instant. A negative rate or unknown link
// is an error.
func (e *Engine) SetCapacity(l netsim.LinkID, r netsim.Rate) error {
	if int(l) < 0 || int(l) >= len(e.links) {
		return fmt.Errorf("fluid: SetCapacity: no link %d", l)
	}
	if r < 0 {
		return fmt.Errorf("fluid: SetCapacity: negative rate %d on link %d", r, l)
	}
	// The recomputation at this instant first advances every affected
	// transfer to now at its old rate, so the new capacity applies only
	// from now on.
	e.links[l].cap = float64(r)
	e.markDirty(l)
	e.requestFlush()
	return nil
}

// SetUncapped declares that link l is never a bottleneck, so transfers
// sent from now on leave it out of bandwidth allocation (its propagation
// delay still counts). It is for links whose capacity provably covers
// whatever the other links of every path let through, such as the access
// cables of topologies.WAN (rated at the sum of a site's WAN links):
// leaving them out keeps each pair's transfers in a component of their
// own, so an arrival re-rates only the transfers of that pair instead of
// every transfer of the mesh. The caller vouches for the claim; Check
// does not see uncapped links. An unknown link, or one that already
// carries transfers, is an error.
func (e *Engine) SetUncapped(l netsim.LinkID) error {
	if int(l) < 0 || int(l) >= len(e.links) {
		return fmt.Errorf("fluid: SetUncapped: no link %d", l)
	}
	if len(e.links[l].trs) > 0 {
		return fmt.Errorf("fluid: SetUncapped: link %d already carries %d transfers", l, len(e.links[l].trs))
	}
	e.links[l].uncapped = true
	return nil
}

// Handle names one transfer started with Start, for Sent and Cancel. It
// stays valid (and harmless) after the transfer ends: a handle to a
// transfer that completed or was cancelled is reported as such.
type Handle struct {
	slot int32
	id   uint64
}

// Send implements netsim.Bulk: it starts moving size bytes from src to dst
// (see the package documentation for timing) and calls done when the last
// byte arrives. The route comes from net.Path; an unroutable pair or a
// negative size is a programming error in the caller's topology or
// collective, and panics.
func (e *Engine) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	e.Start(src, dst, size, opts, done)
}

// Start is Send returning a Handle, for callers that may later ask how far
// the transfer got (Sent) or abandon it (Cancel).
func (e *Engine) Start(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) Handle {
	if size < 0 {
		panic(fmt.Sprintf("fluid: Send of negative size %d", size))
	}
	if opts.StartLatency < 0 {
		panic(fmt.Sprintf("fluid: Send with negative StartLatency %v", opts.StartLatency))
	}
	e.nextID++
	t := e.alloc()
	t.id, t.src, t.dst, t.size, t.done = e.nextID, src, dst, size, done
	var err error
	t.path, err = e.net.Path(src, dst, t.id)
	if err != nil {
		panic("fluid: " + err.Error())
	}
	t.prop = 0
	t.pos = t.pos[:0]
	kept := t.path[:0]
	for _, l := range t.path {
		if int(l) >= len(e.links) {
			panic("fluid: link added to the network after the engine was created")
		}
		t.prop += e.net.Link(l).Delay
		if e.links[l].uncapped {
			continue
		}
		kept = append(kept, l)
		t.pos = append(t.pos, -1)
	}
	t.path = kept
	t.key, t.cancelled = 0, false
	if e.key != nil {
		t.key = e.key(opts)
	}
	t.remaining = float64(size)
	t.rate = 0
	t.finish = netsim.Never
	e.sends++
	e.pending++
	e.sizeSent += size
	t.st = stPending
	h := Handle{slot: t.slot, id: t.id}
	if opts.StartLatency > 0 {
		e.sim.Schedule(e.sim.Now()+opts.StartLatency, e, kindStart, nil, int64(t.slot))
		return h
	}
	e.activate(t)
	return h
}

// lookup returns the transfer h names, or nil if it has ended (completed
// or cancelled).
func (e *Engine) lookup(h Handle) *transfer {
	if h.id == 0 || h.slot < 0 || int(h.slot) >= len(e.slots) {
		return nil
	}
	t := e.slots[h.slot]
	if t.id != h.id || t.st == stFree || t.cancelled {
		return nil
	}
	return t
}

// Sent reports how many of the transfer's bytes have left its source by
// now (rounded down), and whether the transfer is still under way (its
// done has not fired and it was not cancelled). It changes nothing.
func (e *Engine) Sent(h Handle) (netsim.Bytes, bool) {
	t := e.lookup(h)
	if t == nil {
		return 0, false
	}
	return e.sentOf(t), true
}

func (e *Engine) sentOf(t *transfer) netsim.Bytes {
	switch t.st {
	case stPending:
		return 0
	case stDraining:
		return t.size
	}
	rem := t.remaining
	if dt := e.sim.Now() - t.last; dt > 0 && t.rate > 0 {
		rem -= t.rate * float64(dt) / bitsPerByteps
	}
	sent := float64(t.size) - rem
	if sent <= 0 {
		return 0
	}
	if s := netsim.Bytes(sent); s < t.size {
		return s
	}
	return t.size
}

// Cancel abandons a transfer under way: its done will never be called, it
// stops competing for bandwidth now (the transfers that shared its links
// are re-rated at this instant), and the bytes it had sent are reported
// (rounded down; a transfer whose last byte already left the source
// reports its size). Cancelling a transfer that has ended returns (0,
// false). Cancel may be called from a done callback.
func (e *Engine) Cancel(h Handle) (netsim.Bytes, bool) {
	t := e.lookup(h)
	if t == nil {
		return 0, false
	}
	sent := e.sentOf(t)
	t.cancelled = true
	t.done = nil
	if t.st == stActive {
		e.advance(t)
		if t.inTree {
			e.stale++
			t.inTree = false
		}
		e.depart(t)
		e.requestFlush()
		e.release(t, sent)
	}
	// A pending transfer is released when its start event fires, a
	// draining one when its last byte arrives: their events name the slot,
	// so the slot must not be reused before then.
	return sent, true
}

// release frees a cancelled transfer's slot and books it.
func (e *Engine) release(t *transfer, sent netsim.Bytes) {
	e.cancels++
	e.pending--
	e.cancelledSize += t.size
	e.cancelledSent += sent
	t.st = stFree
	t.done = nil
	t.path = nil
	e.free = append(e.free, t.slot)
}

func (e *Engine) alloc() *transfer {
	if n := len(e.free); n > 0 {
		s := e.free[n-1]
		e.free = e.free[:n-1]
		return e.slots[s]
	}
	t := &transfer{slot: int32(len(e.slots))}
	e.slots = append(e.slots, t)
	return t
}

// activate makes t compete for bandwidth from now.
func (e *Engine) activate(t *transfer) {
	now := e.sim.Now()
	t.start, t.last = now, now
	e.actSeq++
	t.seq = e.actSeq
	if t.size == 0 || len(t.path) == 0 {
		// Nothing to share: the last byte leaves now.
		t.st = stDraining
		e.sim.Schedule(now+t.prop, e, kindDone, nil, int64(t.slot))
		return
	}
	t.st = stActive
	e.active++
	t.prevAct, t.nextAct = e.last, nil
	if e.last != nil {
		e.last.nextAct = t
	} else {
		e.first = t
	}
	e.last = t
	for i, l := range t.path {
		ls := &e.links[l]
		t.pos[i] = int32(len(ls.trs))
		ls.trs = append(ls.trs, t)
		e.markDirty(l)
	}
	e.requestFlush()
}

// depart removes t from bandwidth allocation: its last byte has been sent.
func (e *Engine) depart(t *transfer) {
	for i, l := range t.path {
		ls := &e.links[l]
		p := t.pos[i]
		last := len(ls.trs) - 1
		if ls.trs[p] != t {
			panic("fluid: link membership corrupted")
		}
		if int(p) != last {
			m := ls.trs[last]
			ls.trs[p] = m
			m.setPos(l, p)
		}
		ls.trs[last] = nil
		ls.trs = ls.trs[:last]
		t.pos[i] = -1
		e.markDirty(l)
	}
	if t.prevAct != nil {
		t.prevAct.nextAct = t.nextAct
	} else {
		e.first = t.nextAct
	}
	if t.nextAct != nil {
		t.nextAct.prevAct = t.prevAct
	} else {
		e.last = t.prevAct
	}
	t.prevAct, t.nextAct = nil, nil
	e.active--
	t.st = stDraining
	t.rate = 0
}

// setPos records that t sits at index p of link l's list.
func (t *transfer) setPos(l netsim.LinkID, p int32) {
	for i, pl := range t.path {
		if pl == l {
			t.pos[i] = p
			return
		}
	}
	panic("fluid: transfer not on link it was listed on")
}

func (e *Engine) markDirty(l netsim.LinkID) {
	ls := &e.links[l]
	if !ls.dirty {
		ls.dirty = true
		e.dirty = append(e.dirty, int32(l))
	}
}

// requestFlush arranges one recomputation at the current instant.
func (e *Engine) requestFlush() {
	if e.busy {
		return // the running handler flushes before it returns
	}
	now := e.sim.Now()
	if e.flushAt == now {
		return
	}
	e.flushAt = now
	e.sim.Schedule(now, e, kindFlush, nil, 0)
}

// HandleEvent implements netsim.Handler for the engine's own events.
func (e *Engine) HandleEvent(ev netsim.Event) {
	switch ev.Kind {
	case kindComplete:
		e.completeDue()
	case kindStart:
		t := e.slots[ev.Arg]
		if t.st != stPending {
			panic("fluid: start event for a transfer not pending")
		}
		if t.cancelled {
			e.release(t, 0)
			return
		}
		e.activate(t)
	case kindDone:
		e.finishDone(e.slots[ev.Arg])
	case kindFlush:
		if e.flushAt == ev.At {
			e.flushAt = -1
		}
		e.flush()
	}
}

// completeDue retires every transfer whose projected completion is now,
// then recomputes the rates of the transfers that shared links with them.
func (e *Engine) completeDue() {
	now := e.sim.Now()
	e.busy = true
	e.doneBuf = e.doneBuf[:0]
	for {
		it, ok := e.tree.Min()
		if !ok || it.at > now {
			break
		}
		e.tree.DeleteMin()
		t := it.t
		if !live(it) {
			if e.stale > 0 {
				e.stale--
			}
			continue
		}
		t.inTree = false
		if t.finish > now {
			// The projection moved later since this entry was queued.
			if t.finish != netsim.Never {
				e.tree.ReplaceOrInsert(item{at: t.finish, id: t.id, t: t})
				t.entryAt, t.inTree = t.finish, true
			}
			continue
		}
		e.advance(t)
		e.settle(t)
		e.depart(t)
		if t.prop == 0 {
			e.doneBuf = append(e.doneBuf, t)
		} else {
			e.sim.Schedule(now+t.prop, e, kindDone, nil, int64(t.slot))
		}
	}
	for i, t := range e.doneBuf {
		e.doneBuf[i] = nil
		e.finishDone(t) // may Send: arrivals join this flush
	}
	e.busy = false
	e.flush()
	e.rearm()
}

// settle checks that t really has sent its bytes at completion and records
// the rounding residue.
func (e *Engine) settle(t *transfer) {
	r := t.remaining
	// One picosecond at t's rate is the ceil rounding slack; 1e-9 of the
	// size covers float64 accumulation over many rate changes.
	tol := t.rate/bitsPerByteps + 1e-9*float64(t.size) + 1e-6
	if r > tol || r < -tol {
		panic(fmt.Sprintf("fluid: conservation: transfer %d completed with %g of %d bytes unsent", t.id, r, t.size))
	}
	if r < 0 {
		r = -r
	}
	if r > e.maxResidual {
		e.maxResidual = r
	}
	t.remaining = 0
}

// finishDone delivers t's last byte: the books are updated, the slot is
// freed and done is called.
func (e *Engine) finishDone(t *transfer) {
	if t.st != stDraining {
		panic("fluid: done for a transfer that has not finished sending")
	}
	if t.cancelled {
		e.release(t, t.size)
		return
	}
	done := t.done
	e.completed++
	e.pending--
	e.delivered += t.size
	t.st = stFree
	t.done = nil
	t.path = nil
	e.free = append(e.free, t.slot)
	if done != nil {
		done()
	}
}

// advance brings t's remaining bytes up to now at its current rate.
func (e *Engine) advance(t *transfer) {
	now := e.sim.Now()
	if dt := now - t.last; dt > 0 && t.rate > 0 {
		t.remaining -= t.rate * float64(dt) / bitsPerByteps
	}
	t.last = now
}
