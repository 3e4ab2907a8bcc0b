package ina

import (
	"fmt"
	"math"

	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/netsim"
	"syncsim/scenarios/internal/inarig"
	"syncsim/switchmodel"
	"syncsim/topologies"
)

// modelMix is the PA-ATP NS3 default: ResNet50 and VGG19 jobs 1:1 (Sec. VI-A).
const modelMix = "mix"

// leafSpinePresets are ina-leafspine's run lengths. The warm-up is the
// time after which the background's leaf -> spine utilisation stays within
// a few percent of its long-run mean (measured: see warmupMs). Steady
// would need gradient_scale 0.165 for a ResNet50 iteration of 100 base
// RTTs at line rate (the base RTT is 8 x 2 us of propagation plus 4 hops
// of a 310 B gradient and a 62 B acknowledgement at 100 Gbps, 16.12 us,
// a BDP of 650 packets; 100 x 650 x 248 B = 16.1 MB of 98 MB): 33 times
// the gradient of the preset below, whose ATP point already takes 46 s
// of CPU, against a budget of about 2 minutes per point. It is shrunk to
// 0.5% (1976 packets, 3 base RTTs per ResNet50 iteration at line rate)
// with 3 iterations, the first left out (see the experiment's Doc).
var leafSpinePresets = inarig.Presets{
	Steady: inarig.RunLength{GradientScale: 0.005, Iterations: 3, SkipIters: 1, WarmupMs: warmupMs},
	Quick:  inarig.RunLength{GradientScale: 0.002, Iterations: 1, SkipIters: 0, WarmupMs: warmupMs},
}

