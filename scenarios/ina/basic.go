package ina

import (
	"fmt"
	"math"

	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/netsim"
	"syncsim/scenarios/internal/inarig"
	"syncsim/scenarios/internal/setup"
	"syncsim/switchmodel"
	"syncsim/topologies"
	"syncsim/transport"
)

// Basic is the ina-basic experiment.
func Basic() *experiments.Experiment {
	return &experiments.Experiment{
		Name:    "ina-basic",
		Summary: "PA-ATP Fig. 8: two INA jobs on a 3-path dumbbell with a 32 Gbps UDP burst; per-flow and aggregation throughput",
		Doc:     doc("ina-basic"),
		Params: append([]experiments.Param{
			experiments.EnumParam("protocol", "pa-atp", inagg.ProtocolNames(), "gradient synchronisation protocol (the paper shows switchml, atp, pa-atp)"),
			experiments.FloatParam("gradient_a_mb", 7, 0.000248, 1e5, "job A's gradient per worker per iteration, MB"),
			experiments.FloatParam("gradient_b_mb", 3, 0.000248, 1e5, "job B's gradient per worker per iteration, MB"),
			experiments.IntParam("iterations", 1, 1, 100000, "iterations of each job"),
			experiments.FloatParam("job_b_start_ms", 1, 0, 1e6, "start of job B, ms"),
			experiments.FloatParam("udp_gbps", 32, 0, 1600, "rate of the UDP flow on p1, Gbit/s (0: none)").Means("0", "no UDP flow"),
			experiments.FloatParam("udp_ms", 1, 0.001, 1e6, "the UDP flow runs during [0, udp_ms), ms").OnlyWhenPositive("udp_gbps"),
			experiments.FloatParam("link_gbps", 40, 0.001, 1600, "rate of every cable, Gbit/s"),
			experiments.FloatParam("delay_us", 1.25, 0, 1e6, "propagation delay of every cable, us"),
			experiments.FloatParam("buffer_kb", 256, 1.5, 1e7, "drop-tail buffer per switch port, KB"),
			experiments.FloatParam("switch_mem_mib", 10, 0.001, 1024, "switch memory for aggregators, MiB; M = memory / 256 B").Was("switch_mem_mb"),
			experiments.FloatParam("eta", 0.9, 0.01, 1, "PA-ATP's AECN threshold factor eta"),
			experiments.FloatParam("sample_us", 20, 0.1, 1e6, "sampling period of the throughput series, us"),
			experiments.FloatParam("max_ms", 1000, 0.001, 1e9, "simulated-time limit, ms"),
		}, append(inarig.ConstantParams(), setup.NICParams()...)...),
		Metrics: inarig.Metrics(
			experiments.Metric{Name: "jct_a_ms", Unit: "ms", Help: "job A's mean iteration time"},
			experiments.Metric{Name: "jct_b_ms", Unit: "ms", Help: "job B's mean iteration time"},
			experiments.Metric{Name: "fa1_early_gbps", Unit: "Gbit/s", Help: "f_A1's sending rate during the UDP burst"},
			experiments.Metric{Name: "fa2_early_gbps", Unit: "Gbit/s", Help: "f_A2's sending rate during the UDP burst"},
			experiments.Metric{Name: "agg_a_early_gbps", Unit: "Gbit/s", Help: "job A's aggregation rate at S2 during the UDP burst"},
		),
		Common:   []string{"protocol", "gradient_a_mb", "gradient_b_mb", "iterations", "job_b_start_ms", "udp_gbps", "udp_ms", "link_gbps", "switch_mem_mib", "buffer_kb"},
		Headline: []string{"jct_a_ms", "jct_b_ms", "fa1_early_gbps", "fa2_early_gbps", "agg_a_early_gbps", "agg_tput_gbps", "jobs_done", "loss_frac"},
		Run:      runINABasic,
		Validate: validateINABasic,
		Cost:     basicCost(),
	}
}

// dumbbellQueue is the switch queue of the INA dumbbells: a drop-tail
// buffer and DCTCP's step threshold K (K > C x RTT / 7) in bytes of
// full-size segments, so 310 B INA packets and 1500 B segments are marked
// at the same queue depth. The testbed's ECN threshold is not given.
func dumbbellQueue(bufferKB float64, rate netsim.Rate, rtt netsim.Time) switchmodel.QueueConfig {
	k := switchmodel.DCTCPK(rate, rtt, 1500)
	return switchmodel.QueueConfig{
		Buffer:   netsim.Bytes(math.Round(bufferKB * 1000)),
		ECNBytes: netsim.Bytes(k) * 1500,
	}
}

// rateProbe is a cumulative byte counter sampled into a throughput column.
type rateProbe struct {
	name  string
	bytes func() float64
}

// rateSampler samples probes every period and writes, per interval, the
// rate of each probe in Gbit/s to the run's series name (a column
// time_ms, then <probe>_gbps); it holds no row itself.
type rateSampler struct {
	sim    *netsim.Sim
	period netsim.Time
	probes []rateProbe
	last   []float64
	row    []float64 // the row being written, reused
	out    *experiments.SeriesWriter
}

func newRateSampler(r *experiments.Run, sim *netsim.Sim, period netsim.Time, probes []rateProbe, name string) *rateSampler {
	cols := []string{"time_ms"}
	for _, p := range probes {
		cols = append(cols, p.name+"_gbps")
	}
	s := &rateSampler{sim: sim, period: period, probes: probes, last: make([]float64, len(probes)),
		row: make([]float64, 0, len(cols)), out: r.OpenSeries(name, cols...)}
	sim.Schedule(period, s, 0, nil, 0)
	return s
}

