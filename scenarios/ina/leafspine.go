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
)

// modelMix is the PA-ATP NS3 default: ResNet50 and VGG19 jobs 1:1 (Sec. VI-A).
const modelMix = "mix"

// agg_placement's choices.
const (
	placePSLeaf    = "ps-leaf"
	placeTwoLevel  = "two-level"
	placeEveryTier = "every-tier" // tiers.go
)

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
		setup.TopologyParam([]string{"leaf-spine", "fattree"}, "fabric: the NS3 leaf-spine, or a k-ary fat-tree (every job's INA switch is "+
			"its PS's edge switch, as on the leaf-spine)"),
		experiments.IntParam("spines", ls.Spines, 1, 1024, "spine switches"),
		experiments.IntParam("leaves", ls.Leaves, 1, 1024, "leaf switches"),
		experiments.IntParam("hosts_per_leaf", ls.HostsPerLeaf, 1, 1024, "hosts under each leaf"),
	)
	params = append(params, setup.FatTreeParams()...)
	params = append(params, setup.TopologyFileParam(),
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
		experiments.EnumParam("agg_placement", placePSLeaf, []string{placePSLeaf, placeTwoLevel, placeEveryTier}, "where ATP aggregates: ps-leaf = at the "+
			"PS's leaf only, the one aggregating switch every gradient of the job crosses, as the PA-ATP paper describes INA; two-level = "+
			"ATP's multi-rack aggregation (Lao et al.), each worker's leaf summing the job's workers under it and the PS's leaf summing the "+
			"racks; every-tier = an aggregation tree per job on a fat-tree or the leaf-spine: the job's paths pinned through one core (spine) "+
			"chosen by its id, every switch where two or more of the job's streams meet (worker edge, the pod's aggregation switch, the core, "+
			"the PS's pod) sums them, and results come back down the tree (not with topology_file). The other protocols aggregate at the "+
			"PS's leaf either way").OnlyWhen("protocol", "atp"),
		inaEngineParam(), inaPartitionsParam(),
	)
	params = append(params, setup.NICParams()...)
	params = append(params, setup.FlowsParams()...)
	return inarig.WithSeries(&experiments.Experiment{
		Name:    "ina-leafspine",
		Summary: "PA-ATP Figs. 12-15: INA jobs with background traffic on the NS3 leaf-spine (workers, jobs, load, switch memory)",
		Doc:     doc("ina-leafspine"),
		Params:  params,
		Metrics: inarig.Metrics(experiments.Metric{Name: "host_load", Unit: "", Help: "the background's load on the host basis (offered bytes/s over the senders' NIC capacity) that load on load_basis resolved to"},
			experiments.Metric{Name: "core_mb", Unit: "MB", Help: "megabytes sent on the cables to and from the fabric's top tier (a fat-tree's core switches, " +
				"the leaf-spine's spines), both ways, from the first job start to the end of the run, background included"}),
		Common:   []string{"protocol", "model", "jobs", "workers", "workload", "load", "switch_mem_mib", "run_length", "gradient_scale", "iterations"},
		Headline: []string{"ajct_ms", "jct_max_ms", "agg_tput_gbps", "switch_agg_frac", "jobs_done", "loss_frac", "drops", "host_load"},
		Run:      runINALeafSpine,
		Validate: validateINALeafSpine,
		Cost:     leafSpineCost(),
		Engine:   "engine",
	}, 10) // series_us: 1 to 2 ms of a default run in ~170 rows per job
}

// leafSpineINAConfig is the fabric of the run, with ECN in bytes: the
// leaf-spine's, whose longest path has 4 cables each way (a fat-tree's
// has 6).
func leafSpineINAConfig(ps experiments.Params) (topologies.LeafSpineConfig, error) {
	c := topologies.DefaultLeafSpine()
	c.Spines, c.Leaves, c.HostsPerLeaf = ps.Int("spines"), ps.Int("leaves"), ps.Int("hosts_per_leaf")
	c.HostRate = netsim.Rate(ps.Float("link_gbps") * float64(netsim.Gbps))
	c.FabricRate = c.HostRate
	c.Delay = netsim.FromMicros(ps.Float("delay_us"))
	rtt := 8 * c.Delay
	if ps.Has("topology") && ps.String("topology") == "fattree" {
		rtt = 12 * c.Delay
	}
	c.Queue = switchmodel.QueueConfig{Buffer: netsim.Bytes(ps.Float("buffer_kb") * 1000), ECNBytes: inaECN(ps, c.HostRate, rtt)}
	return c, c.Queue.Validate()
}

// inaECN is the ECN threshold in bytes: ecn_k_kb, or with -1 DCTCP's K
// for a bottleneck of rate and round trip rtt in full-size segments, as
// bytes, so that 310 B INA packets see the same marking depth as 1500 B
// segments.
func inaECN(ps experiments.Params, rate netsim.Rate, rtt netsim.Time) netsim.Bytes {
	if kb := ps.Float("ecn_k_kb"); kb >= 0 {
		return netsim.Bytes(math.Round(kb * 1000))
	}
	return netsim.Bytes(switchmodel.DCTCPK(rate, rtt, 1500)) * 1500
}

