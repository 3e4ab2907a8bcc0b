package network

import (
	"math"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/setup"
	"syncsim/switchmodel"
	"syncsim/topologies"
	"syncsim/transport"
)

// Incast is the incast experiment.
func Incast() *experiments.Experiment {
	return &experiments.Experiment{
		Name:    "incast",
		Summary: "N long-lived (or one-shot) DCTCP/NewReno senders to one receiver through one switch",
		Doc:     doc("incast"),
		Params: append([]experiments.Param{
			experiments.IntParam("senders", 8, 1, 4096, "number of senders"),
			experiments.FloatParam("link_gbps", 10, 0.001, 1600, "rate of every cable, Gbit/s"),
			experiments.FloatParam("delay_us", 10, 0, 1e6, "propagation delay of every cable, us"),
			experiments.IntParam("ecn_k_pkts", 65, 0, 1<<20, "ECN marking threshold K at the bottleneck, packets (0: no marking)").Means("0", "no marking"),
			experiments.FloatParam("buffer_kb", 1000, 1.5, 1e7, "bottleneck drop-tail buffer, KB (1 KB = 1000 B)"),
			experiments.FloatParam("duration_ms", 100, 0.001, 1e6, "simulated time, ms"),
			setup.WarmupParam(),
			experiments.EnumParam("transport", "dctcp", transport.CCNames(), "congestion control of the senders"),
			setup.CWRParam(),
			experiments.FloatParam("flow_kb", 0, 0, 1e9, "size of each sender's flow, KB (0: long-lived)").Means("0", "long-lived flows"),
			experiments.FloatParam("start_jitter_us", 10, 0, 1e6, "each flow starts at a uniformly random time in [0, start_jitter_us), us"),
			experiments.FloatParam("min_rto_us", 1000, 1, 1e7, "retransmission-timeout floor, us"),
			experiments.FloatParam("sample_us", 10, 0, 1e6, "queue sampling period for queue_min_pkts and the queue series, us (0: off)").Means("0", "no sampling"),
		}, append(setup.NICParams(), setup.PartitionsParam())...),
		Metrics: []experiments.Metric{
			{Name: "goodput_gbps", Unit: "Gbit/s", Help: "payload delivered to the receiver per second over the window"},
			{Name: "utilisation", Unit: "", Help: "bottleneck busy fraction over the window (wire bytes / capacity)"},
			{Name: "jain", Unit: "", Help: "Jain's fairness index of per-flow goodput over the window"},
			{Name: "queue_mean_pkts", Unit: "packets", Help: "time-averaged bottleneck queue over the window"},
			{Name: "queue_max_pkts", Unit: "packets", Help: "largest bottleneck queue over the window"},
			{Name: "queue_min_pkts", Unit: "packets", Help: "smallest sampled bottleneck queue over the window (NaN without sampling)"},
			{Name: "drops", Unit: "packets", Help: "packets dropped at switch queues over the window"},
			{Name: "ecn_marks", Unit: "packets", Help: "packets marked CE at switch queues over the window"},
			{Name: "timeouts", Unit: "", Help: "TCP retransmission timeouts (whole run)"},
			{Name: "retransmits", Unit: "packets", Help: "retransmitted segments (whole run)"},
			{Name: "incast_fct_ms", Unit: "ms", Help: "time until every one-shot flow completed (NaN for long-lived flows or if not all completed)"},
			{Name: "dctcp_qmax_pkts", Unit: "packets", Help: "DCTCP analysis: K + N"},
			{Name: "dctcp_amplitude_pkts", Unit: "packets", Help: "DCTCP analysis: queue oscillation amplitude N (W*+1) alpha/2"},
			{Name: "events", Unit: "", Help: "simulator events processed"},
		},
		Common:   []string{"senders", "link_gbps", "transport", "flow_kb", "ecn_k_pkts", "buffer_kb", "duration_ms", "delay_us", "min_rto_us", "nic"},
		Headline: []string{"goodput_gbps", "utilisation", "jain", "queue_mean_pkts", "queue_max_pkts", "drops", "timeouts", "incast_fct_ms"},
		Run:      runIncast,
		Validate: validateIncast,
		Cost:     incastCost(),
		Threads:  true,
	}
}

// incastRig is one built incast scenario.
type incastRig struct {
	sim   *netsim.Sim
	fab   *topologies.Fabric
	stack *transport.Stack
	flows []*transport.Flow
	bneck *switchmodel.PortQueue
	port  *netsim.Port
	recv  netsim.NodeID
	bdp   float64 // bandwidth-delay product, full-size packets
}

