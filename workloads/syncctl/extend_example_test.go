package syncctl_test

import (
	"fmt"

	"syncsim/netsim"
	"syncsim/workloads/syncctl"
	"syncsim/workloads/training"
)

// guide:scheme-example

// The two schemes on one cluster: eight workers at 1 to 20 Gbit/s,
// compute times of 0.3 s +- 20 %, a 500 MB model, alpha = 1 ms, 60 s.
// Pairing by bandwidth gives shorter synchronisations and more iterations
// than popping the first p ready workers.
func Example_pairedReduce() {
	gbps := []float64{20, 1, 12, 3, 17, 6, 9, 15}
	for _, ctl := range []syncctl.Controller{&syncctl.PartialReduce{P: 2}, &PairedReduce{P: 2}} {
		cfg := syncctl.Config{
			ModelBytes: 500e6,
			Alpha:      1e-3,
			Compute:    []training.Dist{training.Uniform{Lo: 0.24, Hi: 0.36}},
			Duration:   60 * netsim.Second,
			Cost:       syncctl.CostRing,
		}
		for _, g := range gbps {
			cfg.BW = append(cfg.BW, g*1e9)
		}
		cl, err := syncctl.NewCluster(netsim.New(1), cfg, ctl)
		if err != nil {
			panic(err)
		}
		m := cl.Run()
		fmt.Printf("%-14s sync time %.3f s, scale %.1f, %d iterations\n", ctl.Name(), m.AvgSyncTime, m.AvgSyncScale, m.TotalIteration)
	}
	// Output:
	// partial-reduce sync time 0.849 s, scale 2.0, 410 iterations
	// paired-reduce  sync time 0.691 s, scale 2.0, 419 iterations
}

// guide:end