// LeafSpine is the ina-leafspine experiment.
func LeafSpine() *experiments.Experiment {
	ls := topologies.DefaultLeafSpine()
	params := append(inarig.CommonParams("pa-atp", modelMix, append([]string{modelMix}, inarig.ModelChoices()...), 10, leafSpinePresets,
		"; steady's ResNet50 iteration is 1976 packets, 3 base RTTs at line rate (iter_rtts shows the iterations' actual length)"),
		experiments.IntParam("jobs", 8, 1, 256, "training jobs (Fig. 13: 8-32)"),
		experiments.IntParam("workers", 12, 1, inagg.MaxWorkers, "workers per job (Fig. 12: 12-24)"),
		experiments.IntParam("spines", ls.Spines, 1, 1024, "spine switches"),
		experiments.IntParam("leaves", ls.Leaves, 1, 1024, "leaf switches"),
		experiments.IntParam("hosts_per_leaf", ls.HostsPerLeaf, 1, 1024, "hosts under each leaf"),
		experiments.FloatParam("link_gbps", float64(ls.HostRate)/float64(netsim.Gbps), 0.001, 1600, "rate of every cable, Gbit/s"),
		experiments.FloatParam("delay_us", ls.Delay.Seconds()*1e6, 0, 1e6, "propagation delay of every cable, us"),
		experiments.FloatParam("buffer_kb", float64(ls.Queue.Buffer)/1000, 1.5, 1e7, "drop-tail buffer per port, KB"),
		experiments.FloatParam("ecn_k_kb", -1, -1, 1e7, "ECN marking threshold per switch port in queued KB (0: no marking; -1: DCTCP's guideline K > C x RTT / 7 "+
			"in full-size packets, 30 KB on the default fabric)").Means("0", "no marking").Auto("-1", "DCTCP's guideline K"),
	)
	params = append(params, inarig.BackgroundParams(0.5, "with load_basis=fabric the busiest tier of links (here the leaf -> spine uplinks) is "+
		"offered load of its capacity; with load_basis=host, offered bytes/s over the senders' aggregate NIC capacity")...)
	params = append(params,
		experiments.EnumParam("load_basis", inarig.BasisFabric, []string{inarig.BasisFabric, inarig.BasisHost},
			"what load is a fraction of: fabric (the busiest tier's capacity; the paper's 0.2-0.8 most plausibly, since on its 2:1 fabric "+
				"any host-basis load above 0.567 overloads the uplinks without bound) or host (the senders' NIC capacity; loads whose busiest tier "+
				"would exceed 1 are refused)").OnlyWhenPositive("load"),
		experiments.EnumParam("bg_hosts", "all", []string{"all", "idle"},
			"background senders and receivers: all hosts (the paper's all-to-all) or only hosts without a worker or PS").OnlyWhenPositive("load").WasValue("free", "idle"),
		experiments.FloatParam("sample_us", 500, 0.1, 1e6, "sampling period of the fabric_util series (with --series-dir), us"),
	)
	return inarig.WithSeries(&experiments.Experiment{
		Name:    "ina-leafspine",
		Summary: "PA-ATP Figs. 12-15: INA jobs with background traffic on the NS3 leaf-spine (workers, jobs, load, switch memory)",
		Doc: "PA-ATP Sec. VI: an 8 x 8 leaf-spine with 16 hosts per leaf (128 hosts), 100 Gbps cables of 2 us, 256 KB per port, " +
			"ECN at DCTCP's K (20 full-size packets, applied in bytes: 30 KB) on every switch port. " +
			"Placement: the hosts are shuffled by a stream seeded from (seed, \"ina-leafspine/placement\") and dealt out in order, " +
			"workers+1 per job, the first of each job's hosts being its PS; when the deck runs out it is reshuffled, so jobs share hosts " +
			"only when jobs x (workers+1) exceeds the hosts (a job's own hosts are always distinct). Each job aggregates at its PS's " +
			"leaf (every such leaf runs an aggregator of switch_mem_mib). model=mix alternates ResNet50 (even jobs) and VGG19 (odd), " +
			"the paper's 1:1 mix. Background DCTCP flows run all-to-all among all hosts (bg_hosts=all, the paper's \"flows randomly " +
			"select the host pairs\") or among the hosts without a worker or PS (bg_hosts=idle), sizes from the workload's CDF. " +
			"The background starts at t = 0 and the jobs at bg_warmup_ms, when it has reached its steady state (" + warmupDoc + "); " +
			"every metric covers the jobs only: iteration times from each job's start, agg_tput_gbps and the links' utilisation " +
			"(uplink_util leaf -> spine, downlink_util spine -> leaf, INA and background bytes together) from the first job start to the last job end. " +
			"Load basis: the fabric is 2:1 oversubscribed (16 x 100 Gbps of hosts over 8 x 100 Gbps of uplinks per leaf), and all-to-all " +
			"traffic sends (H - h)/(H - 1) = 112/127 of a leaf's flows over its uplinks, so the uplinks carry 1.76 x the host-basis load. " +
			"The paper plots loads 0.2-0.8 with finite, smoothly growing JCTs; host-basis loads above 0.567 would offer the uplinks more " +
			"than their capacity and JCTs would grow with the run's length, so the paper's load most plausibly is the fabric's " +
			"(load_basis=fabric, the default: arrivals scaled so the busiest tier, here the uplinks, is offered load of its capacity; " +
			"host_load reports the host-basis load that results, load / 1.76 on the default fabric). load_basis=host keeps the " +
			"NIC-capacity definition and refuses loads a tier cannot carry. " +
			"With bg_hosts=all a worker's NIC also carries DCTCP flows; the " +
			"INA protocols send from their own transmit ring, which the NIC serves beside the kernel's by deficit round robin. " +
			"compute_ms = 0 makes iterations communication-only (the paper's benchmark jobs). Figures: 12 workers=12..24, 13 jobs=8..32, 14 workload x load 0.2..0.8, " +
			"15 model=resnet50 load=0.5 switch_mem_mib=2..10 with the ablations. Run length: the paper pushes the full models for 100 iterations " +
			"(gradient_scale=1 iterations=100, days of simulation on one core). run_length=steady (the default) pushes 0.5% of each model " +
			"(490 KB ResNet50, 2.7 MB VGG19) for 3 iterations and leaves the first out of ajct_ms: 100 base RTTs of line rate per ResNet50 " +
			"iteration (gradient_scale=0.165) would take about 10 times the 2 minutes of CPU per point this preset is held to " +
			"(" + steadyCPUDoc + "). run_length=quick pushes 0.2% for 1 iteration, for quick looks. iter_rtts reports how many base " +
			"RTTs an iteration actually lasts. With --series-dir the run writes \"fabric_util\": uplink_util and downlink_util over each sample_us from t = 0, " +
			"warm-up included (how the warm-up default was measured).",
		Params:   params,
		Metrics:  inarig.Metrics(experiments.Metric{Name: "host_load", Unit: "", Help: "the background's load on the host basis (offered bytes/s over the senders' NIC capacity) that load on load_basis resolved to"}),
		Run:      runINALeafSpine,
		Validate: validateINALeafSpine,
	}, 10) // series_us: 1 to 2 ms of a default run in ~170 rows per job
}

