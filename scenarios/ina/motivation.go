package ina

import (
	"fmt"
	"math"

	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/netsim"
	"syncsim/scenarios/internal/inarig"
	"syncsim/scenarios/internal/setup"
	"syncsim/topologies"
	"syncsim/transport"
)

// The three motivating examples of PA-ATP Sec. II-B, on a dumbbell whose
// parallel paths play the paper's paths and links.
const (
	exSyncAsync  = "sync-vs-async"
	exProgress   = "progress"
	exAsyncLimit = "async-limit"
)

// windowed are the examples measured over [warmup, duration_ms).
var windowed = []string{exProgress, exAsyncLimit}

// Motivation is the ina-motivation experiment.
func Motivation() *experiments.Experiment {
	return &experiments.Experiment{
		Name:    "ina-motivation",
		Summary: "PA-ATP Sec. II-B motivating examples (Figs. 1-3): sync vs async, progress-agnostic vs -aware, async unlimited vs limited",
		Doc:     doc("ina-motivation"),
		Params: append([]experiments.Param{
			experiments.EnumParam("example", exSyncAsync, []string{exSyncAsync, exProgress, exAsyncLimit}, "which motivating example (Fig. 1, 2 or 3)"),
			experiments.EnumParam("protocol", "strawasyn", inagg.ProtocolNames(), "gradient synchronisation protocol (the side of the comparison)"),
			experiments.FloatParam("unit_ms", 1, 0.001, 1e4, "time unit, ms (a data unit is link_gbps x unit_ms)"),
			experiments.FloatParam("gradient_units", 4, 0.001, 1e4, "gradient per worker for progress and async-limit, data units").OnlyWhen("example", windowed...),
			experiments.FloatParam("bg_frac", 0.75, 0, 0.99, "fraction of a path the UDP flow takes (progress, async-limit; sync-vs-async uses the paper's 3/4)").OnlyWhen("example", windowed...),
			experiments.FloatParam("duration_ms", 4, 0.01, 1e6, "simulated time for progress and async-limit, ms").OnlyWhen("example", windowed...),
			setup.WarmupParam().OnlyWhen("example", windowed...),
			experiments.FloatParam("link_gbps", 40, 0.001, 1600, "rate of every cable, Gbit/s"),
			experiments.FloatParam("delay_us", 1.25, 0, 1e6, "propagation delay of every cable, us (1.25: a 10 us base RTT)"),
			experiments.FloatParam("buffer_kb", 256, 1.5, 1e7, "drop-tail buffer per switch port, KB"),
			experiments.FloatParam("switch_mem_mib", 10, 0.001, 1024, "switch memory for aggregators, MiB (async-limit uses min(this, 1))").Was("switch_mem_mb"),
			experiments.FloatParam("eta", 0.9, 0.01, 1, "PA-ATP's AECN threshold factor eta"),
			experiments.FloatParam("max_ms", 1000, 0.001, 1e9, "simulated-time limit for sync-vs-async, ms").OnlyWhen("example", exSyncAsync),
			experiments.FloatParam("sample_us", 20, 0.1, 1e6, "sampling period of the throughput series, us"),
		}, append(inarig.ConstantParams(), setup.NICParams()...)...),
		Metrics: inarig.Metrics(
			experiments.Metric{Name: "ajct_units", Unit: "units", Help: "AJCT in time units (sync-vs-async)"},
			experiments.Metric{Name: "ideal_ajct_units", Unit: "units", Help: "the paper's fluid AJCT for the protocol's class: 1.625 synchronous, 1.125 asynchronous (sync-vs-async)"},
			experiments.Metric{Name: "wire_ajct_units", Unit: "units", Help: "the same fluid AJCT with the 62 B header of every 248 B payload on the wire: 2.0 synchronous, 1.3125 asynchronous (sync-vs-async)"},
			experiments.Metric{Name: "agg_window_gbps", Unit: "Gbit/s", Help: "completed-aggregation throughput of both jobs over the window (progress, async-limit)"},
			experiments.Metric{Name: "switch_agg_window_gbps", Unit: "Gbit/s", Help: "gradient bytes aggregated at the switch per second over the window (progress, async-limit)"},
			experiments.Metric{Name: "ideal_agg_gbps", Unit: "Gbit/s", Help: "fluid ideal of agg_window_gbps for the protocol's class (progress)"},
		),
		Common:   []string{"example", "protocol", "unit_ms", "gradient_units", "bg_frac", "duration_ms", "link_gbps", "delay_us", "switch_mem_mib", "eta"},
		Headline: []string{"ajct_units", "ideal_ajct_units", "wire_ajct_units", "agg_window_gbps", "switch_agg_window_gbps", "ideal_agg_gbps", "jobs_done", "loss_frac"},
		Run:      runINAMotivation,
		Validate: validateINAMotivation,
		Cost:     motivationCost(),
	}
}

