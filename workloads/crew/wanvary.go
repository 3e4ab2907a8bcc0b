package crew

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"syncsim/netsim"
	"syncsim/workloads/training"
)

// CREW's premise is WAN bandwidth that changes while workers train (Sec.
// III: workers "report the states of their WAN connections" to the
// controller, which decides "based on these"); Sec. V draws each b_ij once.
// A Variation makes the real capacities change during a run; the
// controller learns them from probes (Config.Probe).

// BWModel says how the WAN's bandwidths change during a run.
type BWModel uint8

const (
	// BWStatic keeps every b_ij as drawn at time 0 (Sec. V).
	BWStatic BWModel = iota
	// BWRedraw draws every b_ij afresh from the network's law every
	// period.
	BWRedraw
	// BWWalk moves every b_ij by a reflected random walk on its quantile:
	// b_ij = Q(u_ij) with u_ij uniform at time 0 (placed within the atom
	// of the value drawn then), stepping by U[-step, step] every period and
	// reflected at 0 and 1. A reflected symmetric walk keeps u uniform, so
	// every b_ij keeps the network's law at all times while changing
	// gradually.
	BWWalk
	// BWTrace follows a measured per-pair series (TraceRows).
	BWTrace
)

// BWModelNames lists the models as parameters spell them.
var BWModelNames = []string{"static", "redraw", "walk", "trace"}

// ParseBWModel parses a model name.
func ParseBWModel(s string) (BWModel, error) {
	for i, n := range BWModelNames {
		if s == n {
			return BWModel(i), nil
		}
	}
	return 0, fmt.Errorf("unknown bandwidth model %q (allowed: static, redraw, walk, trace)", s)
}

// Law is a network's distribution of b_ij for each directed pair, as a
// quantile function and its inverse on the atoms of a discrete law.
type Law interface {
	// Quantile is the b_ij (bits/s) at cumulative probability u in [0, 1].
	Quantile(i, j int, u float64) float64
	// Atom is the interval of cumulative probability [lo, hi) that maps
	// to b (a value the law takes).
	Atom(i, j int, b float64) (lo, hi float64)
}

// quantile of an empirical distribution at u.
func (e *empirical) quantile(u float64) float64 {
	target := min(int(u*float64(e.total)), e.total-1)
	i, _ := slices.BinarySearch(e.cum, target+1)
	return e.vals[min(i, len(e.vals)-1)]
}

// atom of value v in an empirical distribution.
func (e *empirical) atom(v float64) (lo, hi float64) {
	for k, x := range e.vals {
		if x == v {
			prev := 0
			if k > 0 {
				prev = e.cum[k-1]
			}
			return float64(prev) / float64(e.total), float64(e.cum[k]) / float64(e.total)
		}
	}
	return 0, 1
}

// n1Law is N1's law: the pooled WANify readings, or the readings of each
// pair's regions (Mbit/s, returned in bits/s).
type n1Law struct {
	t        *wanTables
	regions  []int
	sampling N1Sampling
}

// N1Law returns N1's law for workers placed on regions.
func N1Law(regions []int, sampling N1Sampling) (Law, error) {
	t, err := loadTables()
	if err != nil {
		return nil, err
	}
	return &n1Law{t: t, regions: regions, sampling: sampling}, nil
}

func (l *n1Law) dist(i, j int) *empirical {
	if l.sampling == N1Regional && l.regions[i] != l.regions[j] {
		return l.t.perPair[[2]int{l.regions[i], l.regions[j]}]
	}
	return l.t.pooled
}

func (l *n1Law) Quantile(i, j int, u float64) float64 { return l.dist(i, j).quantile(u) * 1e6 }

func (l *n1Law) Atom(i, j int, b float64) (float64, float64) { return l.dist(i, j).atom(b / 1e6) }

// n2Law is N2's law: b = k x 25 Mbit/s, P(k) = P(round(Z) = k | 1 <= k <=
// 10), Z ~ N(5, 1), as N2 draws it.
type n2Law struct{ cum [11]float64 } // cum[k] = P(K <= k)

// N2Law returns N2's law.
func N2Law() Law {
	var l n2Law
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-(x-5)/math.Sqrt2) }
	total := phi(10.5) - phi(0.5)
	for k := 1; k <= 10; k++ {
		l.cum[k] = (phi(float64(k)+0.5) - phi(0.5)) / total
	}
	l.cum[10] = 1
	return &l
}

func (l *n2Law) Quantile(_, _ int, u float64) float64 {
	for k := 1; k <= 10; k++ {
		if u < l.cum[k] {
			return float64(k) * N2Unit
		}
	}
	return 10 * N2Unit
}

func (l *n2Law) Atom(_, _ int, b float64) (float64, float64) {
	k := int(math.Round(b / N2Unit))
	if k < 1 || k > 10 {
		return 0, 1
	}
	return l.cum[k-1], l.cum[k]
}

// Variation is how the real capacities change during a run.
type Variation struct {
	Model  BWModel
	Period netsim.Time // redraw and walk
	Step   float64     // walk: largest step of u per period, in (0, 1]
	Law    Law         // redraw and walk
	Trace  []training.SeriesRow
}

