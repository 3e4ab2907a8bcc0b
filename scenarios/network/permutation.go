package network

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/setup"
	"syncsim/topologies"
	"syncsim/transport"
	"syncsim/workloads/background"
)

// Permutation is the permutation experiment, the standard htsim
// benchmark: every host sends one flow to a distinct host.
func Permutation() *experiments.Experiment {
	return &experiments.Experiment{
		Name:    "permutation",
		Summary: "every host sends one long (or fixed-size) flow to another host of a seeded random permutation",
		Doc:     doc("permutation"),
		Params: slices.Concat([]experiments.Param{
			setup.TopologyParam([]string{"leaf-spine", "dumbbell", "star", "fattree"}, "fabric the hosts share"),
			experiments.IntParam("spines", 8, 1, 1024, "spine switches (dumbbell: parallel paths)"),
			experiments.IntParam("leaves", 8, 1, 1024, "leaf switches (star: hosts are leaves x hosts_per_leaf; dumbbell: unused)"),
			experiments.IntParam("hosts_per_leaf", 16, 1, 1024, "hosts under each leaf (dumbbell: hosts on each side)"),
		}, setup.FatTreeParams(), []experiments.Param{
			setup.TopologyFileParam(),
			experiments.FloatParam("host_gbps", 100, 0.001, 1600, "host link rate, Gbit/s"),
			experiments.FloatParam("fabric_gbps", 100, 0.001, 1600, "leaf-spine, fat-tree (dumbbell path) link rate, Gbit/s"),
			experiments.FloatParam("delay_us", 2, 0, 1e6, "propagation delay of every cable, us"),
			experiments.FloatParam("buffer_kb", 256, 1.5, 1e7, "drop-tail buffer per port, KB"),
			experiments.IntParam("ecn_k_pkts", 65, 0, 1<<20, "ECN marking threshold K per port, packets (0: no marking)").Means("0", "no marking"),
			experiments.EnumParam("transport", "dctcp", transport.CCNames(), "congestion control of the flows"),
			setup.CWRParam(),
			experiments.FloatParam("flow_kb", 0, 0, 1e9, "size of each flow, KB (0: long-lived)").Means("0", "long-lived flows"),
			experiments.FloatParam("start_jitter_us", 0, 0, 1e6, "each flow starts at a uniformly random time in [0, start_jitter_us), us"),
			experiments.FloatParam("duration_ms", 10, 0.01, 1e6, "simulated time, ms"),
			setup.WarmupParam(),
		}, setup.NICParams(), []experiments.Param{setup.PartitionsParam()}),
		Metrics: []experiments.Metric{
			{Name: "goodput_gbps", Unit: "Gbit/s", Help: "aggregate payload delivered to the receivers per second over the window"},
			{Name: "goodput_frac", Unit: "", Help: "goodput_gbps over the hosts' aggregate NIC capacity"},
			{Name: "flow_goodput_min_gbps", Unit: "Gbit/s", Help: "smallest per-flow goodput over the window"},
			{Name: "jain", Unit: "", Help: "Jain's fairness index of per-flow goodput over the window"},
			{Name: "flows_done", Unit: "flows", Help: "flows that completed (fixed-size flows only; 0 for long-lived)"},
			{Name: "fct_mean_us", Unit: "us", Help: "mean flow completion time of the completed flows (NaN unless flow_kb > 0)"},
			{Name: "fct_p50_us", Unit: "us", Help: "median flow completion time"},
			{Name: "fct_p95_us", Unit: "us", Help: "95th percentile flow completion time"},
			{Name: "fct_p99_us", Unit: "us", Help: "99th percentile flow completion time"},
			{Name: "drops", Unit: "packets", Help: "packets dropped at switch queues over the window"},
			{Name: "ecn_marks", Unit: "packets", Help: "packets marked CE at switch queues over the window"},
			{Name: "timeouts", Unit: "", Help: "TCP retransmission timeouts (whole run)"},
			{Name: "retransmits", Unit: "packets", Help: "retransmitted segments (whole run)"},
			{Name: "data_pkts", Unit: "packets", Help: "data segments delivered to their receivers (whole run)"},
			{Name: "events", Unit: "", Help: "simulator events processed"},
		},
		Common:   []string{"topology", "spines", "leaves", "hosts_per_leaf", "host_gbps", "fabric_gbps", "transport", "flow_kb", "duration_ms", "buffer_kb"},
		Headline: []string{"goodput_gbps", "goodput_frac", "flow_goodput_min_gbps", "jain", "flows_done", "fct_p99_us", "drops", "timeouts"},
		Run:      runPermutation,
		Validate: setup.ValidateWindowAndFabric,
		Cost:     permutationCost(),
		Threads:  true,
	}
}

// derangement returns a uniformly random permutation of 0..n-1 without
// fixed points: shuffles are redrawn until no element maps to itself
// (about e = 2.72 draws on average). n must be at least 2.
func derangement(rng *rand.Rand, n int) []int {
	p := make([]int, n)
	for {
		for i := range p {
			p[i] = i
		}
		rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
		fixed := false
		for i, d := range p {
			if i == d {
				fixed = true
				break
			}
		}
		if !fixed {
			return p
		}
	}
}

