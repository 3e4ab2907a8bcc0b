package training

import (
	"fmt"
	"math"
	"math/rand/v2"

	"syncsim/netsim"
)

// MaxBandwidthGbps is the scale of the selective-reduce bandwidth model:
// b = round(20u, 3) Gbps (Sec. IV-A).
const MaxBandwidthGbps = 20

// BandwidthLaw is the selective-reduce law of a worker's available
// bandwidth (Sec. IV-A): b = round(20u, 3) Gbps with u ~ U[Lambda, 1].
// round(x, 3) keeps three decimals, i.e. 1 Mbps resolution; Lambda = 0.05
// gives a minimum of 1 Gbps.
type BandwidthLaw struct {
	Lambda float64
}

// NewBandwidthLaw checks 0 < lambda <= 1.
func NewBandwidthLaw(lambda float64) (BandwidthLaw, error) {
	if !(lambda > 0) || lambda > 1 {
		return BandwidthLaw{}, fmt.Errorf("bandwidths: lambda = %g, want 0 < lambda <= 1", lambda)
	}
	return BandwidthLaw{Lambda: lambda}, nil
}

// DrawU draws u ~ U[Lambda, 1] from r.
func (l BandwidthLaw) DrawU(r *rand.Rand) float64 { return l.Lambda + (1-l.Lambda)*r.Float64() }

// Gbps maps u to the bandwidth round(20u, 3) in Gbps.
func (l BandwidthLaw) Gbps(u float64) float64 {
	return math.Round(MaxBandwidthGbps*u*1000) / 1000
}

// Support is the range [lo, hi] of the law in Gbps: [round(20 Lambda, 3), 20].
func (l BandwidthLaw) Support() (lo, hi float64) { return l.Gbps(l.Lambda), l.Gbps(1) }

// Mean is the law's mean in Gbps, 10 (1 + Lambda) (rounding aside).
func (l BandwidthLaw) Mean() float64 { return MaxBandwidthGbps * (1 + l.Lambda) / 2 }

// Bandwidths draws n per-worker available bandwidths in Gbps following the
// selective-reduce methodology (Sec. IV-A): b_i = round(20 u_i, 3) Gbps with
// u_i ~ U[lambda, 1] drawn in worker order from r (pass a stream named for
// the component, e.g. sim.Rand("training/bandwidth")).
func Bandwidths(r *rand.Rand, n int, lambda float64) ([]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("bandwidths: n = %d, want >= 1", n)
	}
	law, err := NewBandwidthLaw(lambda)
	if err != nil {
		return nil, err
	}
	b := make([]float64, n)
	for i := range b {
		b[i] = law.Gbps(law.DrawU(r))
	}
	return b, nil
}

// GbpsToRate converts a bandwidth in Gbps to a netsim.Rate (bits/s),
// rounded to the nearest bit/s.
func GbpsToRate(g float64) netsim.Rate { return netsim.Rate(math.Round(g * float64(netsim.Gbps))) }