// validate checks v for n workers.
func (v Variation) validate(n int) error {
	switch v.Model {
	case BWStatic:
	case BWRedraw, BWWalk:
		if v.Period <= 0 {
			return fmt.Errorf("bandwidth model %s needs a period > 0", BWModelNames[v.Model])
		}
		if v.Law == nil {
			return fmt.Errorf("bandwidth model %s needs the network's law (N1 or N2; a matrix file has none: use a trace)", BWModelNames[v.Model])
		}
		if v.Model == BWWalk && !(v.Step > 0 && v.Step <= 1) {
			return fmt.Errorf("walk step %v, want 0 < step <= 1", v.Step)
		}
	case BWTrace:
		for _, r := range v.Trace {
			if len(r.Key) != 2 || r.Key[0] == r.Key[1] || r.Key[0] < 0 || r.Key[1] < 0 || r.Key[0] >= n || r.Key[1] >= n {
				return fmt.Errorf("bandwidth trace: row at %g s names %v, want two distinct workers in 0..%d", r.At, r.Key, n-1)
			}
		}
	default:
		return fmt.Errorf("unknown bandwidth model %d", v.Model)
	}
	return nil
}

// wanProcess drives a Variation on a Net.
type wanProcess struct {
	c *Cluster
	v Variation
	r *rand.Rand
	u [][]float64 // walk state
}

// startVariation schedules the capacity changes of the run.
func (c *Cluster) startVariation() {
	v := c.cfg.Vary
	if v.Model == BWStatic {
		return
	}
	p := &wanProcess{c: c, v: v, r: c.sim.Rand("crew/wan/vary")}
	switch v.Model {
	case BWWalk:
		p.u = make([][]float64, c.n)
		for i := range p.u {
			p.u[i] = make([]float64, c.n)
			for j := range p.u[i] {
				if i != j {
					lo, hi := v.Law.Atom(i, j, c.net.Bandwidth(i, j))
					p.u[i][j] = lo + (hi-lo)*p.r.Float64()
				}
			}
		}
		fallthrough
	case BWRedraw:
		c.sim.AfterFunc(v.Period, p.epoch)
	case BWTrace:
		for i := 0; i < len(v.Trace); {
			j := i
			for j < len(v.Trace) && v.Trace[j].At == v.Trace[i].At {
				j++
			}
			rows := v.Trace[i:j]
			c.sim.At(netsim.FromSeconds(rows[0].At), func() {
				for _, r := range rows {
					c.setBandwidth(r.Key[0], r.Key[1], r.Value*1e6)
				}
				c.bandwidthChanged()
			})
			i = j
		}
	}
}

// epoch redraws or walks every b_ij, row by row, and schedules the next.
func (p *wanProcess) epoch() {
	c := p.c
	for i := 0; i < c.n; i++ {
		for j := 0; j < c.n; j++ {
			if i == j {
				continue
			}
			var u float64
			if p.v.Model == BWWalk {
				u = p.u[i][j] + p.v.Step*(2*p.r.Float64()-1)
				if u < 0 {
					u = -u
				} else if u > 1 {
					u = 2 - u
				}
				p.u[i][j] = u
			} else {
				u = p.r.Float64()
			}
			c.setBandwidth(i, j, p.v.Law.Quantile(i, j, u))
		}
	}
	c.bandwidthChanged()
	c.sim.AfterFunc(p.v.Period, p.epoch)
}

// setBandwidth re-rates connection i -> j.
func (c *Cluster) setBandwidth(i, j int, bps float64) {
	if err := c.net.SetBandwidth(i, j, bps); err != nil {
		c.fail("bandwidth change: %v", err)
	}
}

// bandwidthChanged: with an oracle controller (Probe = 0) the estimate
// follows the capacities at once.
func (c *Cluster) bandwidthChanged() {
	if c.cfg.Probe == 0 {
		c.learn()
	}
}

// probe is one round of measurements: every worker measures its outgoing
// connections' capacity and reports it; the controller plans with the
// reports from Control later. It repeats every Probe.
func (c *Cluster) probe() {
	seen := c.net.cur.Clone()
	c.after(c.cfg.Control, func() { c.learnFrom(seen) })
	c.sim.AfterFunc(c.cfg.Probe, c.probe)
}

// learn sets the controller's estimate to the capacities in force.
func (c *Cluster) learn() { c.learnFrom(c.net.cur) }

// learnFrom sets the controller's estimate to the measured capacities
// (times each pair's fixed estimation error) and refreshes its planning
// view.
func (c *Cluster) learnFrom(seen Matrix) {
	for i := range c.est {
		for j := range c.est[i] {
			if i != j {
				c.est[i][j] = seen[i][j] * c.noise[i][j]
			}
		}
	}
	c.refreshView()
}

// ScaleLaw is l with every bandwidth multiplied by s.
func ScaleLaw(l Law, s float64) Law {
	if s == 1 {
		return l
	}
	return scaledLaw{l, s}
}

type scaledLaw struct {
	l Law
	s float64
}

func (x scaledLaw) Quantile(i, j int, u float64) float64 { return x.l.Quantile(i, j, u) * x.s }

func (x scaledLaw) Atom(i, j int, b float64) (float64, float64) { return x.l.Atom(i, j, b/x.s) }