// inaFabric builds the run's fabric: the topology_file if one is set
// (its links' rates and delays; with ecn_k_kb=-1, K from its host rate
// and topologies.TopologyFile.RTTBound), else the leaf-spine or the
// fat-tree (k, hosts_per_edge at link_gbps and delay_us). It returns the
// fabric and its configuration with the host rate and queues it was
// built with.
func inaFabric(net *netsim.Network, ps experiments.Params) (*topologies.Fabric, topologies.LeafSpineConfig, error) {
	lc, err := leafSpineINAConfig(ps)
	if err != nil {
		return nil, lc, err
	}
	var fab *topologies.Fabric
	switch {
	case setup.UsesFile(ps):
		tf, err := topologies.ReadTopologyFile(ps.Str("topology_file"))
		if err != nil {
			return nil, lc, err
		}
		lc.HostRate = tf.HostRate()
		lc.Queue.ECNBytes = inaECN(ps, lc.HostRate, tf.RTTBound())
		if fab, err = topologies.FromFile(net, tf, lc.Queue); err != nil {
			return nil, lc, err
		}
		if lc.HostRate, err = fab.UniformHostRate(); err != nil {
			return nil, lc, err
		}
	case ps.String("topology") == "fattree":
		c := topologies.FatTreeConfig{K: ps.Int("k"), HostsPerEdge: ps.Int("hosts_per_edge"),
			HostRate: lc.HostRate, FabricRate: lc.FabricRate, Delay: lc.Delay, Queue: lc.Queue}
		if c.HostsPerEdge == 0 {
			c.HostsPerEdge = c.K / 2
		}
		fab, err = topologies.FatTree(net, c)
	default:
		fab, err = topologies.LeafSpine(net, lc)
	}
	if err != nil {
		return nil, lc, err
	}
	return fab, lc, setup.ApplyNIC(ps, fab)
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
	res, _, err := runLeafSpineRig(r)
	return res, err
}

// runLeafSpineRig is runINALeafSpine, returning the rig as well (for the
// benchmarks, which read its Sim's event mix).
func runLeafSpineRig(r *experiments.Run) (*experiments.Result, *inarig.Rig, error) {
	g, hostLoad, err := buildINALeafSpine(r)
	if err != nil {
		return nil, nil, err
	}
	g.Run(netsim.FromMillis(r.Params.Float("max_ms")))
	res := r.Exp.NewResult()
	if err := g.Fill(r, res); err != nil {
		return nil, nil, err
	}
	res.Metrics["host_load"] = hostLoad
	res.Metrics["core_mb"] = g.TopBytes() / 1e6
	if r.Params.Str("flows_file") != "" {
		res.Metrics["host_load"] = math.NaN() // the file's flows, not a load
	}
	if err := g.WriteFCT(r); err != nil {
		return nil, nil, err
	}
	return res, g, nil
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
	jobs, workers := ps.Int("jobs"), ps.Int("workers")
	horizon := netsim.FromMillis(ps.Float("max_ms"))
	start := netsim.FromMillis(rl.WarmupMs)
	g := inarig.New(r)
	g.TopTier = true // core_mb
	g.Skip = rl.SkipIters
	g.UtilEvery = netsim.FromMicros(ps.Float("sample_us"))
	fab, lc, err := inaFabric(g.Net, ps)
	if err != nil {
		return nil, 0, err
	}
	if ps.Float("ecn_k_kb") < 0 {
		r.Resolved("ecn_k_kb", float64(lc.Queue.ECNBytes)/1000)
	}
	g.Fab = fab
	if err := g.Partition(); err != nil {
		return nil, 0, err
	}
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
	aggAt := map[*switchmodel.Switch]*inagg.Aggregator{}
	perLeaf := make([]int, fab.Groups())
	for _, hs := range place {
		perLeaf[fab.GroupOf(hs[0].ID())]++
	}
	aggOf := func(sw *switchmodel.Switch) (*inagg.Aggregator, error) {
		if aggAt[sw] == nil {
			a, err := inagg.NewAggregator(sw, ac)
			if err != nil {
				return nil, err
			}
			aggAt[sw] = a
			g.Aggs = append(g.Aggs, a)
		}
		return aggAt[sw], nil
	}
	placement := placePSLeaf
	if ps.Has("agg_placement") && proto == inagg.ATP {
		placement = ps.String("agg_placement")
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
		buckets, err := inarig.Buckets(ps, model)
		if err != nil {
			return nil, 0, err
		}
		psHost := hs[0]
		leaf := fab.GroupOf(psHost.ID())
		sw, err := aggOf(fab.Edge[leaf])
		if err != nil {
			return nil, 0, err
		}
		var first []*inagg.Aggregator
		var tree [][]*inagg.Aggregator
		var flows []uint64
		switch placement {
		case placeTwoLevel:
			first = make([]*inagg.Aggregator, len(hs)-1)
			for i, h := range hs[1:] {
				if first[i], err = aggOf(fab.EdgeOf(h.ID())); err != nil {
					return nil, 0, err
				}
			}
		case placeEveryTier:
			tt, err := jobTree(fab, j, psHost, hs[1:])
			if err != nil {
				return nil, 0, fmt.Errorf("job %d: %w", j, err)
			}
			tree, flows = make([][]*inagg.Aggregator, len(tt.chains)), tt.flows
			for i, chain := range tt.chains {
				for _, s := range chain {
					a, err := aggOf(s)
					if err != nil {
						return nil, 0, err
					}
					tree[i] = append(tree[i], a)
				}
			}
		}
		if _, err := g.AddJob(inagg.JobConfig{ID: j, Protocol: proto, Workers: hs[1:], PS: psHost, Switch: sw, FirstLevel: first,
			Tree: tree, Flows: flows,
			Gradient: grad, Iterations: rl.Iterations, Compute: inarig.ComputeFunc(ps), Buckets: buckets, Start: start,
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
