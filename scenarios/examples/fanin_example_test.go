// Package examples_test holds the worked examples of docs/extending.md,
// compiled and run by go test so the guide cannot drift from the code:
// this file is the experiment of "Adding an experiment".
package examples_test

import (
	"context"
	"fmt"
	"os"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/setup"
	"syncsim/switchmodel"
	"syncsim/topologies"
	"syncsim/transport"
)

// guide:experiment-declaration

// Fanin is a cut-down incast: senders long-lived flows from as many hosts
// into one receiver through one switch port.
func Fanin() *experiments.Experiment {
	return &experiments.Experiment{
		Name:    "fanin",
		Summary: "long-lived flows from N hosts into one switch port: goodput, fairness, queue",
		Doc:     "Every sender opens one long-lived flow to the receiver at time zero; the statistics cover the run after the warm-up.",
		Params: []experiments.Param{
			experiments.IntParam("senders", 4, 1, 1024, "number of senders"),
			experiments.EnumParam("transport", "dctcp", transport.CCNames(), "congestion control of the senders"),
			experiments.IntParam("ecn_k_pkts", 65, 0, 1<<20, "ECN marking threshold at the switch, packets").Means("0", "no marking"),
			experiments.FloatParam("duration_ms", 20, 0.001, 1e6, "simulated time, ms"),
			setup.WarmupParam(),
		},
		Metrics: []experiments.Metric{
			{Name: "goodput_gbps", Unit: "Gbit/s", Help: "payload delivered per second after the warm-up"},
			{Name: "jain", Unit: "", Help: "Jain's index of the flows' goodput after the warm-up"},
			{Name: "queue_max_pkts", Unit: "packets", Help: "largest queue at the receiver's port after the warm-up"},
			{Name: "drops", Unit: "packets", Help: "packets dropped at switch queues after the warm-up"},
		},
		Run:      runFanin,
		Validate: setup.ValidateWindow, // warmup_ms below duration_ms
	}
}

// guide:experiment-run

// runFanin builds a star of senders+1 hosts at 10 Gbit/s, starts the
// flows and measures after the warm-up.
func runFanin(r *experiments.Run) (*experiments.Result, error) {
	ps := r.Params
	warm, end, err := setup.RunWindow(r, ps.Float("duration_ms"))
	if err != nil {
		return nil, err
	}
	cc, err := transport.ParseCC(ps.String("transport"))
	if err != nil {
		return nil, err
	}
	cfg := transport.DefaultConfig()
	cfg.CC = cc
	sim := setup.NewSim(r) // watched by the harness: Ctrl-C, progress, stalls
	net := netsim.NewNetwork(sim)
	n := ps.Int("senders")
	fab, err := topologies.Star(net, n+1, 10*netsim.Gbps, 10*netsim.Microsecond,
		switchmodel.QueueConfig{Buffer: 1_000_000, ECNPackets: ps.Int("ecn_k_pkts")})
	if err != nil {
		return nil, err
	}
	stack := transport.NewStack(net, cfg)
	recv := fab.Hosts[n].ID()
	var flows []*transport.Flow
	for i := range n {
		flows = append(flows, stack.Start(fab.Hosts[i].ID(), recv, transport.FlowOpts{}, nil))
	}
	port := fab.QueueBetween(fab.Switches[0].ID(), recv)
	base := make([]netsim.Bytes, n)
	sim.At(warm, func() { // statistics start after the warm-up
		for i, f := range flows {
			base[i] = f.Delivered()
		}
		fab.ResetQueueStats(warm)
	})
	r.Watch(experiments.Watch{What: "payload delivered", Until: end.Seconds(), Count: func() float64 {
		var b netsim.Bytes
		for _, f := range flows {
			b += f.Delivered()
		}
		return float64(b)
	}})
	sim.Run(end)

	per := make([]float64, n)
	var total float64
	for i, f := range flows {
		per[i] = float64(f.Delivered() - base[i])
		total += per[i]
	}
	res := r.Exp.NewResult()
	res.Metrics["goodput_gbps"] = setup.Gbps(total, end-warm)
	res.Metrics["jain"] = setup.Jain(per)
	res.Metrics["queue_max_pkts"] = float64(port.MaxPackets)
	drops, _ := setup.QueueTotals(fab.SwitchQueues())
	res.Metrics["drops"] = float64(drops)
	res.Events = sim.Events()
	return res, setup.CheckBooks(r, net) // --check: packets injected = delivered + dropped + in flight
}

// guide:experiment-example

// A family registers its experiments; the runner sweeps them, one CSV row
// per point and trial, in grid order whatever Parallel is.
func Example_fanin() {
	reg := experiments.NewRegistry()
	reg.Register(Fanin())
	e, err := reg.Lookup("fanin")
	if err != nil {
		panic(err)
	}
	grid, err := experiments.Expand(e, []string{"duration_ms=5"}, []string{"senders=2,8", "transport=dctcp,newreno"})
	if err != nil {
		panic(err)
	}
	w := experiments.NewCSVWriter(os.Stdout, e, false)
	w.WriteHeader()
	runner := &experiments.Runner{Exp: e, Points: grid, Trials: 1, BaseSeed: 1, Parallel: 2, Check: true}
	if err := runner.Run(context.Background(), w.Write); err != nil {
		panic(err)
	}
	// Output:
	// experiment,senders,transport,ecn_k_pkts,duration_ms,warmup_ms,trial,seed,goodput_gbps,jain,queue_max_pkts,drops
	// fanin,2,dctcp,65,5,0.5,0,1,9.733333333333334,1,94,0
	// fanin,2,newreno,65,5,0.5,0,1,9.733333333333334,0.6502890173410405,666,704
	// fanin,8,dctcp,65,5,0.5,0,1,9.720355555555555,0.9905859540318083,74,0
	// fanin,8,newreno,65,5,0.5,0,1,6.473315555555557,0.9719608117669708,666,703
}

// Every point is checked before anything runs: values against their
// declarations, then the experiment's own rules between parameters.
func Example_faninRefuses() {
	e := Fanin()
	for _, sets := range [][]string{{"senders=0"}, {"ecn_k_pkts=-1"}, {"warmup_ms=30"}} {
		grid, err := experiments.Expand(e, sets, nil)
		if err == nil {
			err = grid.Validate()
		}
		fmt.Println(err)
	}
	// Output:
	// senders="0": out of range; allowed: integer in [1, 1024]
	// ecn_k_pkts="-1": out of range; allowed: integer in [0, 1048576]
	// warmup_ms=30 must be below duration_ms=20
}

// guide:end