// leafSpineINAConfig is the fabric of the run, with ECN in bytes.
func leafSpineINAConfig(ps experiments.Params) (topologies.LeafSpineConfig, error) {
	c := topologies.DefaultLeafSpine()
	c.Spines, c.Leaves, c.HostsPerLeaf = ps.Int("spines"), ps.Int("leaves"), ps.Int("hosts_per_leaf")
	c.HostRate = netsim.Rate(ps.Float("link_gbps") * float64(netsim.Gbps))
	c.FabricRate = c.HostRate
	c.Delay = netsim.FromMicros(ps.Float("delay_us"))
	rtt := 8 * c.Delay
	// DCTCP's K in full-size segments, as bytes, so that 310 B INA
	// packets see the same marking depth as 1500 B segments.
	k := netsim.Bytes(switchmodel.DCTCPK(c.HostRate, rtt, 1500)) * 1500
	if kb := ps.Float("ecn_k_kb"); kb >= 0 {
		k = netsim.Bytes(math.Round(kb * 1000))
	}
	c.Queue = switchmodel.QueueConfig{Buffer: netsim.Bytes(ps.Float("buffer_kb") * 1000), ECNBytes: k}
	return c, c.Queue.Validate()
}

// placeJobs deals hosts out to jobs (see the experiment's Doc): job j gets
// workers+1 distinct hosts, the first being its PS.
func placeJobs(sim *netsim.Sim, hosts []*netsim.Host, jobs, workers int) ([][]*netsim.Host, error) {
	if workers+1 > len(hosts) {
		return nil, fmt.Errorf("a job needs workers+1 = %d distinct hosts but the fabric has %d", workers+1, len(hosts))
	}
	rng := sim.Rand("ina-leafspine/placement")
	var deck []*netsim.Host
	out := make([][]*netsim.Host, jobs)
	for j := range out {
		used := make(map[*netsim.Host]bool, workers+1)
		for len(out[j]) < workers+1 {
			if len(deck) == 0 {
				deck = append(deck, hosts...)
				rng.Shuffle(len(deck), func(a, b int) { deck[a], deck[b] = deck[b], deck[a] })
			}
			h := deck[0]
			deck = deck[1:]
			if used[h] {
				continue // the job already holds it (possible only after a reshuffle): skip this card
			}
			used[h] = true
			out[j] = append(out[j], h)
		}
	}
	return out, nil
}

func runINALeafSpine(r *experiments.Run) (*experiments.Result, error) {
	g, hostLoad, err := buildINALeafSpine(r)
	if err != nil {
		return nil, err
	}
	g.Run(netsim.FromMillis(r.Params.Float("max_ms")))
	res := r.Exp.NewResult()
	if err := g.Fill(r, res); err != nil {
		return nil, err
	}
	res.Metrics["host_load"] = hostLoad
	return res, nil
}

