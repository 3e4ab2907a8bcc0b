package examples

import (
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
		Doc:     doc("fanin"),
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

// guide:end
