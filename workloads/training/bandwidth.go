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

// Bandwidths draws n per-worker available bandwidths in Gbps following the
// selective-reduce methodology (Sec. IV-A): b_i = round(20 u_i, 3) Gbps with
// u_i ~ U[lambda, 1] drawn in worker order from r (pass a stream named for
// the component, e.g. sim.Rand("training/bandwidth")). lambda = 0.05 gives
// a minimum of 1 Gbps. round(x, 3) keeps three decimals, i.e. 1 Mbps
// resolution.
func Bandwidths(r *rand.Rand, n int, lambda float64) ([]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("bandwidths: n = %d, want >= 1", n)
	}
	if !(lambda > 0) || lambda > 1 {
		return nil, fmt.Errorf("bandwidths: lambda = %g, want 0 < lambda <= 1", lambda)
	}
	b := make([]float64, n)
	for i := range b {
		u := lambda + (1-lambda)*r.Float64()
		b[i] = math.Round(MaxBandwidthGbps*u*1000) / 1000
	}
	return b, nil
}

// GbpsToRate converts a bandwidth in Gbps to a netsim.Rate (bits/s),
// rounded to the nearest bit/s.
func GbpsToRate(g float64) netsim.Rate { return netsim.Rate(math.Round(g * float64(netsim.Gbps))) }
