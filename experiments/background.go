package experiments

import (
	"math"
	"strings"

	"syncsim/netsim"
	"syncsim/switchmodel"
	"syncsim/topologies"
	"syncsim/transport"
	"syncsim/workloads/background"
)

func init() {
	metrics := []Metric{}
	for _, m := range background.MetricSchema("", nil) {
		metrics = append(metrics, Metric{Name: bgMetricName(m.Name), Unit: m.Unit, Help: m.Help})
	}
	metrics = append(metrics,
		Metric{"mean_flow_kb", "KB", "mean size of the flows started in the window"},
		Metric{"cdf_mean_kb", "KB", "mean of the workload's flow-size CDF (what mean_flow_kb estimates)"},
		Metric{"drops", "packets", "packets dropped at switch queues over the window"},
		Metric{"ecn_marks", "packets", "packets marked CE at switch queues over the window"},
		Metric{"timeouts", "", "retransmission timeouts (whole run)"},
		Metric{"events", "", "simulator events processed"},
	)
	Register(&Experiment{
		Name:    "background",
		Summary: "datacenter background traffic (Hadoop, Cache Follower, web search) on a leaf-spine: FCT and slowdown",
		Doc: "Flows with sizes drawn from the workload's flow-size CDF arrive as a Poisson process between uniformly random " +
			"host pairs of a leaf-spine fabric and run over DCTCP (or NewReno). " + strings.TrimSuffix(background.LoadDefinition, ".") + ". " +
			"Slowdown is FCT over the ideal FCT: the flow's wire bytes at the host rate plus the unloaded path latency " +
			"(propagation and per-switch store-and-forward of one full segment). Only flows that start in [warmup, duration) " +
			"count; flows still running at the end count as started, not done. Defaults are the PA-ATP NS3 fabric " +
			"(8 spines x 8 leaves x 16 hosts, 100 Gbps, 2 us, 256 KB per port).",
		Params: []Param{
			EnumParam("workload", "hadoop", background.Names(), "flow-size distribution"),
			FloatParam("load", 0.5, 0.01, 1, "offered load: bytes/s offered over aggregate host NIC capacity"),
			IntParam("spines", 8, 1, 1024, "spine switches"),
			IntParam("leaves", 8, 1, 1024, "leaf switches"),
			IntParam("hosts_per_leaf", 16, 1, 1024, "hosts under each leaf"),
			FloatParam("host_gbps", 100, 0.001, 1600, "host link rate, Gbit/s"),
			FloatParam("fabric_gbps", 100, 0.001, 1600, "leaf-spine link rate, Gbit/s"),
			FloatParam("delay_us", 2, 0, 1e6, "propagation delay of every cable, us"),
			FloatParam("buffer_kb", 256, 1.5, 1e7, "drop-tail buffer per port, KB"),
			IntParam("ecn_k_pkts", 65, 0, 1<<20, "ECN marking threshold K per port, packets (0: no marking)"),
			EnumParam("transport", "dctcp", transport.CCNames(), "congestion control of the flows"),
			FloatParam("duration_ms", 10, 0.01, 1e6, "simulated time, ms (arrivals stop at the end)"),
			warmupParam(),
		},
		Metrics: metrics,
		Run:     runBackground,
	})
}

// bgMetricName maps the background package's names onto the experiment's
// (slowdown metrics are prefixed fct_ so they read fct_slowdown_p99).
func bgMetricName(n string) string {
	if i := strings.Index(n, "slowdown_"); i >= 0 {
		return n[:i] + "fct_" + n[i:]
	}
	return n
}

// leafSpineFrom reads the fabric parameters shared by leaf-spine experiments.
func leafSpineFrom(ps Params) (topologies.LeafSpineConfig, error) {
	c := topologies.LeafSpineConfig{
		Spines:       ps.Int("spines"),
		Leaves:       ps.Int("leaves"),
		HostsPerLeaf: ps.Int("hosts_per_leaf"),
		HostRate:     netsim.Rate(ps.Float("host_gbps") * float64(netsim.Gbps)),
		FabricRate:   netsim.Rate(ps.Float("fabric_gbps") * float64(netsim.Gbps)),
		Delay:        netsim.FromMicros(ps.Float("delay_us")),
		Queue: switchmodel.QueueConfig{
			Buffer:     netsim.Bytes(math.Round(ps.Float("buffer_kb") * 1000)),
			ECNPackets: ps.Int("ecn_k_pkts"),
		},
	}
	return c, c.Queue.Validate()
}

// unloadedLatency is the time from the first bit leaving src to the last
// bit of a packet of seg bytes reaching dst on an empty network, minus the
// packet's serialisation at the source: propagation on every link plus one
// store-and-forward serialisation per switch. Callers pass the smallest
// packet a flow can send, so no flow beats its ideal (a full segment would
// make one-packet flows look faster than ideal); for multi-segment flows
// this understates the ideal by under a segment time per switch.
func unloadedLatency(net *netsim.Network, seg netsim.Bytes) func(src, dst netsim.NodeID) netsim.Time {
	return func(src, dst netsim.NodeID) netsim.Time {
		path, err := net.Path(src, dst, 0)
		if err != nil {
			return 0
		}
		var t netsim.Time
		for i, id := range path {
			l := net.Link(id)
			t += l.Delay
			if i > 0 {
				t += netsim.TxTime(seg, l.Rate)
			}
		}
		return t
	}
}

func runBackground(r *Run) (*Result, error) {
	ps := r.Params
	warm, end, err := window(ps, ps.Float("duration_ms"))
	if err != nil {
		return nil, err
	}
	lc, err := leafSpineFrom(ps)
	if err != nil {
		return nil, err
	}
	cdf, err := background.Workload(ps.String("workload"))
	if err != nil {
		return nil, err
	}
	cc, err := transport.ParseCC(ps.String("transport"))
	if err != nil {
		return nil, err
	}
	sim := netsim.New(r.Seed)
	net := netsim.NewNetwork(sim)
	fab, err := topologies.LeafSpine(net, lc)
	if err != nil {
		return nil, err
	}
	tc := transport.DefaultConfig()
	tc.CC = cc
	stack := transport.NewStack(net, tc)
	gen, err := background.New(sim, stack, background.Config{
		CDF: cdf, Load: ps.Float("load"), Hosts: fab.HostIDs(), HostRate: lc.HostRate, Stop: end,
	})
	if err != nil {
		return nil, err
	}
	gen.Start()
	sim.At(warm, func() { fab.ResetQueueStats(warm) })
	sim.Run(end)

	sum, err := gen.Stats(background.StatsConfig{
		Warmup: warm, Stop: end,
		Latency: unloadedLatency(net, tc.HeaderBytes+1),
		WireBytes: func(b netsim.Bytes) netsim.Bytes {
			return b + (b+tc.MSS-1)/tc.MSS*tc.HeaderBytes
		},
	})
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
	d, k := queueTotals(fab.SwitchQueues())
	m["drops"], m["ecn_marks"] = float64(d), float64(k)
	m["timeouts"] = float64(stack.Timeouts)
	m["events"] = float64(sim.Events())
	res.Events = sim.Events()
	if err := checkBooks(r, net); err != nil {
		return nil, err
	}
	return res, nil
}