// motivationJob is one job of an example: workers on S1 hosts with their
// paths, a PS on an S2 host.
type motivationJob struct {
	workers []int // S1 host indices
	paths   []int
	ps      int // S2 host index
	grad    netsim.Bytes
	start   netsim.Time
}

// motivationSetup is one example's layout.
type motivationSetup struct {
	paths    int
	jobs     []motivationJob
	udpPath  int
	udpRate  netsim.Rate
	udpStop  netsim.Time // 0: until the end
	memMB    float64
	windowed bool
}

func motivationLayout(ps experiments.Params, rate netsim.Rate) (motivationSetup, error) {
	unit := netsim.FromMillis(ps.Float("unit_ms"))
	unitBytes := float64(rate) / 8 * unit.Seconds()
	frac := ps.Float("bg_frac")
	big := netsim.Bytes(math.Round(ps.Float("gradient_units") * unitBytes))
	mem := ps.Float("switch_mem_mib")
	switch ps.String("example") {
	case exSyncAsync:
		// Fig. 1: gradients of 3/4 unit; the background takes 3/4 of P2 in [0, 1).
		g := netsim.Bytes(math.Round(0.75 * unitBytes))
		return motivationSetup{paths: 2, udpPath: 1, udpRate: rate * 3 / 4, udpStop: unit, memMB: mem,
			jobs: []motivationJob{
				{workers: []int{0, 1}, paths: []int{0, 1}, ps: 0, grad: g},
				{workers: []int{2}, paths: []int{0}, ps: 1, grad: g, start: unit},
			}}, nil
	case exProgress:
		return motivationSetup{paths: 3, udpPath: 2, udpRate: netsim.Rate(frac * float64(rate)), memMB: mem, windowed: true,
			jobs: []motivationJob{
				{workers: []int{0, 1}, paths: []int{0, 1}, ps: 0, grad: big},
				{workers: []int{2, 3}, paths: []int{1, 2}, ps: 1, grad: big},
			}}, nil
	case exAsyncLimit:
		return motivationSetup{paths: 3, udpPath: 1, udpRate: netsim.Rate(frac * float64(rate)), memMB: math.Min(mem, 1), windowed: true,
			jobs: []motivationJob{
				{workers: []int{0, 1}, paths: []int{0, 1}, ps: 0, grad: big},
				{workers: []int{2, 3}, paths: []int{2, 2}, ps: 0, grad: big},
			}}, nil
	}
	return motivationSetup{}, fmt.Errorf("unknown example %q", ps.String("example"))
}

// progressAware reports whether a protocol behaves, in Fig. 2, like the
// progress-aware side: PA-ATP-style cuts, or a synchronous clock that holds
// the leading flow to the straggler's pace.
func progressAware(p inagg.Protocol) bool { return p.ProgressAware() || !p.Async() }

