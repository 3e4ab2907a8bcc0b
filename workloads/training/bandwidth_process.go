package training

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// BWModel says how the workers' available bandwidths change over a run.
//
// The selective-reduce paper draws each b_i from its law (Sec. IV-A) but
// does not say whether the draw is kept for the whole run; its controller
// fetches "the updated available bandwidth of each worker" every round
// (Alg. 3, line 9; Sec. III-A, Fig. 4), which only matters if bandwidths
// change. The models:
type BWModel int

const (
	// BWStatic draws every b_i once, at time 0.
	BWStatic BWModel = iota
	// BWRedraw draws every b_i afresh from the law at the start of every
	// period (all workers at the same instants), independently of its
	// previous value.
	BWRedraw
	// BWWalk moves every b_i by a bounded random walk: at the start of
	// every period u_i (b_i = round(20 u_i, 3)) takes a step uniform in
	// [-s, s] x (1 - lambda) and is reflected back into [lambda, 1]. A
	// symmetric walk reflected at both ends of an interval leaves the
	// uniform law invariant, so every b_i keeps the law of Sec. IV-A at all
	// times while changing gradually: s sets how far it moves per period.
	BWWalk
	// BWFromTrace follows a measured time series (BWTrace, built by
	// NewBWTrace from a file), not a law.
	BWFromTrace
)

// BWModelNames lists the models' names in order.
var BWModelNames = []string{"static", "redraw", "walk", "trace"}

// String names the model.
func (m BWModel) String() string {
	if int(m) >= 0 && int(m) < len(BWModelNames) {
		return BWModelNames[m]
	}
	return fmt.Sprintf("BWModel(%d)", int(m))
}

// ParseBWModel reads "static", "redraw", "walk" or "trace".
func ParseBWModel(s string) (BWModel, error) {
	for i, n := range BWModelNames {
		if s == n {
			return BWModel(i), nil
		}
	}
	return 0, fmt.Errorf("unknown bandwidth model %q (known: static, redraw, walk, trace)", s)
}

// BWProcessConfig describes a bandwidth process.
type BWProcessConfig struct {
	Law   BandwidthLaw
	Model BWModel
	// Period is the time between changes in seconds (> 0 unless static).
	Period float64
	// Step is the walk's largest step as a fraction of the support width,
	// in (0, 1] (BWWalk only).
	Step float64
}

// BWProcess is every worker's available bandwidth over time: piecewise
// constant over epochs [e Period, (e+1) Period). Epoch 0 is exactly what
// Bandwidths draws from the same stream, so a static process is the
// paper's one draw; later epochs continue the same stream, epoch by epoch
// in worker order, so a seed fixes the whole process whatever order the
// epochs are asked for in.
type BWProcess struct {
	cfg    BWProcessConfig
	r      *rand.Rand
	u      []float64   // current walk state (unrounded)
	epochs [][]float64 // Gbps per epoch, generated in order
}

// NewBWProcess checks cfg and draws epoch 0 for n workers from r.
func NewBWProcess(r *rand.Rand, n int, cfg BWProcessConfig) (*BWProcess, error) {
	if n < 1 {
		return nil, fmt.Errorf("bandwidths: n = %d, want >= 1", n)
	}
	if _, err := NewBandwidthLaw(cfg.Law.Lambda); err != nil {
		return nil, err
	}
	switch cfg.Model {
	case BWStatic:
	case BWRedraw, BWWalk:
		if !(cfg.Period > 0) || math.IsInf(cfg.Period, 0) {
			return nil, fmt.Errorf("bandwidths: %v model needs a period > 0 s, got %g", cfg.Model, cfg.Period)
		}
		if cfg.Model == BWWalk && !(cfg.Step > 0 && cfg.Step <= 1) {
			return nil, fmt.Errorf("bandwidths: walk step %g, want 0 < step <= 1 (a fraction of the support)", cfg.Step)
		}
	case BWFromTrace:
		return nil, fmt.Errorf("bandwidths: a trace is read with ReadSeries and built by NewBWTrace, not drawn")
	default:
		return nil, fmt.Errorf("bandwidths: unknown model %d", int(cfg.Model))
	}
	p := &BWProcess{cfg: cfg, r: r, u: make([]float64, n)}
	b := make([]float64, n)
	for i := range b {
		p.u[i] = cfg.Law.DrawU(r)
		b[i] = cfg.Law.Gbps(p.u[i])
	}
	p.epochs = [][]float64{b}
	return p, nil
}

// N is the number of workers.
func (p *BWProcess) N() int { return len(p.u) }

// Model is the process's model.
func (p *BWProcess) Model() BWModel { return p.cfg.Model }

// Period is the time between changes in seconds; 0 for a static process.
func (p *BWProcess) Period() float64 {
	if p.cfg.Model == BWStatic {
		return 0
	}
	return p.cfg.Period
}

// Epoch returns the bandwidths in Gbps during epoch e (e >= 0), generating
// the epochs up to e if needed. The slice is shared: do not modify it. A
// static process has one epoch.
func (p *BWProcess) Epoch(e int) []float64 {
	if e < 0 {
		panic(fmt.Sprintf("training: bandwidth epoch %d < 0", e))
	}
	if p.cfg.Model == BWStatic {
		return p.epochs[0]
	}
	for len(p.epochs) <= e {
		p.epochs = append(p.epochs, p.next())
	}
	return p.epochs[e]
}

// next draws the epoch after the last one.
func (p *BWProcess) next() []float64 {
	law := p.cfg.Law
	b := make([]float64, len(p.u))
	for i := range b {
		switch p.cfg.Model {
		case BWRedraw:
			p.u[i] = law.DrawU(p.r)
		case BWWalk:
			w := 1 - law.Lambda
			p.u[i] = fold(p.u[i]+p.cfg.Step*w*(2*p.r.Float64()-1), law.Lambda, 1)
		}
		b[i] = law.Gbps(p.u[i])
	}
	return b
}

// fold folds x back into [lo, hi]; one fold suffices because a step is
// at most the interval's width.
func fold(x, lo, hi float64) float64 {
	switch {
	case x < lo:
		x = 2*lo - x
	case x > hi:
		x = 2*hi - x
	}
	return min(max(x, lo), hi)
}

// MaxEpochValues bounds the bandwidths a run's BWProcess draws and keeps:
// epochs over the run times workers. Each is kept twice as a float64
// (here in Gbps, and in bits/s by syncctl), so the bound is 400 MB.
const MaxEpochValues = 25_000_000

// CheckEpochs checks that a process changing n workers' bandwidths every
// period seconds keeps at most MaxEpochValues values over duration
// seconds; errors name the parameters (bw_period_s, duration_s).
func CheckEpochs(model BWModel, n int, period, duration float64) error {
	if model != BWRedraw && model != BWWalk {
		return nil
	}
	epochs := math.Floor(duration/period) + 1
	if v := epochs * float64(n); v > MaxEpochValues {
		return fmt.Errorf("bw_period_s = %g over duration_s = %g is %.3g bandwidth epochs of %d workers, %.3g values kept in memory; "+
			"at most %d: raise bw_period_s or shorten duration_s", period, duration, epochs, n, v, MaxEpochValues)
	}
	return nil
}
