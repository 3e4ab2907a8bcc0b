package fluid

import (
	"fmt"

	"syncsim/netsim"
)

// relTol is the relative tolerance of the allocation checks (float64
// rates summed over many transfers).
const relTol = 1e-9

// Check verifies the engine's books and allocation at the current instant
// and returns a descriptive error for the first violation:
//
//   - conservation: the sizes of all transfers sent equal the bytes
//     delivered (sizes of completed transfers) plus the sizes of those still
//     pending; counts agree likewise;
//   - every active transfer has 0 <= remaining <= size (bytes advanced to
//     now) and a rate >= 0, and sits on exactly the links of its path;
//   - no link carries more than its capacity;
//   - the allocation is the mode's: under MaxMin every active transfer has
//     a bottleneck, a saturated link on its path where no transfer has a
//     higher rate; under FCFS every active transfer has a link on its path
//     saturated by transfers that became active no later than it, where no
//     transfer of its own rank has a higher rate.
//
// Check costs O(transfers x path length) and is meant for tests and
// optional run-time auditing. Changes made at an instant (Send,
// completions, SetCapacity) are re-rated by an event at that same instant,
// so call Check when none is pending: after Sim.Run returns, or from an
// event scheduled after the changes; not from a done callback or right
// after a Send.
func (e *Engine) Check() error {
	var pendingSize netsim.Bytes
	var nPending, nActive int
	now := e.sim.Now()
	for _, t := range e.slots {
		if t.st == stFree {
			continue
		}
		nPending++
		pendingSize += t.size
		if t.st != stActive {
			continue
		}
		nActive++
		rem := t.remaining
		if dt := now - t.last; dt > 0 {
			rem -= t.rate * float64(dt) / bitsPerByteps
		}
		tol := t.rate/bitsPerByteps + relTol*float64(t.size) + 1e-6
		if rem < -tol || rem > float64(t.size)+tol {
			return fmt.Errorf("transfer %d: %g bytes remaining of %d", t.id, rem, t.size)
		}
		if t.rate < 0 {
			return fmt.Errorf("transfer %d: negative rate %g", t.id, t.rate)
		}
		if t.finish < now || (t.rate > 0) != (t.finish != netsim.Never) {
			return fmt.Errorf("transfer %d: projection %v at rate %g (now %v)", t.id, t.finish, t.rate, now)
		}
		if t.finish != netsim.Never && (!t.inTree || t.entryAt > t.finish) {
			return fmt.Errorf("transfer %d: projection %v not queued (entry %v, queued %v)", t.id, t.finish, t.entryAt, t.inTree)
		}
		for i, l := range t.path {
			p := t.pos[i]
			if p < 0 || int(p) >= len(e.links[l].trs) || e.links[l].trs[p] != t {
				return fmt.Errorf("transfer %d: not listed on link %d of its path", t.id, l)
			}
		}
	}
	if e.sizeSent != e.delivered+e.cancelledSize+pendingSize {
		return fmt.Errorf("byte conservation: sent %d != delivered %d + cancelled %d + pending %d", e.sizeSent, e.delivered, e.cancelledSize, pendingSize)
	}
	if e.cancelledSent > e.cancelledSize {
		return fmt.Errorf("cancelled transfers sent %d bytes of %d", e.cancelledSent, e.cancelledSize)
	}
	if e.sends != e.completed+e.cancels+uint64(nPending) || nPending != e.pending || nActive != e.active {
		return fmt.Errorf("transfer books: sends %d, completed %d, cancelled %d, pending %d (counted %d), active %d (counted %d)",
			e.sends, e.completed, e.cancels, e.pending, nPending, e.active, nActive)
	}
	n, prev := 0, (*transfer)(nil)
	for t := e.first; t != nil; t = t.nextAct {
		if t.st != stActive || t.prevAct != prev || (prev != nil && prev.seq >= t.seq) {
			return fmt.Errorf("active list broken at transfer %d", t.id)
		}
		prev = t
		n++
	}
	if n != e.active || e.last != prev {
		return fmt.Errorf("active list holds %d transfers, %d are active", n, e.active)
	}
	for l := range e.links {
		ls := &e.links[l]
		sum := 0.0
		for _, t := range ls.trs {
			if t.st != stActive {
				return fmt.Errorf("link %d lists transfer %d that is not active", l, t.id)
			}
			sum += t.rate
		}
		if sum > ls.cap*(1+relTol)+1e-6 {
			return fmt.Errorf("link %d: allocated %g bit/s over capacity %g", l, sum, ls.cap)
		}
	}
	for _, t := range e.slots {
		if t.st == stActive && !e.hasBottleneck(t) {
			return fmt.Errorf("transfer %d (rate %g bit/s): no bottleneck link, allocation is not %v", t.id, t.rate, e.mode)
		}
	}
	return nil
}

// hasBottleneck reports whether t has a link on its path that justifies
// its rate under the engine's mode (see Check).
func (e *Engine) hasBottleneck(t *transfer) bool {
	for _, l := range t.path {
		ls := &e.links[l]
		sum, max := 0.0, 0.0
		for _, o := range ls.trs {
			if e.mode != MaxMin && e.ranksAfter(o, t) {
				continue // later ranks do not count against t
			}
			sum += o.rate
			if (e.mode == MaxMin || (o.start == t.start && o.key == t.key)) && o.rate > max {
				max = o.rate
			}
		}
		saturated := sum >= ls.cap*(1-relTol)-1e-6
		if saturated && t.rate >= max*(1-relTol) {
			return true
		}
	}
	return false
}

// ranksAfter reports whether o is served after t under FCFS (later
// activation) or Priority (higher key, or the same key and later
// activation).
func (e *Engine) ranksAfter(o, t *transfer) bool {
	if e.mode == Priority && o.key != t.key {
		return o.key > t.key
	}
	return o.start > t.start
}

// MaxResidual is the largest rounding residue, in bytes, seen when a
// transfer completed (how far its float bookkeeping was from exactly zero
// bytes left); it is bounded by one picosecond at the transfer's rate.
func (e *Engine) MaxResidual() float64 { return e.maxResidual }