// HandleEvent closes one interval and schedules the next.
func (s *rateSampler) HandleEvent(ev netsim.Event) {
	s.row = append(s.row[:0], ev.At.Seconds()*1e3)
	for i, p := range s.probes {
		b := p.bytes()
		s.row = append(s.row, setup.Gbps(b-s.last[i], s.period))
		s.last[i] = b
	}
	s.out.Row(s.row...)
	s.sim.Schedule(ev.At+s.period, s, 0, nil, 0)
}

// series returns the samples as a Series, for Result.Series.
func (s *rateSampler) series() experiments.Series { return s.out.Series() }

func runINABasic(r *experiments.Run) (*experiments.Result, error) {
	ps := r.Params
	proto, err := inarig.Protocol(ps)
	if err != nil {
		return nil, err
	}
	rate := netsim.Rate(ps.Float("link_gbps") * float64(netsim.Gbps))
	delay := netsim.FromMicros(ps.Float("delay_us"))
	udpRate := netsim.Rate(ps.Float("udp_gbps") * float64(netsim.Gbps))
	udpStop := netsim.FromMillis(ps.Float("udp_ms"))
	if udpRate > rate {
		return nil, fmt.Errorf("udp_gbps=%g exceeds link_gbps=%g", ps.Float("udp_gbps"), ps.Float("link_gbps"))
	}
	g := inarig.New(r)
	// Hosts: l0 A1, l1 A2, l2 B1, l3 B2, l4 UDP source; r0 PS A, r1 PS B, r2 UDP sink.
	rtt := 8 * delay
	fab, err := topologies.Dumbbell(g.Net, 5, 3, 3, rate, rate, delay, dumbbellQueue(ps.Float("buffer_kb"), rate, rtt))
	if err != nil {
		return nil, err
	}
	if err := setup.ApplyNIC(ps, fab); err != nil {
		return nil, err
	}
	g.Fab = fab
	L, R := fab.HostsOf(0), fab.HostsOf(1)
	brtt, err := inarig.BaseRTT(g.Net, L[0].ID(), R[0].ID())
	if err != nil {
		return nil, err
	}
	g.BaseRTT = brtt
	agg, err := inagg.NewAggregator(fab.Edge[1], inarig.AggConfig(ps, inarig.BDP(rate, brtt)))
	if err != nil {
		return nil, err
	}
	g.Aggs = []*inagg.Aggregator{agg}
	pin := func(src, dst *netsim.Host, path int) (uint64, error) {
		return fab.FlowForPath(src.ID(), dst.ID(), path)
	}
	type jobSpec struct {
		workers []*netsim.Host
		ps      *netsim.Host
		paths   []int
		mb      float64
		start   netsim.Time
	}
	specs := []jobSpec{
		{[]*netsim.Host{L[0], L[1]}, R[0], []int{0, 1}, ps.Float("gradient_a_mb"), 0},
		{[]*netsim.Host{L[2], L[3]}, R[1], []int{1, 2}, ps.Float("gradient_b_mb"), netsim.FromMillis(ps.Float("job_b_start_ms"))},
	}
	for id, s := range specs {
		flows := make([]uint64, len(s.workers))
		for w, h := range s.workers {
			if flows[w], err = pin(h, s.ps, s.paths[w]); err != nil {
				return nil, err
			}
		}
		_, err := g.AddJob(inagg.JobConfig{
			ID: id, Protocol: proto, Workers: s.workers, PS: s.ps, Switch: agg,
			Gradient:   netsim.Bytes(math.Round(s.mb * float64(netsim.Megabyte))),
			Iterations: ps.Int("iterations"), Start: s.start, Flows: flows,
		})
		if err != nil {
			return nil, err
		}
	}
	var udp *transport.CBR
	if udpRate > 0 {
		f, err := pin(L[4], R[2], 0)
		if err != nil {
			return nil, err
		}
		udp = transport.NewCBR(g.Net, L[4].ID(), R[2].ID(), udpRate, 1500, 0, udpStop, f)
	}
	A, B := g.Jobs[0], g.Jobs[1]
	sent := func(j *inagg.Job, w int) func() float64 {
		return func() float64 { return float64(j.WorkerStats(w).SentBytes) }
	}
	probes := []rateProbe{
		{"f_a1", sent(A, 0)}, {"f_a2", sent(A, 1)}, {"f_b1", sent(B, 0)}, {"f_b2", sent(B, 1)},
		{"udp", func() float64 {
			if udp == nil {
				return 0
			}
			return float64(udp.SentBytes)
		}},
		{"agg_a", A.SwitchAggregatedBytes}, {"agg_b", B.SwitchAggregatedBytes},
		{"agg_total", func() float64 { return A.SwitchAggregatedBytes() + B.SwitchAggregatedBytes() }},
	}
	var smp *rateSampler
	if r.Series {
		smp = newRateSampler(r, g.Sim, netsim.FromMicros(ps.Float("sample_us")), probes, "throughput")
	}
	var early []float64
	g.Sim.At(udpStop, func() {
		for _, p := range probes {
			early = append(early, p.bytes())
		}
	})
	g.Run(netsim.FromMillis(ps.Float("max_ms")))

	res := r.Exp.NewResult()
	if err := g.Fill(r, res); err != nil {
		return nil, err
	}
	m := res.Metrics
	for i, name := range []string{"jct_a_ms", "jct_b_ms"} {
		if j := g.Jobs[i]; j.Done() {
			m[name] = j.AJCT().Seconds() * 1e3
		}
	}
	if early != nil {
		m["fa1_early_gbps"] = setup.Gbps(early[0], udpStop)
		m["fa2_early_gbps"] = setup.Gbps(early[1], udpStop)
		m["agg_a_early_gbps"] = setup.Gbps(early[5], udpStop)
	}
	if smp != nil {
		res.Series = append(res.Series, smp.series())
	}
	return res, nil
}