// permutationFabric builds the fabric the topology parameter (or
// topology_file) names.
func permutationFabric(net *netsim.Network, ps experiments.Params) (*topologies.Fabric, netsim.Rate, error) {
	var fab *topologies.Fabric
	var rate netsim.Rate
	var err error
	switch topo := ps.String("topology"); {
	case setup.UsesFile(ps) || topo == "leaf-spine" || topo == "fattree":
		fab, rate, err = setup.Fabric(net, ps)
	case topo == "dumbbell" || topo == "star":
		var lc topologies.LeafSpineConfig
		if lc, err = setup.LeafSpineFrom(ps); err != nil {
			return nil, 0, err
		}
		if topo == "dumbbell" {
			fab, err = topologies.Dumbbell(net, lc.HostsPerLeaf, lc.HostsPerLeaf, lc.Spines, lc.HostRate, lc.FabricRate, lc.Delay, lc.Queue)
		} else {
			fab, err = topologies.Star(net, lc.Leaves*lc.HostsPerLeaf, lc.HostRate, lc.Delay, lc.Queue)
		}
		if err == nil {
			err = setup.ApplyNIC(ps, fab)
		}
		rate = lc.HostRate
	default:
		return nil, 0, fmt.Errorf("unknown topology %q", topo)
	}
	if err != nil {
		return nil, 0, err
	}
	if len(fab.Hosts) < 2 {
		return nil, 0, fmt.Errorf("a permutation needs at least 2 hosts, the %s has %d", fab.Kind, len(fab.Hosts))
	}
	return fab, rate, nil
}

func runPermutation(r *experiments.Run) (*experiments.Result, error) {
	ps := r.Params
	warm, end, err := setup.RunWindow(r, ps.Float("duration_ms"))
	if err != nil {
		return nil, err
	}
	tc, err := setup.Transport(ps)
	if err != nil {
		return nil, err
	}
	sim := setup.NewSim(r)
	net := netsim.NewNetwork(sim)
	fab, hostRate, err := permutationFabric(net, ps)
	if err != nil {
		return nil, err
	}
	if err := setup.Parallel(r, net); err != nil {
		return nil, err
	}
	stack := transport.NewStack(net, tc)

	size := netsim.Bytes(math.Round(ps.Float("flow_kb") * 1000))
	jitter := netsim.FromMicros(ps.Float("start_jitter_us"))
	dst := derangement(sim.Rand("permutation/pairs"), len(fab.Hosts))
	starts := sim.Rand("permutation/starts")
	flows := make([]*transport.Flow, len(fab.Hosts))
	for i, h := range fab.Hosts {
		var at netsim.Time
		if jitter > 0 {
			at = netsim.Time(starts.Int64N(int64(jitter)))
		}
		// Flows open at time zero and send their first segment at their
		// start time, so the flow list is complete before the run.
		flows[i] = stack.Start(h.ID(), fab.Hosts[dst[i]].ID(), transport.FlowOpts{Size: size, StartLatency: at}, nil)
	}
	base := make([]netsim.Bytes, len(flows))
	sim.At(warm, func() {
		for i, f := range flows {
			base[i] = f.Delivered()
		}
		fab.ResetQueueStats(warm)
	})
	watchFlows(r, flows, size, end, 0.004)
	sim.Run(end)

	win := end - warm
	per := make([]float64, len(flows))
	var total float64
	minRate := math.Inf(1)
	var fcts []float64
	for i, f := range flows {
		per[i] = float64(f.Delivered() - base[i])
		total += per[i]
		minRate = math.Min(minRate, setup.Gbps(per[i], win))
		if f.Done() {
			fcts = append(fcts, f.FCT().Microseconds())
		}
	}
	res := r.Exp.NewResult()
	m := res.Metrics
	m["goodput_gbps"] = setup.Gbps(total, win)
	m["goodput_frac"] = m["goodput_gbps"] / (float64(len(flows)) * hostRate.Gbps())
	m["flow_goodput_min_gbps"] = minRate
	m["jain"] = setup.Jain(per)
	m["flows_done"] = float64(len(fcts))
	if size > 0 {
		d := background.NewDist(fcts)
		m["fct_mean_us"], m["fct_p50_us"], m["fct_p95_us"], m["fct_p99_us"] = d.Mean, d.P50, d.P95, d.P99
	}
	d, k := setup.QueueTotals(fab.SwitchQueues())
	m["drops"], m["ecn_marks"] = float64(d), float64(k)
	m["timeouts"] = float64(stack.Timeouts)
	m["retransmits"] = float64(stack.Retransmits)
	m["data_pkts"] = float64(stack.Segments)
	m["events"] = float64(sim.Events())
	res.Events = sim.Events()
	if err := setup.CheckBooks(r, net); err != nil {
		return nil, err
	}
	return res, nil
}
