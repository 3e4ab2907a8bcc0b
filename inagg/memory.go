package inagg

import (
	"fmt"

	"syncsim/netsim"
)

// AggregatorBytes is the switch memory one aggregator takes: ATP's 248 B of
// payload (62 32-bit registers) plus 8 B of metadata (a 32-bit worker
// bitmap and a 32-bit key identifying the job and sequence). A 10 MiB
// switch (the ~10 MB of a Wedge 100BF-32X, PA-ATP Sec. I) then holds
// 40960 aggregators, the "M = 40K" of Sec. III-C.
const AggregatorBytes netsim.Bytes = 256

// aggregator states.
const (
	aggFree   uint8 = iota
	aggHashed       // holds a (job, seq) of a hashed-aggregator protocol
	aggPool         // reserved for a SwitchML job's slot pool
)

// aggregator is one aggregator's registers.
type aggregator struct {
	seq    int64  // sequence held (hashed) or in the slot copy (pool)
	value  int64  // running sum
	bitmap uint64 // contributing workers
	job    int32  // owning job
	state  uint8
	ce     bool // some contribution arrived CE-marked (ATP echoes it)
	done   bool // pool copy: result sent
}

// Memory is a switch's aggregator array: M aggregators shared by the
// hashed protocols (index from Aggregator.asyncIndex) and by the slot pools
// SwitchML jobs reserve. It keeps the occupancy over time: aggregators in
// use, and those plus the overflow AECN counts (Aggregator.Occupancy).
type Memory struct {
	a        []aggregator
	used     int // hashed aggregators in use
	reserved int // aggregators reserved by slot pools
	peak     int

	sim      *netsim.Sim
	lastT    netsim.Time
	area     float64 // integral of used over time, aggregator-picoseconds
	ovf      int64   // the AECN overflow term (Aggregator.Overflowed)
	occArea  float64 // integral of used + ovf over time
	occPeak  int64   // largest used + ovf so far
	areaFrom netsim.Time
}

func newMemory(sim *netsim.Sim, m int) *Memory {
	return &Memory{a: make([]aggregator, m), sim: sim, lastT: sim.Now(), areaFrom: sim.Now()}
}

// Size is M, the number of aggregators.
func (m *Memory) Size() int { return len(m.a) }

// Used is the number of hashed aggregators holding a partial aggregate.
func (m *Memory) Used() int { return m.used }

// Reserved is the number of aggregators reserved by slot pools.
func (m *Memory) Reserved() int { return m.reserved }

// Peak is the largest Used so far.
func (m *Memory) Peak() int { return m.peak }

// MeanUsed is the time average of Used since creation or ResetMean.
func (m *Memory) MeanUsed() float64 {
	m.advance()
	d := m.sim.Now() - m.areaFrom
	if d <= 0 {
		return float64(m.used)
	}
	return m.area / float64(d)
}

// MeanOccupancy is the time average of Used plus the AECN overflow term
// (Aggregator.Occupancy) since creation or ResetMean.
func (m *Memory) MeanOccupancy() float64 {
	m.advance()
	d := m.sim.Now() - m.areaFrom
	if d <= 0 {
		return float64(m.used) + float64(m.ovf)
	}
	return m.occArea / float64(d)
}

// ResetMean restarts the time averages now.
func (m *Memory) ResetMean() {
	m.advance()
	m.area, m.occArea, m.areaFrom = 0, 0, m.sim.Now()
}

func (m *Memory) advance() {
	now := m.sim.Now()
	dt := float64(now - m.lastT)
	m.area += float64(m.used) * dt
	m.occArea += float64(int64(m.used)+m.ovf) * dt
	m.lastT = now
}

// PeakOccupancy is the largest Used plus the AECN overflow term so far.
func (m *Memory) PeakOccupancy() int64 { return m.occPeak }

// setOverflow sets the AECN overflow term from now on.
func (m *Memory) setOverflow(n int64) {
	m.advance()
	m.ovf = n
	m.occPeak = max(m.occPeak, int64(m.used)+m.ovf)
}

func (m *Memory) allocate(i int, job int32, seq int64) *aggregator {
	m.advance()
	m.used++
	if m.used > m.peak {
		m.peak = m.used
	}
	m.occPeak = max(m.occPeak, int64(m.used)+m.ovf)
	a := &m.a[i]
	*a = aggregator{seq: seq, job: job, state: aggHashed}
	return a
}

func (m *Memory) release(i int) {
	m.advance()
	m.used--
	m.a[i] = aggregator{}
}

// reserve finds n contiguous free aggregators for job and returns the
// first index.
func (m *Memory) reserve(job int32, n int) (int, error) {
	run := 0
	for i := range m.a {
		if m.a[i].state != aggFree {
			run = 0
			continue
		}
		run++
		if run == n {
			base := i - n + 1
			for k := base; k <= i; k++ {
				m.a[k] = aggregator{job: job, state: aggPool, seq: -1}
			}
			m.reserved += n
			return base, nil
		}
	}
	return 0, fmt.Errorf("inagg: no %d contiguous free aggregators for job %d's slot pool (M = %d, %d in use, %d reserved)",
		n, job, len(m.a), m.used, m.reserved)
}

// unreserve frees a pool.
func (m *Memory) unreserve(base, n int) {
	for k := base; k < base+n; k++ {
		m.a[k] = aggregator{}
	}
	m.reserved -= n
}

// heldBy counts the hashed aggregators job holds.
func (m *Memory) heldBy(job int32) int {
	n := 0
	for i := range m.a {
		if m.a[i].state == aggHashed && m.a[i].job == job {
			n++
		}
	}
	return n
}

// hashIndex is the IndexHash aggregator index for (job, seq): hash mod M.
func hashIndex(job int32, seq int64, m int) int {
	return int(netsim.Hash64(uint64(job)<<40^0x41_5450, uint64(seq)) % uint64(m))
}