func buildIncast(r *experiments.Run) (*incastRig, error) {
	ps := r.Params
	n := ps.Int("senders")
	rate := netsim.Rate(ps.Float("link_gbps") * float64(netsim.Gbps))
	delay := netsim.FromMicros(ps.Float("delay_us"))
	cfg, err := setup.Transport(ps)
	if err != nil {
		return nil, err
	}
	cfg.MinRTO = netsim.FromMicros(ps.Float("min_rto_us"))
	if cfg.InitRTO < cfg.MinRTO {
		cfg.InitRTO = cfg.MinRTO
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	q := switchmodel.QueueConfig{
		Buffer:     netsim.Bytes(math.Round(ps.Float("buffer_kb") * 1000)),
		ECNPackets: ps.Int("ecn_k_pkts"),
	}
	if err := q.Validate(); err != nil {
		return nil, err
	}
	sim := setup.NewSim(r)
	net := netsim.NewNetwork(sim)
	fab, err := topologies.Star(net, n+1, rate, delay, q)
	if err != nil {
		return nil, err
	}
	if err := setup.ApplyNIC(ps, fab); err != nil {
		return nil, err
	}
	if err := setup.Parallel(r, net); err != nil {
		return nil, err
	}
	rig := &incastRig{sim: sim, fab: fab, stack: transport.NewStack(net, cfg)}
	recv := fab.Hosts[n].ID()
	sw := fab.Switches[0].ID()
	rig.recv = recv
	rig.bneck = fab.QueueBetween(sw, recv)
	rig.port = fab.PortBetween(sw, recv)
	// Base RTT: four propagation delays, a full segment serialised at the
	// sender and the switch, and an ACK serialised twice.
	seg := cfg.MSS + cfg.HeaderBytes
	rtt := 4*delay + 2*netsim.TxTime(seg, rate) + 2*netsim.TxTime(cfg.HeaderBytes, rate)
	rig.bdp = float64(rate) * rtt.Seconds() / float64(8*seg)
	size := netsim.Bytes(math.Round(ps.Float("flow_kb") * 1000))
	jitter := netsim.FromMicros(ps.Float("start_jitter_us"))
	rng := sim.Rand("incast/starts")
	for i := 0; i < n; i++ {
		src := fab.Hosts[i].ID()
		var at netsim.Time
		if jitter > 0 {
			at = netsim.Time(rng.Int64N(int64(jitter)))
		}
		// Flows open at time zero and send their first segment at their
		// start time, so the flow list is complete before the run.
		f := rig.stack.Start(src, recv, transport.FlowOpts{Size: size, StartLatency: at}, nil)
		rig.flows = append(rig.flows, f)
	}
	return rig, nil
}

func runIncast(r *experiments.Run) (*experiments.Result, error) {
	ps := r.Params
	warm, end, err := setup.RunWindow(r, ps.Float("duration_ms"))
	if err != nil {
		return nil, err
	}
	rig, err := buildIncast(r)
	if err != nil {
		return nil, err
	}
	res := r.Exp.NewResult()
	sim := rig.sim

	// Queue sampling (cheap: one event per period) for the minimum and the series.
	var smp *queueSampler
	if p := netsim.FromMicros(ps.Float("sample_us")); p > 0 {
		smp = &queueSampler{sim: sim, q: rig.bneck, period: p, from: warm, run: r, min: math.MaxInt}
		sim.Schedule(0, smp, 0, nil, 0)
	}

	// Snapshot per-flow delivery and the port's books at the warm-up mark.
	base := make([]netsim.Bytes, len(rig.flows))
	var baseBusy netsim.Time
	sim.At(warm, func() {
		for i, f := range rig.flows {
			base[i] = f.Delivered()
		}
		baseBusy = rig.port.BusyTime()
		rig.fab.ResetQueueStats(warm)
	})
	watchFlows(r, rig.flows, netsim.Bytes(math.Round(ps.Float("flow_kb")*1000)), end, 4*ps.Float("min_rto_us")/1e6)
	sim.Run(end)

	win := end - warm
	per := make([]float64, len(rig.flows))
	var total float64
	allDone := true
	var last netsim.Time
	for i, f := range rig.flows {
		per[i] = float64(f.Delivered() - base[i])
		total += per[i]
		if !f.Done() {
			allDone = false
		} else if f.End > last {
			last = f.End
		}
	}
	m := res.Metrics
	m["goodput_gbps"] = setup.Gbps(total, win)
	// Busy time may include the tail of the packet in service; clip to 1.
	m["utilisation"] = math.Min(1, float64(rig.port.BusyTime()-baseBusy)/float64(win))
	if ps.Float("flow_kb") == 0 {
		m["jain"] = setup.Jain(per)
	} else if allDone {
		m["incast_fct_ms"] = last.Seconds() * 1e3
	}
	m["queue_mean_pkts"] = rig.bneck.MeanPackets(end)
	m["queue_max_pkts"] = float64(rig.bneck.MaxPackets)
	qs := rig.fab.SwitchQueues()
	d, k := setup.QueueTotals(qs)
	m["drops"], m["ecn_marks"] = float64(d), float64(k)
	m["timeouts"] = float64(rig.stack.Timeouts)
	m["retransmits"] = float64(rig.stack.Retransmits)
	if K := ps.Int("ecn_k_pkts"); K > 0 {
		st := DCTCPAnalysis(rig.bdp, float64(K), len(rig.flows))
		m["dctcp_qmax_pkts"], m["dctcp_amplitude_pkts"] = st.QMax, st.Amplitude
	}
	if smp != nil && smp.n > 0 {
		m["queue_min_pkts"] = float64(smp.min)
	}
	m["events"] = float64(sim.Events())
	res.Events = sim.Events()
	if err := setup.CheckBooks(r, rig.fab.Net); err != nil {
		return nil, err
	}
	return res, nil
}

// queueSampler reads a queue's length every period from a start time.
type queueSampler struct {
	sim    *netsim.Sim
	q      *switchmodel.PortQueue
	period netsim.Time
	from   netsim.Time
	run    *experiments.Run // rows go to its "queue" series when it collects series
	out    *experiments.SeriesWriter
	min    int
	n      int
}

// HandleEvent takes one sample and schedules the next.
func (s *queueSampler) HandleEvent(ev netsim.Event) {
	if ev.At >= s.from {
		l := s.q.Len()
		s.n++
		if l < s.min {
			s.min = l
		}
		if s.run.Series {
			if s.out == nil {
				s.out = s.run.OpenSeries("queue", "time_ms", "queue_pkts")
			}
			s.out.Row(ev.At.Seconds()*1e3, float64(l))
		}
	}
	s.sim.Schedule(ev.At+s.period, s, 0, nil, 0)
}

// validateIncast checks what the parameter ranges cannot: the warm-up
// ends before the run does.
func validateIncast(ps experiments.Params) error { return setup.ValidateWindow(ps) }
