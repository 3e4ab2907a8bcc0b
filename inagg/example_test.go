package inagg_test

import (
	"fmt"

	"syncsim/inagg"
	"syncsim/netsim"
	"syncsim/switchmodel"
)

// guide:protocol-example

// A protocol is a value of inagg.Protocol; a job runs it between worker
// hosts and a parameter server through an aggregating switch. Here three
// workers share a 100 Gbit/s star with the PS (the aggregating switch is
// the star's) and a fourth sits behind a 25 Gbit/s link; each pushes a
// 1 MB gradient for three iterations, with aggregator memory for only 64
// sequences, under StrawAsyn, its ablation with
// the asynchrony limit (StrawAsyn+AL, the worked example of
// docs/extending.md) and PA-ATP. Job.Check verifies that every worker got
// the exact sum of every sequence and that every contribution was counted
// once.
func ExampleNewJob() {
	for _, proto := range []inagg.Protocol{inagg.StrawAsyn, inagg.StrawAsynAL, inagg.PAATP} {
		sim := netsim.New(1)
		net := netsim.NewNetwork(sim)
		sw := switchmodel.Add(net, "sw")
		q := switchmodel.QueueConfig{Buffer: 256_000, ECNPackets: 65}
		var workers []*netsim.Host
		for i, rate := range []netsim.Rate{100 * netsim.Gbps, 100 * netsim.Gbps, 100 * netsim.Gbps, 25 * netsim.Gbps} {
			h := net.AddHost(fmt.Sprint("w", i))
			net.Connect(h.ID(), sw.ID(), rate, 2*netsim.Microsecond, nil, switchmodel.NewQueue(sim, q))
			workers = append(workers, h)
		}
		ps := net.AddHost("ps")
		net.Connect(ps.ID(), sw.ID(), 100*netsim.Gbps, 2*netsim.Microsecond, nil, switchmodel.NewQueue(sim, q))
		net.BuildRoutes()
		cfg := inagg.DefaultAggregatorConfig()
		cfg.Memory = 64 * inagg.AggregatorBytes // scarce: 64 aggregators
		agg, err := inagg.NewAggregator(sw, cfg)
		if err != nil {
			panic(err)
		}
		job, err := inagg.NewJob(net, inagg.JobConfig{
			Protocol: proto, Workers: workers, PS: ps, Switch: agg,
			Gradient: 1_000_000, Iterations: 3,
		})
		if err != nil {
			panic(err)
		}
		if err := job.Start(); err != nil {
			panic(err)
		}
		sim.Run(netsim.Second)
		if err := job.Check(); err != nil {
			panic(err)
		}
		st := job.TotalWorkerStats()
		fmt.Printf("%-12s done %v, mean iteration %v, %d contributions summed at the PS, %d retransmits\n",
			proto, job.Done(), job.AJCT(), job.Stats().PSContributions, st.Retransmits)
	}
	// Output:
	// strawasyn    done true, mean iteration 516.32368us, 45079 contributions summed at the PS, 0 retransmits
	// strawasyn-al done true, mean iteration 477.235573us, 39700 contributions summed at the PS, 0 retransmits
	// pa-atp       done true, mean iteration 477.235573us, 39700 contributions summed at the PS, 0 retransmits
}

// guide:end
