package background_test

import (
	"fmt"

	"syncsim/netsim"
	"syncsim/workloads/background"
)

// fixedBulk stands in for an engine: every transfer takes 10 us.
type fixedBulk struct{ sim *netsim.Sim }

func (b fixedBulk) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	b.sim.AfterFunc(10*netsim.Microsecond, done)
}

func ExampleWorkload() {
	c, err := background.Workload("hadoop")
	if err != nil {
		panic(err)
	}
	fmt.Printf("mean %.0f B, median %.0f B, p99 %.0f B, max %.0f B\n", c.Mean(), c.Quantile(0.5), c.Quantile(0.99), c.Max())
	// Output: mean 120421 B, median 700 B, p99 2000000 B, max 10000000 B
}

func ExampleGenerator() {
	c, _ := background.Workload("cachefollower")
	sim := netsim.New(1)
	g, err := background.New(sim, fixedBulk{sim}, background.Config{
		CDF: c, Load: 0.5, Hosts: []netsim.NodeID{1, 2, 3, 4}, HostRate: 100 * netsim.Gbps, MaxFlows: 3,
	})
	if err != nil {
		panic(err)
	}
	g.Start()
	sim.Run(netsim.Never)
	done := 0
	for _, f := range g.Flows() {
		if f.Done && f.FCT() == 10*netsim.Microsecond {
			done++
		}
	}
	// lambda = 0.5 * 4 hosts * 12.5e9 B/s / 686,866 B (the linear-reading mean).
	fmt.Printf("lambda %.0f flows/s; %d flows started, %d done in 10us\n", g.Lambda(), g.Started(), done)
	// Output: lambda 36397 flows/s; 3 flows started, 3 done in 10us
}