// buildINALeafSpine builds the fabric, jobs and background of one run and
// returns the background's host-basis load.
func buildINALeafSpine(r *experiments.Run) (*inarig.Rig, float64, error) {
	ps := r.Params
	proto, err := inarig.Protocol(ps)
	if err != nil {
		return nil, 0, err
	}
	rl, err := inarig.ResolveRunLength(ps, leafSpinePresets)
	if err != nil {
		return nil, 0, err
	}
	rl.Record(r)
	lc, err := leafSpineINAConfig(ps)
	if err != nil {
		return nil, 0, err
	}
	if ps.Float("ecn_k_kb") < 0 {
		r.Resolved("ecn_k_kb", float64(lc.Queue.ECNBytes)/1000)
	}
	jobs, workers := ps.Int("jobs"), ps.Int("workers")
	horizon := netsim.FromMillis(ps.Float("max_ms"))
	start := netsim.FromMillis(rl.WarmupMs)
	g := inarig.New(r)
	g.Skip = rl.SkipIters
	g.UtilEvery = netsim.FromMicros(ps.Float("sample_us"))
	fab, err := topologies.LeafSpine(g.Net, lc)
	if err != nil {
		return nil, 0, err
	}
	g.Fab = fab
	first, last := fab.Hosts[0].ID(), fab.Hosts[len(fab.Hosts)-1].ID()
	bdp := 1
	if first != last {
		rtt, err := inarig.BaseRTT(g.Net, first, last)
		if err != nil {
			return nil, 0, err
		}
		bdp = inarig.BDP(lc.HostRate, rtt)
		g.BaseRTT = rtt
	}
	ac := inarig.AggConfig(ps, bdp)
	place, err := placeJobs(g.Sim, fab.Hosts, jobs, workers)
	if err != nil {
		return nil, 0, err
	}
	aggAt := make([]*inagg.Aggregator, fab.Groups())
	perLeaf := make([]int, fab.Groups())
	for _, hs := range place {
		perLeaf[fab.GroupOf(hs[0].ID())]++
	}
	for j, hs := range place {
		model := ps.String("model")
		if model == modelMix {
			model = "resnet50"
			if j%2 == 1 {
				model = "vgg19"
			}
		}
		g.SetModel(j, model)
		grad, err := inarig.Gradient(model, ps.Float("gradient_mb"), rl.GradientScale)
		if err != nil {
			return nil, 0, err
		}
		psHost := hs[0]
		leaf := fab.GroupOf(psHost.ID())
		if aggAt[leaf] == nil {
			if aggAt[leaf], err = inagg.NewAggregator(fab.Edge[leaf], ac); err != nil {
				return nil, 0, err
			}
			g.Aggs = append(g.Aggs, aggAt[leaf])
		}
		if _, err := g.AddJob(inagg.JobConfig{ID: j, Protocol: proto, Workers: hs[1:], PS: psHost, Switch: aggAt[leaf],
			Gradient: grad, Iterations: rl.Iterations, Compute: inarig.ComputeFunc(ps), Start: start,
			Params: g.WithPool(inarig.SwitchMLPool(ac, g.Params.SwitchMLPool, perLeaf[leaf]))}); err != nil {
			return nil, 0, fmt.Errorf("job %d: %w", j, err)
		}
	}
	bg := fab.HostIDs()
	if ps.String("bg_hosts") == "idle" {
		busy := make([]bool, len(fab.Hosts))
		for _, hs := range place {
			for _, h := range hs {
				busy[fab.HostIndex(h.ID())] = true
			}
		}
		bg = bg[:0:0]
		for i, h := range fab.Hosts {
			if !busy[i] {
				bg = append(bg, h.ID())
			}
		}
	}
	hostLoad, err := inarig.HostLoad(ps.Float("load"), ps.String("load_basis"), inarig.Tiers(inarig.FabricGroups(fab, bg, nil), lc.HostRate))
	if err != nil {
		return nil, 0, err
	}
	if err := g.AddBackground(ps, hostLoad, bg, nil, lc.HostRate, horizon); err != nil {
		return nil, 0, err
	}
	return g, hostLoad, nil
}
