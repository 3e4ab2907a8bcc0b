package syncctl_test

import (
	"fmt"

	"syncsim/netsim"
	"syncsim/workloads/syncctl"
)

// BAG groups ready workers by bandwidth: p+1 workers seed a group (10, 9,
// 8), which then admits workers down to (1-eta) of its slowest seed
// (5.7 >= 5.6); the next worker (2) opens a new group.
func ExampleBAG() {
	q := []syncctl.Member{{ID: 1, BW: 9}, {ID: 2, BW: 2}, {ID: 3, BW: 10}, {ID: 4, BW: 5.7}, {ID: 5, BW: 1.9}, {ID: 6, BW: 8}}
	for _, g := range syncctl.BAG(q, 2, 0.3) {
		fmt.Println(g)
	}
	// Output:
	// [{3 10} {1 9} {6 8} {4 5.7}]
	// [{2 2} {5 1.9}]
}

// The motivating example of the selective-reduce paper (Fig. 3).
func ExampleFig3() {
	for _, scheme := range []string{"allreduce", "partial-reduce", "progress-aware", "bandwidth-aware"} {
		cfg, ctl, _ := syncctl.Fig3(scheme, 2, 2)
		cl, _ := syncctl.NewCluster(netsim.New(1), cfg, ctl)
		m := cl.Run()
		fmt.Printf("%s: avg CT %g, avg scale %g\n", scheme, m.AvgSyncTime, m.AvgSyncScale)
	}
	// Output:
	// allreduce: avg CT 10, avg scale 5
	// partial-reduce: avg CT 10, avg scale 2
	// progress-aware: avg CT 10, avg scale 4
	// bandwidth-aware: avg CT 6, avg scale 2
}
