package network

import (
	"math"
	"slices"
	"strings"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/setup"
	"syncsim/transport"
	"syncsim/workloads/background"
)

// Background is the background experiment.
func Background() *experiments.Experiment {
	metrics := []experiments.Metric{}
	for _, m := range background.MetricSchema("", nil) {
		metrics = append(metrics, experiments.Metric{Name: bgMetricName(m.Name), Unit: m.Unit, Help: m.Help})
	}
	metrics = append(metrics,
		experiments.Metric{Name: "mean_flow_kb", Unit: "KB", Help: "mean size of the flows started in the window"},
		experiments.Metric{Name: "cdf_mean_kb", Unit: "KB", Help: "mean of the workload's flow-size CDF (what mean_flow_kb estimates)"},
		experiments.Metric{Name: "drops", Unit: "packets", Help: "packets dropped at switch queues over the window"},
		experiments.Metric{Name: "ecn_marks", Unit: "packets", Help: "packets marked CE at switch queues over the window"},
		experiments.Metric{Name: "timeouts", Unit: "", Help: "TCP retransmission timeouts (whole run)"},
		experiments.Metric{Name: "events", Unit: "", Help: "simulator events processed"},
	)
	return &experiments.Experiment{
		Name:    "background",
		Summary: "datacenter background traffic (Hadoop, Cache Follower, web search) on a leaf-spine or fat-tree: FCT and slowdown",
		Doc:     doc("background"),
		Params: slices.Concat([]experiments.Param{
			experiments.EnumParam("workload", "hadoop", background.Names(), "flow-size distribution"),
			experiments.FloatParam("load", 0.5, 0.01, 1, "offered load: bytes/s offered over aggregate host NIC capacity"),
			setup.TopologyParam([]string{"leaf-spine", "fattree"}, "fabric the hosts share"),
			experiments.IntParam("spines", 8, 1, 1024, "spine switches"),
			experiments.IntParam("leaves", 8, 1, 1024, "leaf switches"),
			experiments.IntParam("hosts_per_leaf", 16, 1, 1024, "hosts under each leaf"),
		}, setup.FatTreeParams(), []experiments.Param{
			setup.TopologyFileParam(),
			experiments.FloatParam("host_gbps", 100, 0.001, 1600, "host link rate, Gbit/s"),
			experiments.FloatParam("fabric_gbps", 100, 0.001, 1600, "leaf-spine (fat-tree) switch-to-switch link rate, Gbit/s"),
			experiments.FloatParam("delay_us", 2, 0, 1e6, "propagation delay of every cable, us"),
			experiments.FloatParam("buffer_kb", 256, 1.5, 1e7, "drop-tail buffer per port, KB"),
			experiments.IntParam("ecn_k_pkts", 65, 0, 1<<20, "ECN marking threshold K per port, packets (0: no marking)").Means("0", "no marking"),
			experiments.EnumParam("transport", "dctcp", transport.CCNames(), "congestion control of the flows"),
			setup.CWRParam(),
			experiments.FloatParam("duration_ms", 10, 0.01, 1e6, "simulated time, ms (arrivals stop at the end)"),
			setup.WarmupParam(),
		}, setup.NICParams(), setup.FlowsParams(), []experiments.Param{setup.PartitionsParam()}),
		Metrics:  metrics,
		Common:   []string{"workload", "load", "transport", "spines", "leaves", "hosts_per_leaf", "host_gbps", "fabric_gbps", "buffer_kb", "duration_ms"},
		Headline: []string{"flows_done", "offered_load", "fct_p50_us", "fct_p99_us", "fct_slowdown_p50", "fct_slowdown_p99", "drops", "timeouts"},
		Run:      runBackground,
		Validate: setup.ValidateBackground,
		Cost:     backgroundCost(),
		Threads:  true,
	}
}

// bgMetricName maps the background package's names onto the experiment's
// (slowdown metrics are prefixed fct_ so they read fct_slowdown_p99).
func bgMetricName(n string) string {
	if i := strings.Index(n, "slowdown_"); i >= 0 {
		return n[:i] + "fct_" + n[i:]
	}
	return n
}

func runBackground(r *experiments.Run) (*experiments.Result, error) {
	ps := r.Params
	warm, end, err := setup.RunWindow(r, ps.Float("duration_ms"))
	if err != nil {
		return nil, err
	}
	cdf, err := background.Workload(ps.String("workload"))
	if err != nil {
		return nil, err
	}
	tc, err := setup.Transport(ps)
	if err != nil {
		return nil, err
	}
	sim := setup.NewSim(r)
	net := netsim.NewNetwork(sim)
	fab, hostRate, err := setup.Fabric(net, ps)
	if err != nil {
		return nil, err
	}
	if err := setup.Parallel(r, net); err != nil {
		return nil, err
	}
	hosts := setup.HostMap(fab)
	replay, err := setup.Replays(ps, hosts, end)
	if err != nil {
		return nil, err
	}
	stack := transport.NewStack(net, tc)
	gen, err := background.New(sim, stack, background.Config{
		CDF: cdf, Load: ps.Float("load"), Hosts: fab.HostIDs(), HostRate: hostRate, Stop: end, Network: net, Replay: replay,
	})
	if err != nil {
		return nil, err
	}
	if err := setup.RecordFCT(r, gen); err != nil {
		return nil, err
	}
	// Flows are summarised online as they complete, so memory stays flat
	// however long the run (exact percentiles up to
	// background.DefaultExactLimit flows per statistic, a 0.5 percent
	// sketch beyond).
	err = gen.Measure(background.StatsConfig{
		Warmup: warm, Stop: end,
		Latency: setup.UnloadedLatency(net, tc.HeaderBytes+1),
		WireBytes: func(b netsim.Bytes) netsim.Bytes {
			return b + (b+tc.MSS-1)/tc.MSS*tc.HeaderBytes
		},
	})
	if err != nil {
		return nil, err
	}
	gen.Start()
	sim.At(warm, func() { fab.ResetQueueStats(warm) })
	setup.WatchFlows(r, "background flows completed", stack, end)
	sim.Run(end)

	sum, err := gen.Summary()
	if err != nil {
		return nil, err
	}
	res := r.Exp.NewResult()
	m := res.Metrics
	for _, x := range sum.Metrics("") {
		m[bgMetricName(x.Name)] = x.Value
	}
	if n := m["flows_started"]; n > 0 {
		m["mean_flow_kb"] = float64(sum.OfferedBytes) / n / 1000
	}
	m["cdf_mean_kb"] = cdf.Mean() / 1000
	if replay != nil {
		m["cdf_mean_kb"] = math.NaN() // the file's flows, not the CDF's
	}
	d, k := setup.QueueTotals(fab.SwitchQueues())
	m["drops"], m["ecn_marks"] = float64(d), float64(k)
	m["timeouts"] = float64(stack.Timeouts)
	m["events"] = float64(sim.Events())
	res.Events = sim.Events()
	if err := setup.CheckBooks(r, net); err != nil {
		return nil, err
	}
	if err := setup.WriteFCT(r, net, tc, hosts, gen); err != nil {
		return nil, err
	}
	return res, nil
}