func runINAMotivation(r *experiments.Run) (*experiments.Result, error) {
	ps := r.Params
	proto, err := inarig.Protocol(ps)
	if err != nil {
		return nil, err
	}
	rate := netsim.Rate(ps.Float("link_gbps") * float64(netsim.Gbps))
	delay := netsim.FromMicros(ps.Float("delay_us"))
	lay, err := motivationLayout(ps, rate)
	if err != nil {
		return nil, err
	}
	warm, end := netsim.Time(0), netsim.FromMillis(ps.Float("max_ms"))
	if lay.windowed {
		if warm, end, err = setup.RunWindow(r, ps.Float("duration_ms")); err != nil {
			return nil, err
		}
	}
	g := inarig.New(r)
	fab, err := topologies.Dumbbell(g.Net, 5, 3, lay.paths, rate, rate, delay, dumbbellQueue(ps.Float("buffer_kb"), rate, 8*delay))
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
	ac := inarig.AggConfig(ps, inarig.BDP(rate, brtt))
	ac.Memory = netsim.Bytes(math.Round(lay.memMB * float64(netsim.MiB)))
	agg, err := inagg.NewAggregator(fab.Edge[1], ac)
	if err != nil {
		return nil, err
	}
	g.Aggs = []*inagg.Aggregator{agg}
	var probes []rateProbe
	for id, mj := range lay.jobs {
		workers := make([]*netsim.Host, len(mj.workers))
		flows := make([]uint64, len(mj.workers))
		for w, hi := range mj.workers {
			workers[w] = L[hi]
			if flows[w], err = fab.FlowForPath(L[hi].ID(), R[mj.ps].ID(), mj.paths[w]); err != nil {
				return nil, err
			}
		}
		j, err := g.AddJob(inagg.JobConfig{ID: id, Protocol: proto, Workers: workers, PS: R[mj.ps], Switch: agg,
			Gradient: mj.grad, Iterations: 1, Start: mj.start, Flows: flows})
		if err != nil {
			return nil, err
		}
		for w := range workers {
			probes = append(probes, rateProbe{fmt.Sprintf("f_%c%d", 'a'+id, w+1), func() float64 { return float64(j.WorkerStats(w).SentBytes) }})
		}
		probes = append(probes, rateProbe{fmt.Sprintf("agg_%c", 'a'+id), j.SwitchAggregatedBytes})
	}
	if lay.udpRate > 0 {
		f, err := fab.FlowForPath(L[4].ID(), R[2].ID(), lay.udpPath)
		if err != nil {
			return nil, err
		}
		stop := lay.udpStop
		if stop == 0 {
			stop = end
		}
		transport.NewCBR(g.Net, L[4].ID(), R[2].ID(), lay.udpRate, 1500, 0, stop, f)
	}
	var smp *rateSampler
	if r.Series {
		smp = newRateSampler(r, g.Sim, netsim.FromMicros(ps.Float("sample_us")), probes, "throughput")
	}
	reduced := func() (all, sw float64) {
		for _, j := range g.Jobs {
			all += float64(j.TotalWorkerStats().Results) * float64(j.PayloadBytes())
			sw += j.SwitchAggregatedBytes()
		}
		return all, sw
	}
	var base0, base1 float64
	g.Sim.At(warm, func() { base0, base1 = reduced() })
	g.Run(end)

	res := r.Exp.NewResult()
	if err := g.Fill(r, res); err != nil {
		return nil, err
	}
	m := res.Metrics
	unitMs := ps.Float("unit_ms")
	pay := float64(inagg.INAPayloadBytes) / float64(inagg.INAPayloadBytes+inagg.INAHeaderBytes)
	c := float64(rate) / 1e9
	switch ps.String("example") {
	case exSyncAsync:
		m["ajct_units"] = m["ajct_ms"] / unitMs
		if proto.INA() {
			sync := !proto.Async()
			m["ideal_ajct_units"] = fig1AJCT(0.75, sync)
			m["wire_ajct_units"] = fig1AJCT(0.75/pay, sync)
		}
	default:
		all, sw := reduced()
		m["agg_window_gbps"] = setup.Gbps(all-base0, g.Sim.Now()-warm)
		m["switch_agg_window_gbps"] = setup.Gbps(sw-base1, g.Sim.Now()-warm)
		if ps.String("example") == exProgress && proto.INA() {
			f := ps.Float("bg_frac")
			// Per-worker rates: A limited by A2's share of p2, B by B2's (1-f) C.
			a := 0.5
			if progressAware(proto) {
				a = math.Max(f, 0.5)
			}
			b := math.Min(1-f, 1-a)
			m["ideal_agg_gbps"] = 2 * (a + b) * c * pay
		}
	}
	if smp != nil {
		res.Series = append(res.Series, smp.series())
	}
	return res, nil
}
