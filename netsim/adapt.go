package netsim

import "math/bits"

// adaptEvery is how many buckets the calendar empties, plus keys it pops
// from the overflow heap, between looks at its geometry.
const adaptEvery = 1 << 13

// Bounds of the ring: 64 buckets (one bitmap word) to 65,536.
const (
	calMinLog = 6
	calMaxLog = 16
)

// adaptation is what the calendar notes between two looks at its
// geometry: how far ahead of the window's start keys were pushed (a
// histogram of log2 picoseconds), how many went to the overflow heap for
// lying beyond the window or for a full bucket, and the most keys the
// ring held.
type adaptation struct {
	pops   int // buckets emptied and overflow keys popped
	pushes int
	beyond int
	full   int
	maxN   int
	ahead  [64]uint32
	// scratch is reused by rebuilds.
	scratch []key
}

// note records a key pushed at, ahead of the window's start.
func (a *adaptation) note(at, start Time) {
	a.ahead[bits.Len64(uint64(at-start))&63]++
	a.pushes++
}

// adapt sets the geometry from what the last period saw, in the spirit
// of Brown's resize rule but from the workload's own distances rather
// than a sample of gaps:
//   - the window (buckets x width) covers the distance ahead of its
//     start within which 99 % of the pushes fell, rounded up to a power
//     of two;
//   - the ring has at least twice as many buckets as the most keys it
//     held, and shrinks only when it has four times more than that.
//
// When the geometry changes the ring and the burst heap are rebuilt from
// now (keys in the overflow heap stay there and fire from it in order). The geometry
// depends only on the events, so it is the same on every run of the same
// model, and which structure holds a key never changes the order.
func (c *calendar) adapt(now Time) {
	a := &c.ad
	a.pops = 0
	total := a.pushes + a.beyond
	if total == 0 {
		a.reset(c.len())
		return
	}
	logN := uint(bits.Len64(uint64(c.mask)))
	// Keys beyond the window were at least 1<<win ahead.
	win := logN + c.shift
	counts := a.ahead
	counts[min(win+1, 63)] += uint32(a.beyond)
	need := total - total/100
	b, sum := uint(0), 0
	for ; b < 63; b++ {
		if sum += int(counts[b]); sum >= need {
			break
		}
	}
	// Keys in histogram bucket b were below 1<<b ps ahead.
	busiest := max(a.maxN, c.len())
	c.small = busiest < c.below
	want := uint(bits.Len(uint(busiest))) + 1 // >= 2 x keys
	if want > logN || want+2 <= logN {
		logN = want
	}
	logN = min(max(logN, calMinLog), calMaxLog)
	shift := uint(0)
	if b > logN {
		shift = b - logN
	}
	a.reset(c.len())
	if logN == uint(bits.Len64(uint64(c.mask))) && shift == c.shift {
		return
	}
	ks := c.drain(a.scratch[:0])
	c.resize(logN, shift, now)
	for _, k := range ks {
		c.push(k)
	}
	a.scratch = ks[:0]
	a.reset(c.len())
}

// reset starts a new period with n keys held.
func (a *adaptation) reset(n int) {
	a.pushes, a.beyond, a.full, a.maxN = 0, 0, 0, n
	clear(a.ahead[:])
}
