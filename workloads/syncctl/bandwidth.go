package syncctl

import (
	"fmt"
	"math"

	"syncsim/netsim"
	"syncsim/workloads/training"
)

// BandwidthSchedule is every worker's true available bandwidth over time,
// piecewise constant over epochs [e Period, (e+1) Period). The controller
// of Alg. 3 reads the values in force at each pass (line 9,
// GetUpdatedBandwidthForAllWorkers); the executors move data at them.
type BandwidthSchedule interface {
	// Period is the epoch length; 0 means the bandwidths never change.
	Period() netsim.Time
	// Epoch returns the bandwidths (bits/s) during epoch e >= 0. The slice
	// is shared and must not be modified.
	Epoch(e int) []float64
}

// TimedSchedule is a BandwidthSchedule whose epochs start at times of
// their own (a measured trace) rather than every Period; its Period is 0.
type TimedSchedule interface {
	BandwidthSchedule
	// EpochStart is when epoch e begins (0 for e = 0), or netsim.Never
	// past the last epoch.
	EpochStart(e int) netsim.Time
}

// Trace adapts a training.BWTrace (Gbps, seconds) to a TimedSchedule.
func Trace(t *training.BWTrace) TimedSchedule {
	s := &trace{t: t}
	for e := 0; e < t.Epochs(); e++ {
		g := t.Epoch(e)
		b := make([]float64, len(g))
		for i, x := range g {
			b[i] = x * 1e9
		}
		s.bps = append(s.bps, b)
		s.starts = append(s.starts, netsim.FromSeconds(t.Start(e)))
	}
	return s
}

type trace struct {
	t      *training.BWTrace
	bps    [][]float64
	starts []netsim.Time
}

func (s *trace) Period() netsim.Time { return 0 }

func (s *trace) Epoch(e int) []float64 { return s.bps[min(e, len(s.bps)-1)] }

func (s *trace) EpochStart(e int) netsim.Time {
	if e >= len(s.starts) {
		return netsim.Never
	}
	return s.starts[e]
}

// Process adapts a training.BWProcess (Gbps, seconds) to a
// BandwidthSchedule (bits/s, netsim.Time).
func Process(p *training.BWProcess) BandwidthSchedule {
	return &process{p: p, period: netsim.FromSeconds(p.Period())}
}

type process struct {
	p      *training.BWProcess
	period netsim.Time
	bps    [][]float64 // converted epochs, in order
}

func (s *process) Period() netsim.Time { return s.period }

func (s *process) Epoch(e int) []float64 {
	if s.period == 0 {
		e = 0
	}
	for len(s.bps) <= e {
		g := s.p.Epoch(len(s.bps))
		b := make([]float64, len(g))
		for i, x := range g {
			b[i] = x * 1e9
		}
		s.bps = append(s.bps, b)
	}
	return s.bps[e]
}

// checkBandwidths checks that there is at least one worker and that every
// bandwidth is positive and finite.
func checkBandwidths(bw []float64) error {
	if len(bw) < 1 {
		return fmt.Errorf("cluster: no workers")
	}
	for i, b := range bw {
		if !(b > 0) || math.IsInf(b, 0) {
			return fmt.Errorf("cluster: worker %d bandwidth %g, want > 0", i, b)
		}
	}
	return nil
}

// varying reports whether the bandwidths change during the run.
func (c *Cluster) varying() bool { return c.period > 0 || c.timed != nil }

// epochStart is when epoch e begins (netsim.Never if it never does).
func (c *Cluster) epochStart(e int) netsim.Time {
	if c.timed != nil {
		return c.timed.EpochStart(e)
	}
	if c.period == 0 {
		if e == 0 {
			return 0
		}
		return netsim.Never
	}
	return netsim.Time(e) * c.period
}

// epochAt is the epoch in force at time t.
func (c *Cluster) epochAt(t netsim.Time) int {
	if c.timed != nil {
		e := 0
		for c.timed.EpochStart(e+1) <= t {
			e++
		}
		return e
	}
	if c.period == 0 {
		return 0
	}
	return int(t / c.period)
}

// bandwidthsAt returns the true bandwidths (bits/s) during epoch e.
func (c *Cluster) bandwidthsAt(e int) []float64 {
	if c.cfg.Schedule == nil {
		return c.cfg.BW
	}
	return c.cfg.Schedule.Epoch(e)
}

// nextEpoch moves the cluster to the next bandwidth epoch (an evBandwidth
// event) and tells Config.OnBandwidth, so that a network executor can
// re-rate its links.
func (c *Cluster) nextEpoch() {
	c.epoch++
	c.bw = c.bandwidthsAt(c.epoch)
	if c.cfg.OnBandwidth != nil {
		c.cfg.OnBandwidth(c.epoch, c.bw)
	}
	c.scheduleEpoch()
}

// scheduleEpoch schedules the next bandwidth change, if any falls within
// the run and some worker can still become ready (see busy).
func (c *Cluster) scheduleEpoch() {
	if !c.varying() || !c.busy() {
		return
	}
	at := c.epochStart(c.epoch + 1)
	if at == netsim.Never || (c.cfg.Duration > 0 && at >= c.cfg.Duration) {
		return
	}
	c.sim.Schedule(at, c, evBandwidth, nil, 0)
}

// analyticEnd is when an all-reduce of group launched now ends under the
// cost model when bandwidths change over time: the bandwidth term of Eq. 2
// is a volume (2(m-1)/m v bits for the ring, 2v for the approximation)
// that the group's slowest worker moves at its bandwidth in force, epoch
// by epoch, so the group finishes when the integral of
// min_{i in g} b_i(t) reaches it; the latency term 2(m-1) alpha (2m alpha)
// is added at the end. With constant bandwidths this is Eq. 2 exactly.
// ok is false when the end lies past the clock's end (netsim.Later) or
// the volume is not moved by the run's Duration.
func (c *Cluster) analyticEnd(group []int, bytes float64) (at netsim.Time, ok bool) {
	lat, vol := c.cfg.Cost.Split(len(group), bytes, c.cfg.Alpha)
	now := c.sim.Now()
	t := now.Seconds()
	for e := c.epochAt(now); vol > 0; e++ {
		bw := c.bandwidthsAt(e)
		b := math.Inf(1)
		for _, w := range group {
			b = math.Min(b, bw[w])
		}
		end := math.Inf(1)
		next := c.epochStart(e + 1)
		if next != netsim.Never {
			end = next.Seconds()
		}
		if vol <= b*(end-t) {
			t += vol / b
			break
		}
		if c.cfg.Duration > 0 && next >= c.cfg.Duration {
			// It ends after the run: the epochs past the run's end need
			// not be drawn (a 1e7 MB model over epochs of 1 ms would
			// draw billions).
			return netsim.Never, false
		}
		vol -= b * (end - t)
		t = end
	}
	return netsim.Later(0, t+lat)
}
