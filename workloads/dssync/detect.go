package dssync

import (
	"fmt"
	"math"

	"syncsim/netsim"
)

// Detector senses dynamic contention from the job's own transfers, as
// DS-Sync's commRecord() does (Pseudo Code 1, line 24: "track and record
// communication cost for the group adjustment"). The paper leaves the
// test open; our reading:
//
// Every transfer of at least MinBytes is timed from its start (after the
// per-message latency) to its arrival. Over a window (the iterations since
// the last decision) the throughput between two workers of one rack is the
// bytes they sent each other over the time those transfers took. A worker
// is end-host contended when its throughput with every rack-mate it
// exchanged with fell below Threshold times the reference: the best
// throughput any two rack-mates achieved in the window (the NIC rate
// topology detection reported, less what the transport costs; the NIC
// rate itself if no pair was seen). A co-located task slows all of the
// worker's
// exchanges, while a regular worker that happened to exchange with a
// contended one is fast with its other partners (DS-Sync's rotation gives
// every worker several partners within a window). Throughput over the
// window, rather than the best transfer, catches a competitor that is busy
// only part of the time. A rack is inter-rack contended when the
// throughput of transfers leaving it and of those entering it, leaving out
// those of contended workers, both fall below Threshold times the
// uncontended inter-rack rate (the slower of a host link and the rack's
// uplink, scaled by the same transport efficiency: static
// oversubscription is not contention; initGroups handles it). What was not
// observed in the window does not count as slow.
type Detector struct {
	Threshold float64 // fraction of the reference rate below which a worker or rack is contended
	MinBytes  netsim.Bytes
	rackOf    []int // worker -> rack
	workerOf  map[netsim.NodeID]int
	nicRef    float64   // bits/s
	interRef  []float64 // per rack, bits/s
	bytes     []float64 // [src*n+dst]: bytes this window
	secs      []float64 // [src*n+dst]: transfer seconds this window
}

// DefaultThreshold flags a worker or rack whose throughput over a window
// fell below 85 percent of the reference. On the flow engine a competing
// flow takes half a link while it is active; on the packet engine a
// co-located DCTCP flow that also crosses a marking uplink backs off and
// takes only 20-25 percent of the shared NIC (measured: the contended
// worker's exchanges ran at 0.80 of the best pair's throughput).
const DefaultThreshold = 0.85

// DefaultMinBytes leaves out transfers whose time is mostly latency.
const DefaultMinBytes = 256 * netsim.Kilobyte

// NewDetector watches a job whose worker w runs on hosts[w] in rack
// l.RackOf()[w], with host links of nic and rack uplinks uplinks[r].
func NewDetector(l Layout, hosts []netsim.NodeID, nic netsim.Rate, uplinks []netsim.Rate, threshold float64) (*Detector, error) {
	if len(hosts) != l.Workers() {
		return nil, fmt.Errorf("detector: %d hosts for %d workers", len(hosts), l.Workers())
	}
	if len(uplinks) != len(l) {
		return nil, fmt.Errorf("detector: %d uplinks for %d racks", len(uplinks), len(l))
	}
	if !(threshold > 0 && threshold <= 1) {
		return nil, fmt.Errorf("detector: threshold %g, want 0 < threshold <= 1", threshold)
	}
	n := len(hosts)
	d := &Detector{Threshold: threshold, MinBytes: DefaultMinBytes, rackOf: l.RackOf(), workerOf: map[netsim.NodeID]int{},
		nicRef: float64(nic), interRef: make([]float64, len(l)), bytes: make([]float64, n*n), secs: make([]float64, n*n)}
	for w, h := range hosts {
		d.workerOf[h] = w
	}
	for r, u := range uplinks {
		d.interRef[r] = math.Min(float64(nic), float64(u))
	}
	return d, nil
}

// Observe records a transfer of size bytes from src to dst that moved in
// dur (start latency excluded).
func (d *Detector) Observe(src, dst netsim.NodeID, size netsim.Bytes, dur netsim.Time) {
	if size < d.MinBytes || dur <= 0 {
		return
	}
	ws, ok1 := d.workerOf[src]
	wd, ok2 := d.workerOf[dst]
	if !ok1 || !ok2 {
		return
	}
	i := ws*len(d.rackOf) + wd
	d.bytes[i] += float64(size)
	d.secs[i] += dur.Seconds()
}

