package switchmodel

import (
	"math/bits"

	"syncsim/netsim"
)

// timeAvg integrates a piecewise-constant occupancy over virtual time.
// Areas are kept exactly in 128-bit integers (byte-picoseconds overflow
// int64 after about 10 s at 1 MB).
type timeAvg struct {
	start, last netsim.Time
	curB        netsim.Bytes
	curN        int
	areaB       u128
	areaN       u128
}

type u128 struct{ hi, lo uint64 }

func (a *u128) addMul(x, y uint64) {
	hi, lo := bits.Mul64(x, y)
	var c uint64
	a.lo, c = bits.Add64(a.lo, lo, 0)
	a.hi, _ = bits.Add64(a.hi, hi, c)
}

func (a u128) float() float64 { return float64(a.hi)*0x1p64 + float64(a.lo) }

func (t *timeAvg) reset(now netsim.Time, b netsim.Bytes, n int) {
	*t = timeAvg{start: now, last: now, curB: b, curN: n}
}

// update accounts the current level up to now, then sets the new level.
func (t *timeAvg) update(now netsim.Time, b netsim.Bytes, n int) {
	if dt := now - t.last; dt > 0 {
		t.areaB.addMul(uint64(t.curB), uint64(dt))
		t.areaN.addMul(uint64(t.curN), uint64(dt))
		t.last = now
	}
	t.curB, t.curN = b, n
}

func (t *timeAvg) mean(now netsim.Time, bytes bool) float64 {
	span := now - t.start
	if span <= 0 {
		if bytes {
			return float64(t.curB)
		}
		return float64(t.curN)
	}
	a := t.areaN
	cur := uint64(t.curN)
	if bytes {
		a, cur = t.areaB, uint64(t.curB)
	}
	if now > t.last {
		a.addMul(cur, uint64(now-t.last))
	}
	return a.float() / float64(span)
}

// MeanPackets is the time-averaged number of waiting packets from creation
// (or the last ResetStats) until now.
func (q *PortQueue) MeanPackets(now netsim.Time) float64 { return q.avg.mean(now, false) }

// MeanBytes is the time-averaged occupancy in bytes from creation (or the
// last ResetStats) until now.
func (q *PortQueue) MeanBytes(now netsim.Time) float64 { return q.avg.mean(now, true) }

// ResetStats zeroes the counters and restarts the time average at now, so a
// warm-up period can be excluded. Maxima restart from the current occupancy.
// The series, if any, is kept.
func (q *PortQueue) ResetStats(now netsim.Time) {
	q.Enqueued, q.EnqueuedBytes, q.Dequeued = 0, 0, 0
	q.Dropped, q.DroppedBytes, q.Marked = 0, 0, 0
	q.ControlEnqueued, q.ControlDropped = 0, 0
	q.MaxBytes, q.MaxPackets = q.Bytes(), q.Len()
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
