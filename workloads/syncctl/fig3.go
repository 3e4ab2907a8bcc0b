package syncctl

import (
	"fmt"

	"syncsim/workloads/training"
)

// The motivating example of the selective-reduce paper (Sec. II-D, Fig. 3):
// five workers train a model of 5 units and finish their computation at
// 1, 2, 3, 3 and 13 s. Synchronisation costs 2v/b (alpha << 1, the second
// line of Eq. 2 with alpha = 0), b being the group's minimum bandwidth.
//
// The paper gives the bandwidths only in a drawing; these values reproduce
// every number it states: the all reduce and the partial reduce groups
// {w1,w2}, {w3,w4} take 10 s (a minimum bandwidth of 1), and the
// bandwidth-aware groups {w1,w3} and {w2,w4} take 10 s and 2 s, so w1 and
// w3 have bandwidth 1 and w2 and w4 bandwidth 5. w5's bandwidth does not
// affect any stated number; we give it 5. A unit is a megabyte, so
// bandwidths are MB/s.
var (
	// Fig3ReadyTimes are the computation times of w1..w5 in seconds.
	Fig3ReadyTimes = []float64{1, 2, 3, 3, 13}
	// Fig3BandwidthUnits are the bandwidths of w1..w5 in units per second.
	Fig3BandwidthUnits = []float64{1, 5, 1, 5, 5}
)

// Fig3Unit is the size of one model unit in bytes.
const Fig3Unit = 1e6

// Fig3Schemes are the schemes the example compares, with their stated
// average completion time and scale: allreduce 10/5, partial-reduce (p=2)
// 10/2, progress-aware 10/4, bandwidth-aware 6/2. selective-reduce (Alg. 3
// with p = 2) is offered for comparison; the paper states no numbers for it.
var Fig3Schemes = []string{"allreduce", "partial-reduce", "progress-aware", "bandwidth-aware", "selective-reduce"}

// Fig3 returns the configuration and controller of the example for scheme,
// with group size p (2 in the paper) and, for the progress- and
// bandwidth-aware schemes, a look-ahead horizon (seconds). Each worker
// computes once and synchronises once.
func Fig3(scheme string, p int, horizon float64) (Config, Controller, error) {
	n := len(Fig3ReadyTimes)
	cfg := Config{
		BW:         make([]float64, n),
		ModelBytes: 5 * Fig3Unit,
		Compute:    make([]training.Dist, n),
		MaxIters:   1,
		Cost:       CostApprox,
	}
	for i := range n {
		cfg.BW[i] = Fig3BandwidthUnits[i] * Fig3Unit * 8
		cfg.Compute[i] = training.Constant{T: Fig3ReadyTimes[i]}
	}
	if p < 1 || p > n {
		return Config{}, nil, fmt.Errorf("fig3: p = %d, want 1..%d", p, n)
	}
	if !(horizon >= 0) {
		return Config{}, nil, fmt.Errorf("fig3: horizon %g s, want >= 0", horizon)
	}
	var ctl Controller
	switch scheme {
	case "allreduce":
		ctl = AllReduce{}
	case "partial-reduce":
		ctl = &PartialReduce{P: p}
	case "progress-aware":
		ctl = &ProgressAware{P: p, Horizon: horizon}
	case "bandwidth-aware":
		ctl = &BandwidthAware{P: p, Horizon: horizon}
	case "selective-reduce":
		sr, err := NewSelectiveReduce(SelectiveConfig{P: p, Eta: 0.3, Theta: 1, Dt: horizon}, cfg.ModelBytes, nil)
		if err == nil {
			err = sr.CheckWorkers(n)
		}
		if err != nil {
			return Config{}, nil, err
		}
		ctl = sr
	default:
		return Config{}, nil, fmt.Errorf("fig3: unknown scheme %q (known: %v)", scheme, Fig3Schemes)
	}
	return cfg, ctl, nil
}