// Detect returns the contention seen in the window and starts a new
// window.
func (d *Detector) Detect() Contention {
	n := len(d.rackOf)
	var c Contention
	delayed := make([]bool, n)
	ref := 0.0 // best pair throughput within a rack, bits/s
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if d.rackOf[a] == d.rackOf[b] {
				if s := d.secs[a*n+b] + d.secs[b*n+a]; s > 0 {
					ref = math.Max(ref, (d.bytes[a*n+b]+d.bytes[b*n+a])*8/s)
				}
			}
		}
	}
	eff := 1.0
	if ref > 0 {
		eff = math.Min(1, ref/d.nicRef)
	}
	for w := 0; w < n; w++ {
		seen, slow := 0, 0
		for v := 0; v < n; v++ {
			if v == w || d.rackOf[v] != d.rackOf[w] {
				continue
			}
			b, s := d.bytes[w*n+v]+d.bytes[v*n+w], d.secs[w*n+v]+d.secs[v*n+w]
			if s > 0 {
				seen++
				if low(b, s, eff*d.nicRef, d.Threshold) {
					slow++
				}
			}
		}
		if seen > 0 && slow == seen {
			delayed[w] = true
			c.Workers = append(c.Workers, w)
		}
	}
	for r := range d.interRef {
		var ub, us, db, ds float64
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				if delayed[a] || delayed[b] || d.rackOf[a] == d.rackOf[b] {
					continue
				}
				if d.rackOf[a] == r {
					ub, us = ub+d.bytes[a*n+b], us+d.secs[a*n+b]
				}
				if d.rackOf[b] == r {
					db, ds = db+d.bytes[a*n+b], ds+d.secs[a*n+b]
				}
			}
		}
		if low(ub, us, eff*d.interRef[r], d.Threshold) && low(db, ds, eff*d.interRef[r], d.Threshold) {
			c.Racks = append(c.Racks, r)
		}
	}
	clear(d.bytes)
	clear(d.secs)
	return c
}

// low reports a throughput of bytes over secs (none observed: not low)
// below threshold times ref bits/s.
func low(bytes, secs, ref, threshold float64) bool {
	return secs > 0 && bytes*8/secs < threshold*ref
}

// timedBulk times every transfer of a job for a Detector.
type timedBulk struct {
	inner netsim.Bulk
	sim   *netsim.Sim
	det   *Detector
}

// Send implements netsim.Bulk.
func (b *timedBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	start := b.sim.Now() + opts.StartLatency
	b.inner.Send(src, dst, size, opts, func() {
		b.det.Observe(src, dst, size, b.sim.Now()-start)
		done()
	})
}

// Adaptive is DS-Sync's Grouper: the pattern of AdjustGroups for the
// contention in force, re-detected every Every iterations (Pseudo Code 1,
// lines 8-10: "adjust the grouping according to dynamic bandwidth
// variations in every 100 iterations"). The pattern changes only when the
// detected contention differs from the one in force ("if t % period == 0
// and bandwidth changes"), and iteration t uses phase t mod B of the
// pattern in force (line 21). With Detect nil the pattern never changes.
type Adaptive struct {
	Layout Layout
	Every  int
	Detect func() Contention
	// Current is the contention the pattern in force was built for;
	// Adjustments counts the changes.
	Current     Contention
	Pattern     Pattern
	Adjustments int
	last        int
}

// NewAdaptive starts from the pattern for the contention given up front
// (empty: initGroups).
func NewAdaptive(l Layout, given Contention, every int, detect func() Contention) (*Adaptive, error) {
	p, err := AdjustGroups(l, given)
	if err != nil {
		return nil, err
	}
	if detect != nil && every < 1 {
		return nil, fmt.Errorf("adjust_every %d, need at least 1", every)
	}
	return &Adaptive{Layout: l, Every: every, Detect: detect, Current: given, Pattern: p}, nil
}

// GroupsAt implements Grouper.
func (a *Adaptive) GroupsAt(t int) Grouping {
	if a.Detect != nil && t > a.last && t%a.Every == 0 {
		a.last = t
		if c := a.Detect(); !c.Equal(a.Current) {
			p, err := AdjustGroups(a.Layout, c)
			if err != nil {
				panic("dssync: detected contention outside the layout: " + err.Error())
			}
			a.Current, a.Pattern = c, p
			a.Adjustments++
		}
	}
	return a.Pattern.At(t)
}
