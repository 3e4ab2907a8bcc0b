package switchmodel

import (
	"math/bits"

	"syncsim/netsim"
)

// timeAvg integrates a piecewise-constant occupancy over virtual time
// lazily: the area under the occupancy from start to t is the sum over
// packets of the time each spent in the queue within [start, t], so an
// arrival at time a subtracts a (and size x a) and a departure at time d
// adds d (and size x d); at t the packets still waiting add t each. Every
// enqueue and dequeue therefore costs one multiply-add, with no branch and
// no record of the last change. Sums are kept exactly in 128-bit two's
// complement (byte-picoseconds overflow int64 after about 10 s at 1 MB):
// the partial sums may be negative, the area they give never is.
type timeAvg struct {
	areaB i128 // sum of -size x arrival + size x departure (+ held bytes x start offset)
	areaN i128 // the same in packets
}

// i128 is a 128-bit two's-complement integer.
type i128 struct{ hi, lo uint64 }

func (a *i128) addMul(x, y uint64) {
	hi, lo := bits.Mul64(x, y)
	var c uint64
	a.lo, c = bits.Add64(a.lo, lo, 0)
	a.hi, _ = bits.Add64(a.hi, hi, c)
}

func (a *i128) subMul(x, y uint64) {
	hi, lo := bits.Mul64(x, y)
	var b uint64
	a.lo, b = bits.Sub64(a.lo, lo, 0)
	a.hi, _ = bits.Sub64(a.hi, hi, b)
}

func (a *i128) add(x uint64) {
	var c uint64
	a.lo, c = bits.Add64(a.lo, x, 0)
	a.hi += c
}

func (a *i128) sub(x uint64) {
	var b uint64
	a.lo, b = bits.Sub64(a.lo, x, 0)
	a.hi -= b
}

// float converts a non-negative value.
func (a i128) float() float64 { return float64(a.hi)*0x1p64 + float64(a.lo) }

// reset restarts the average at now with b bytes in n packets held (the
// queue keeps the start time itself, off the per-packet lines).
func (t *timeAvg) reset(now netsim.Time, b netsim.Bytes, n int) {
	*t = timeAvg{}
	t.areaB.subMul(uint64(b), uint64(now))
	t.areaN.subMul(uint64(n), uint64(now))
}

// arrive accounts a packet of size bytes joining the queue at now.
func (t *timeAvg) arrive(now netsim.Time, size netsim.Bytes) {
	t.areaB.subMul(uint64(size), uint64(now))
	t.areaN.sub(uint64(now))
}

// depart accounts a packet of size bytes leaving the queue at now.
func (t *timeAvg) depart(now netsim.Time, size netsim.Bytes) {
	t.areaB.addMul(uint64(size), uint64(now))
	t.areaN.add(uint64(now))
}

// mean is the time average from start to now, given what the queue holds
// at now (cur: bytes or packets, matching the bytes flag).
func (t *timeAvg) mean(start, now netsim.Time, cur uint64, bytes bool) float64 {
	span := now - start
	if span <= 0 {
		return float64(cur)
	}
	a := t.areaN
	if bytes {
		a = t.areaB
	}
	a.addMul(cur, uint64(now))
	return a.float() / float64(span)
}

// MeanPackets is the time-averaged number of waiting packets from creation
// (or the last ResetStats) until now.
func (q *PortQueue) MeanPackets(now netsim.Time) float64 {
	q.settle()
	return q.avg.mean(q.avgStart, now, uint64(q.n), false)
}

// MeanBytes is the time-averaged occupancy in bytes from creation (or the
// last ResetStats) until now.
func (q *PortQueue) MeanBytes(now netsim.Time) float64 {
	q.settle()
	return q.avg.mean(q.avgStart, now, uint64(q.bytes), true)
}

// ResetStats zeroes the counters and restarts the time average at now, so a
// warm-up period can be excluded. Maxima restart from the current occupancy.
// The series, if any, is kept.
func (q *PortQueue) ResetStats(now netsim.Time) {
	q.settle()
	q.Enqueued, q.EnqueuedBytes, q.Dequeued = 0, 0, 0
	q.Dropped, q.DroppedBytes, q.Marked = 0, 0, 0
	q.ControlEnqueued, q.ControlDropped = 0, 0
	q.MaxBytes, q.MaxPackets = q.Bytes(), q.Len()
	q.avgStart = now
	q.avg.reset(now, q.Bytes(), q.Len())
}

// Sample is one point of a queue time series.
type Sample struct {
	At      netsim.Time
	Bytes   netsim.Bytes
	Packets int
}

// Series records a queue's occupancy over time, either at every change
// (Interval 0) or on a fixed grid of Interval (the exact value holding at
// each grid time, filled in lazily when the queue next changes, so no
// events are scheduled).
type Series struct {
	Interval netsim.Time
	Samples  []Sample

	next netsim.Time // next grid time (Interval > 0)
	curB netsim.Bytes
	curN int
}

// EnableSeries starts recording the occupancy from now: every change when
// interval is 0, else one sample every interval. It returns the series,
// whose Samples grow as the simulation runs; call Flush at the end.
func (q *PortQueue) EnableSeries(interval netsim.Time) *Series {
	if interval < 0 {
		interval = 0
	}
	q.settle()
	now := q.sim.Now()
	s := &Series{Interval: interval, next: now, curB: q.Bytes(), curN: q.Len()}
	if interval == 0 {
		s.Samples = append(s.Samples, Sample{now, q.Bytes(), q.Len()})
	}
	q.series = s
	return s
}

// Series returns the queue's series, or nil.
func (q *PortQueue) Series() *Series { return q.series }

// observe is called after every change of the occupancy at time now.
func (s *Series) observe(now netsim.Time, b netsim.Bytes, n int) {
	if s.Interval == 0 {
		if k := len(s.Samples); k > 0 && s.Samples[k-1].At == now {
			s.Samples[k-1] = Sample{now, b, n}
		} else {
			s.Samples = append(s.Samples, Sample{now, b, n})
		}
		return
	}
	for s.next < now {
		s.Samples = append(s.Samples, Sample{s.next, s.curB, s.curN})
		s.next += s.Interval
	}
	s.curB, s.curN = b, n
}

// Flush completes a grid series up to and including now (a change series
// needs no flushing).
func (s *Series) Flush(now netsim.Time) {
	if s.Interval == 0 {
		return
	}
	for s.next <= now {
		s.Samples = append(s.Samples, Sample{s.next, s.curB, s.curN})
		s.next += s.Interval
	}
}
