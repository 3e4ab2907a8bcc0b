package mixed

import (
	"fmt"
	"math"

	"syncsim/experiments"
	"syncsim/inagg"
	"syncsim/internal/timeline"
	"syncsim/netsim"
	"syncsim/scenarios/internal/inarig"
	"syncsim/scenarios/internal/layerfile"
	"syncsim/scenarios/internal/setup"
	"syncsim/switchmodel"
	"syncsim/topologies"
	"syncsim/transport"
	"syncsim/workloads/background"
	"syncsim/workloads/collective"
	"syncsim/workloads/layers"
)

// Stream and generator names of the mixed-fabric experiment.
const (
	mixedPlacementStream = "mixed/placement" // host placement of the jobs
	mixedBackgroundName  = "mixed"           // background generator: "background/mixed/..." streams
)

// MixedFabric is the mixed-fabric experiment.
func MixedFabric() *experiments.Experiment {
	return &experiments.Experiment{
		Name: "mixed-fabric",
		Summary: "INA jobs, ring all-reduce and partial-reduce jobs over DCTCP and background traffic sharing one leaf-spine " +
			"(beyond the papers: every tenant on one fabric)",
		Doc: doc("mixed-fabric"),
		Params: append([]experiments.Param{
			experiments.IntParam("spines", 2, 1, 1024, "spine switches (PA-ATP NS3: 8)"),
			experiments.IntParam("leaves", 4, 1, 1024, "leaf switches (PA-ATP NS3: 8)"),
			experiments.IntParam("hosts_per_leaf", 4, 1, 1024, "hosts under each leaf (PA-ATP NS3: 16)"),
			setup.TopologyParam([]string{"leaf-spine", "fattree"}, "fabric: a leaf-spine, or a k-ary fat-tree at host_gbps and fabric_gbps "+
				"(INA jobs aggregate at their PS's edge switch either way)"),
			setup.FatTreeParams()[0], setup.FatTreeParams()[1], setup.TopologyFileParam(),
			experiments.FloatParam("host_gbps", 100, 0.001, 1600, "host link rate, Gbit/s"),
			experiments.FloatParam("fabric_gbps", 100, 0.001, 1600, "leaf-spine link rate, Gbit/s"),
			experiments.FloatParam("delay_us", 2, 0, 1e6, "propagation delay of every cable, us"),
			experiments.FloatParam("buffer_kb", 256, 1.5, 1e7, "drop-tail buffer per port, KB"),
			experiments.FloatParam("ecn_k_kb", 30, 0, 1e7, "ECN marking threshold per port in queued KB (0: no marking); "+
				"30 KB is DCTCP's K = 20 full-size packets of the default fabric").Means("0", "no marking"),
			experiments.IntParam("ina_jobs", 2, 0, 1<<16, "in-network aggregation jobs"),
			experiments.EnumParam("protocol", "pa-atp", inagg.ProtocolNames(), "synchronisation protocol of the INA jobs").OnlyWhenPositive("ina_jobs"),
			experiments.IntParam("workers", 4, 1, inagg.MaxWorkers, "workers per INA job (plus one parameter-server host)").OnlyWhenPositive("ina_jobs"),
			experiments.FloatParam("gradient_mb", 2, 0.001, 1e5, "gradient per INA worker per iteration, MB (ResNet50: 98)").OnlyWhenPositive("ina_jobs"),
			experiments.FloatParam("switch_mem_mib", 10, 0.001, 1e4, "aggregator memory per aggregating switch, MiB").OnlyWhenPositive("ina_jobs").Was("switch_mem_mb"),
			experiments.IntParam("ring_jobs", 1, 0, 1<<16, "ring all-reduce jobs over DCTCP"),
			experiments.IntParam("ring_workers", 4, 2, 1<<16, "hosts per ring job").OnlyWhenPositive("ring_jobs"),
			experiments.FloatParam("ring_mb", 2, 0.001, 1e5, "model all-reduced by a ring job per iteration, MB (ring_model=custom)").OnlyWhenPositive("ring_jobs"),
			experiments.EnumParam("ring_model", "custom", append([]string{"custom"}, layers.Names...),
				"ring jobs' layer table (workloads/layers), its compute scaled to compute_ms; custom: ring_mb bytes in ResNet-50's layer proportions").OnlyWhenPositive("ring_jobs"),
			experiments.TextParam("model_file", "", "ring jobs' own CSV layer table (header layer,params|bytes,forward_ms,backward_ms), replacing ring_model, "+
				"ring_mb and compute_ms for them").OnlyWhenPositive("ring_jobs"),
			layerfile.File("ring jobs' own").OnlyWhenPositive("ring_jobs"),
			layerfile.GHz().OnlyWhenPositive("ring_jobs"),
			experiments.EnumParam("overlap", "layer", layers.OverlapNames, "ring jobs: layer, each bucket all-reduced as soon as backprop produces it and "+
				"each layer's next forward waiting for its bucket; none, the whole model after the whole compute (partial-reduce jobs: pr_overlap)").OnlyWhenPositive("ring_jobs"),
			experiments.FloatParam("bucket_mib", layers.DefaultBucketMB, 0, 1e7, "gradient bucket cap of ring jobs and, with ina_overlap=layer "+
				"or pr_overlap=layer, of INA and partial-reduce jobs, MiB as DDP's bucket_cap_mb (the first bucket 1 MiB; 0: a bucket per layer)"),
			experiments.EnumParam("ina_overlap", "none", layers.OverlapNames, "INA jobs with compute_ms > 0: none, the whole compute, then "+
				"the whole gradient (the default, under which the mixed-fabric tables were measured); layer, compute_ms split over "+
				"ResNet-50's layer table and each bucket of bucket_mib (in ResNet-50's proportions of gradient_mb) aggregated as soon as "+
				"backprop produces it, each layer's next forward waiting for its bucket's results (PA-ATP Sec. IV's per-layer push with "+
				"bucket_mib=0)").OnlyWhenPositive("ina_jobs"),
			experiments.IntParam("iterations", 3, 1, 1<<20, "iterations of every job"),
			experiments.FloatParam("compute_ms", 0.05, 0, 1e6, "compute time of every worker before each iteration's communication, ms").Means("0", "communication only"),
			experiments.EnumParam("workload", "hadoop", background.Names(), "background flow-size distribution").OnlyWhenPositive("load"),
			experiments.FloatParam("load", 0.3, 0, 1, "background load: with load_basis=fabric the busiest tier of links is offered load of its capacity "+
				"(ina-leafspine's basis); with load_basis=host, offered bytes/s over the background hosts' NIC capacity (0: none)").Means("0", "no background traffic"),
			experiments.EnumParam("load_basis", inarig.BasisFabric, []string{inarig.BasisFabric, inarig.BasisHost},
				"what load is a fraction of: fabric (the busiest tier's capacity, as ina-leafspine) or host (the senders' NIC capacity; "+
					"loads whose busiest tier would exceed 1 are refused)").OnlyWhenPositive("load"),
			experiments.FloatParam("bg_warmup_ms", setup.LeafSpineWarmupMs, 0, 1e6, "the background starts at t = 0 and every job at bg_warmup_ms, so the jobs meet it "+
				"in its steady state (ina-leafspine's measured warm-up; without background the idle time costs nothing)"),
			experiments.EnumParam("bg_hosts", "all", []string{"all", "idle"}, "background hosts: every host, or only hosts without a job").OnlyWhenPositive("load"),
			experiments.FloatParam("max_ms", 1000, 0.001, 1e7, "simulated-time limit from t = 0, ms (jobs unfinished by then report completed iterations; with --check they are an error)"),
			experiments.FloatParam("warmup_ms", -1, -1, 1e6, "background flows starting earlier are excluded from FCT statistics, ms "+
				"(negative: bg_warmup_ms, when the jobs start)").Auto("-1", setup.AutoWarmup).OnlyWhenPositive("load"),
		}, append(prParams(), append(inarig.ConstantParams(), append(append(setup.NICParams(), setup.DCTCPCWRParam(), mixedEngineParam(), setup.PartitionsParam().OnlyWhen("engine", experiments.EnginePartitioned)), setup.FlowsParams()...)...)...)...),
		Metrics: []experiments.Metric{
			{Name: "ina_iter_ms", Unit: "ms", Help: "INA jobs: mean iteration time over their completed iterations"},
			{Name: "ina_jct_ms", Unit: "ms", Help: "INA jobs: mean job completion time from the jobs' start (bg_warmup_ms) over finished jobs"},
			{Name: "ring_iter_ms", Unit: "ms", Help: "ring jobs: mean iteration time (compute + all-reduce) over their completed iterations"},
			{Name: "pr_sync_ms", Unit: "ms", Help: "partial-reduce jobs: mean time of a group's ring all-reduce, launch to completion, over completed groups"},
			{Name: "pr_scale", Unit: "workers", Help: "partial-reduce jobs: mean group size"},
			{Name: "pr_jct_ms", Unit: "ms", Help: "partial-reduce jobs: mean time from the jobs' start until their workers averaged iterations rounds"},
			{Name: "pr_bpawr_waits", Unit: "", Help: "selective-reduce jobs: BPAWR wait-and-replace decisions, summed over the jobs (0 under partial reduce; NaN without partial-reduce jobs)"},
			{Name: "switch_agg_tput_gbps", Unit: "Gbit/s", Help: "gradient payload aggregated in switches per second, from the jobs' start to the last INA job's end"},
			{Name: "switch_agg_frac", Unit: "", Help: "fraction of INA worker contributions summed in a switch (the rest at parameter servers)"},
			{Name: "fct_slowdown_p50", Unit: "", Help: "median background slowdown (FCT / FCT on an empty network) of completed flows"},
			{Name: "fct_slowdown_p99", Unit: "", Help: "99th-percentile background slowdown of completed flows"},
			{Name: "flows_started", Unit: "flows", Help: "background flows started in the measurement window"},
			{Name: "flows_done", Unit: "flows", Help: "of those, flows completed by the end of the run"},
			{Name: "makespan_ms", Unit: "ms", Help: "time from the jobs' start until the last job finished (until max_ms if some did not)"},
			{Name: "jobs_done_frac", Unit: "", Help: "fraction of jobs (INA, ring and partial-reduce) that finished"},
			{Name: "host_load", Unit: "", Help: "the background's load on the host basis that load on load_basis resolved to"},
			{Name: "drops", Unit: "packets", Help: "packets dropped anywhere in the network (whole run)"},
			{Name: "timeouts", Unit: "", Help: "retransmission timeouts of DCTCP flows, ring and background (whole run)"},
			{Name: "events", Unit: "", Help: "simulator events processed"},
		},
		Common:   []string{"ina_jobs", "protocol", "workers", "ring_jobs", "ring_workers", "pr_jobs", "pr_scheme", "workload", "load", "iterations"},
		Headline: []string{"ina_iter_ms", "ring_iter_ms", "pr_sync_ms", "fct_slowdown_p99", "makespan_ms", "jobs_done_frac", "switch_agg_frac", "drops"},
		Run:      runMixedFabric,
		Validate: validateMixedFabric,
		Cost:     mixedCost(),
		Engine:   "engine",
	}
}

// mixedRig is one built mixed-fabric scenario.
type mixedRig struct {
	sim   *netsim.Sim
	net   *netsim.Network
	fab   *topologies.Fabric
	stack *transport.Stack
	aggs  []*inagg.Aggregator // by leaf; nil where no parameter server sits
	ina   []*inagg.Job
	rings []*mixedRingJob
	prs   []*prJob
	gen   *background.Generator
	hosts *background.HostMap // flows_file's and fct_out's host numbering
	start netsim.Time         // when the jobs start (the background warm-up)
	load  float64             // the background's host-basis load
	left  int                 // jobs not yet finished
	part  bool                // on the parallel engine (engine=partitioned)

	warmupMs float64 // warmup_ms (negative: when the jobs start, bg_warmup_ms)
	// trace records the jobs' timelines (Run.Trace; nil: none): the ring
	// jobs' and the INA jobs' that compute layer by layer.
	trace *timeline.Log
}

// mixedDemand is the number of hosts the jobs need.
func mixedDemand(ps experiments.Params) int64 {
	return int64(ps.Int("ina_jobs"))*int64(ps.Int("workers")+1) + int64(ps.Int("ring_jobs"))*int64(ps.Int("ring_workers")) +
		int64(ps.Int("pr_jobs"))*int64(ps.Int("pr_workers"))
}

// mixedWarmup is the background warm-up in force: when the jobs start.
func mixedWarmup(ps experiments.Params) float64 { return ps.Float("bg_warmup_ms") }

func buildMixedFabric(r *experiments.Run) (*mixedRig, error) {
	ps := r.Params
	// The fabric of leafSpineFrom, with one ECN threshold in bytes for
	// both packet sizes (see Doc).
	lc := topologies.LeafSpineConfig{
		Spines:       ps.Int("spines"),
		Leaves:       ps.Int("leaves"),
		HostsPerLeaf: ps.Int("hosts_per_leaf"),
		HostRate:     netsim.Rate(ps.Float("host_gbps") * float64(netsim.Gbps)),
		FabricRate:   netsim.Rate(ps.Float("fabric_gbps") * float64(netsim.Gbps)),
		Delay:        netsim.FromMicros(ps.Float("delay_us")),
		Queue: switchmodel.QueueConfig{
			Buffer:   netsim.Bytes(math.Round(ps.Float("buffer_kb") * 1000)),
			ECNBytes: netsim.Bytes(math.Round(ps.Float("ecn_k_kb") * 1000)),
		},
	}
	if err := lc.Queue.Validate(); err != nil {
		return nil, err
	}
	nINA, nRing, nPR := ps.Int("ina_jobs"), ps.Int("ring_jobs"), ps.Int("pr_jobs")
	if err := validateMixedFabric(ps); err != nil {
		return nil, fmt.Errorf("mixed-fabric: %w", err)
	}
	proto, err := inagg.ParseProtocol(ps.String("protocol"))
	if err != nil {
		return nil, err
	}
	tc, err := setup.DCTCPTransport(ps)
	if err != nil {
		return nil, err
	}
	sim := setup.NewSim(r)
	net := netsim.NewNetwork(sim)
	fab, lc, err := setup.FabricWith(net, ps, lc)
	if err != nil {
		return nil, err
	}
	// engine=partitioned: partition the fabric before any host stack,
	// switch program or job is made on it (partitioned.go).
	if err := setup.Parallel(r, net); err != nil {
		return nil, err
	}
	if sim.Partitions() != nil && sim.Lookahead() == netsim.Never {
		return nil, fmt.Errorf("mixed-fabric: the parallel engine found no lookahead (a zero-delay cable between partitions)")
	}
	rig := &mixedRig{sim: sim, net: net, fab: fab, stack: transport.NewStack(net, tc), part: sim.Partitions() != nil,
		aggs: make([]*inagg.Aggregator, fab.Groups()), warmupMs: ps.Float("warmup_ms"),
		start: netsim.FromMillis(mixedWarmup(ps))}
	if r.Trace {
		rig.trace = &timeline.Log{}
	}

	// Placement: a seeded shuffle of the hosts, taken in order.
	perm := sim.Rand(mixedPlacementStream).Perm(len(fab.Hosts))
	next := 0
	take := func(n int) []*netsim.Host {
		out := make([]*netsim.Host, n)
		for i := range out {
			out[i] = fab.Hosts[perm[next]]
			next++
		}
		return out
	}
	used := make([]bool, len(fab.Hosts))
	for _, i := range perm[:mixedDemand(ps)] {
		used[i] = true
	}

	compute := netsim.FromMillis(ps.Float("compute_ms"))
	computeFn := func(w, k int) netsim.Time { return compute }
	finished := func() {
		rig.left--
		if rig.left == 0 {
			sim.Stop()
		}
	}
	rig.left = nINA + nRing + nPR

	// INA jobs, aggregated at their parameter server's leaf. The BDP that
	// caps windows and sets the AECN threshold is the longest path's round
	// trip (4 cables each way between leaves) in 310 B gradient packets.
	acfg := inagg.DefaultAggregatorConfig()
	acfg.Memory = netsim.Bytes(math.Round(ps.Float("switch_mem_mib") * float64(netsim.MiB)))
	acfg.BDPPackets = mixedBDPPackets(lc, 2*fab.Tiers())
	if err := acfg.Validate(); err != nil {
		return nil, err
	}
	grad := netsim.Bytes(math.Round(ps.Float("gradient_mb") * float64(netsim.Megabyte)))
	iters := ps.Int("iterations")
	inaBuckets, err := inaPlan(ps, compute)
	if err != nil {
		return nil, err
	}
	for j := 0; j < nINA; j++ {
		hs := take(ps.Int("workers") + 1)
		psHost := hs[len(hs)-1]
		leaf := fab.GroupOf(psHost.ID())
		if rig.aggs[leaf] == nil {
			if rig.aggs[leaf], err = inagg.NewAggregator(fab.Edge[leaf], acfg); err != nil {
				return nil, err
			}
		}
		job, err := inagg.NewJob(net, inagg.JobConfig{
			ID: j, Protocol: proto, Workers: hs[:len(hs)-1], PS: psHost, Switch: rig.aggs[leaf],
			Gradient: grad, Iterations: iters, Compute: computeFn, Buckets: inaBuckets, Params: inarig.JobParams(ps), Start: rig.start,
			OnDone: func(*inagg.Job) { finished() }, Trace: inaTrace(rig.trace, inaBuckets, fmt.Sprintf("%s %d", proto, j), len(hs)-1),
		})
		if err != nil {
			return nil, err
		}
		rig.ina = append(rig.ina, job)
	}

	// Ring all-reduce jobs over the DCTCP stack, on persistent connections
	// as collective libraries keep them (windows carry over between steps).
	ringBulk := rig.stack.Persistent()
	ringSize := netsim.Bytes(math.Round(ps.Float("ring_mb") * float64(netsim.Megabyte)))
	ringCompute := compute
	var buckets []layers.Bucket
	if nRing > 0 {
		if ringSize, ringCompute, buckets, err = ringPlan(ps, ringSize, compute); err != nil {
			return nil, fmt.Errorf("mixed-fabric: ring jobs: %w", err)
		}
	}
	for j := 0; j < nRing; j++ {
		hs := take(ps.Int("ring_workers"))
		ids := make([]netsim.NodeID, len(hs))
		for i, h := range hs {
			ids[i] = h.ID()
		}
		job := &mixedRingJob{sim: sim, bulkBooks: newBulkBooks(ringBulk, "ring", net), hosts: ids, size: ringSize,
			iters: iters, compute: ringCompute, onDone: finished}
		if buckets != nil {
			rec := rig.trace.NewJob(fmt.Sprintf("ring all-reduce %d", j), len(ids))
			if job.lay, err = newLayerRing(job, net, buckets, rec); err != nil {
				return nil, fmt.Errorf("mixed-fabric: ring job %d: %w", j, err)
			}
		} else if rig.part {
			if job.par, err = newPartRing(job, net); err != nil {
				return nil, fmt.Errorf("mixed-fabric: ring job %d: %w", j, err)
			}
		}
		rig.rings = append(rig.rings, job)
	}

	// Partial-reduce jobs: each group's ring all-reduce over DCTCP. Their
	// controllers' latency alpha is the fabric's longest one-way path (4
	// cables between leaves, 6 between a fat-tree's pods). The first pr_slow_nics hosts of each job get
	// cables at pr_slow_nic_gbps both ways, before any packet moves; the
	// controllers read every worker's rate from the cables (hostBandwidth).
	alpha := (netsim.Time(2*fab.Tiers()) * lc.Delay).Seconds()
	slow := netsim.Rate(math.Round(ps.Float("pr_slow_nic_gbps") * float64(netsim.Gbps)))
	for j := 0; j < nPR; j++ {
		hs := take(ps.Int("pr_workers"))
		ids := make([]netsim.NodeID, len(hs))
		for i, h := range hs {
			ids[i] = h.ID()
			if i < ps.Int("pr_slow_nics") {
				if err := setHostRate(fab, h.ID(), slow); err != nil {
					return nil, fmt.Errorf("mixed-fabric: partial-reduce job %d: %w", j, err)
				}
			}
		}
		job, err := newPRJob(rig, ps, j, ids, alpha, rig.start, finished)
		if err != nil {
			return nil, fmt.Errorf("mixed-fabric: partial-reduce job %d: %w", j, err)
		}
		rig.prs = append(rig.prs, job)
	}

	// Background traffic: a flow file's flows, replayed between any hosts
	// it names, or flows drawn at load.
	if ps.Str("flows_file") != "" {
		rig.hosts = setup.HostMap(fab)
		replay, err := setup.Replays(ps, rig.hosts, netsim.FromMillis(ps.Float("max_ms")))
		if err != nil {
			return nil, err
		}
		rig.load = math.NaN()
		rig.gen, err = background.New(sim, rig.stack, background.Config{
			Replay: replay, Hosts: fab.HostIDs(), HostRate: lc.HostRate, Name: mixedBackgroundName, Network: net,
		})
		if err != nil {
			return nil, err
		}
	} else if load := ps.Float("load"); load > 0 {
		cdf, err := background.Workload(ps.String("workload"))
		if err != nil {
			return nil, err
		}
		var bg []netsim.NodeID
		for i, h := range fab.Hosts {
			if ps.String("bg_hosts") == "all" || !used[i] {
				bg = append(bg, h.ID())
			}
		}
		if len(bg) < 2 {
			return nil, fmt.Errorf("mixed-fabric: bg_hosts=%s leaves %d background hosts; need at least 2 (use a larger fabric or bg_hosts=all)",
				ps.String("bg_hosts"), len(bg))
		}
		if rig.load, err = inarig.HostLoad(load, ps.String("load_basis"), inarig.Tiers(inarig.FabricGroups(fab, bg, nil), lc.HostRate)); err != nil {
			return nil, fmt.Errorf("mixed-fabric: %w", err)
		}
		// The background offers every one of its hosts host_load x
		// host_gbps each way, slow NICs included (bg_hosts=all): a slow
		// NIC offered its rate or more would never drain its queue.
		if slow := ps.Float("pr_slow_nic_gbps"); nPR > 0 && ps.Int("pr_slow_nics") > 0 && ps.String("bg_hosts") == "all" &&
			rig.load*ps.Float("host_gbps") >= slow {
			return nil, fmt.Errorf("mixed-fabric: the background offers every host %.3g Gbit/s each way (host-basis load %.3g x host_gbps), "+
				"at least the slow NICs' pr_slow_nic_gbps = %g, so their queues would never drain; use bg_hosts=idle, a lower load or a faster pr_slow_nic_gbps",
				rig.load*ps.Float("host_gbps"), rig.load, slow)
		}
		rig.gen, err = background.New(sim, rig.stack, background.Config{
			CDF: cdf, Load: rig.load, Hosts: bg, HostRate: lc.HostRate, Name: mixedBackgroundName, Network: net,
		})
		if err != nil {
			return nil, err
		}
		rig.hosts = setup.HostMap(fab)
	}
	if rig.gen != nil {
		if err := setup.RecordFCT(r, rig.gen); err != nil {
			return nil, err
		}
	} else if ps.Str("fct_out") != "" {
		return nil, fmt.Errorf("mixed-fabric: fct_out=%q writes the background flows, and there are none (load=0, no flows_file)", ps.Str("fct_out"))
	}
	return rig, nil
}

// setHostRate makes both directions of host h's cable to its leaf run at
// r (set-up only: the ports serialise their next packet at the link's rate).
func setHostRate(fab *topologies.Fabric, h netsim.NodeID, r netsim.Rate) error {
	leaf := fab.EdgeOf(h)
	if leaf == nil {
		return fmt.Errorf("host %d has no leaf", h)
	}
	up, down := fab.LinkBetween(h, leaf.ID()), fab.LinkBetween(leaf.ID(), h)
	if up == nil || down == nil {
		return fmt.Errorf("host %d has no cable to its leaf", h)
	}
	up.Rate, down.Rate = r, r
	return nil
}

// mixedBDPPackets is the bandwidth-delay product of the fabric's longest
// round trip in INA gradient packets: cables each way (4 on a leaf-spine,
// host-leaf-spine-leaf-host; 6 on a fat-tree), one 310 B gradient
// serialised on each cable out and one 62 B GACK on each cable back
// (sizes from inagg's wire format), rounded down.
func mixedBDPPackets(lc topologies.LeafSpineConfig, cables int) int {
	const grad, gack = inagg.INAPayloadBytes + inagg.INAHeaderBytes, inagg.INAHeaderBytes
	rate := lc.HostRate
	if lc.FabricRate < rate {
		rate = lc.FabricRate
	}
	fc := netsim.Time(cables - 2) // fabric cables each way
	rtt := netsim.Time(2*cables)*lc.Delay + 2*netsim.TxTime(grad, lc.HostRate) + fc*netsim.TxTime(grad, lc.FabricRate) +
		2*netsim.TxTime(gack, lc.HostRate) + fc*netsim.TxTime(gack, lc.FabricRate)
	bdp := int(netsim.BytesIn(rate, rtt) / grad)
	if bdp < 1 {
		bdp = 1
	}
	return bdp
}

func runMixedFabric(r *experiments.Run) (*experiments.Result, error) {
	ps := r.Params
	rig, err := buildMixedFabric(r)
	if err != nil {
		return nil, err
	}
	for _, j := range rig.ina {
		if err := j.Start(); err != nil {
			return nil, err
		}
	}
	for _, j := range rig.rings {
		switch {
		case j.lay != nil:
			j.lay.begin(rig.start)
		case j.par != nil:
			j.par.begin(rig.start)
		default:
			rig.sim.At(rig.start, j.start)
		}
	}
	for _, j := range rig.prs {
		j.sim.At(rig.start, j.cluster.Start) // the controller's partition on a partitioned network
	}
	limit := netsim.FromMillis(ps.Float("max_ms"))
	if rig.gen != nil {
		if err := rig.measureBackground(limit); err != nil {
			return nil, err
		}
		rig.gen.Start()
	}
	rig.watch(r, limit)
	rig.sim.Run(limit)
	rig.sim.Settle()
	end := rig.end()
	for i, j := range rig.rings {
		if j.err != nil {
			return nil, fmt.Errorf("mixed-fabric: ring job %d: %w", i, j.err)
		}
		if j.lay != nil && !j.lay.folded {
			j.lay.book() // the iterations every host completed before the run stopped
		}
	}

	res := r.Exp.NewResult()
	res.Trace = rig.trace
	m := res.Metrics
	m["makespan_ms"] = (end - rig.start).Milliseconds()
	m["ina_iter_ms"], m["ring_iter_ms"] = rig.iterationMeans()
	m["ina_jct_ms"] = rig.inaJCT()
	m["pr_sync_ms"], m["pr_scale"], m["pr_jct_ms"] = rig.prMeans()
	m["pr_bpawr_waits"] = math.NaN()
	if len(rig.prs) > 0 {
		waits := 0
		for _, j := range rig.prs {
			waits += j.waits()
		}
		m["pr_bpawr_waits"] = float64(waits)
	}
	jobs := len(rig.ina) + len(rig.rings) + len(rig.prs)
	m["jobs_done_frac"] = float64(jobs-rig.left) / float64(jobs)
	m["host_load"] = rig.load
	if len(rig.ina) > 0 {
		var aggBytes float64
		for _, a := range rig.aggs {
			if a != nil {
				aggBytes += float64(a.Stats.AggregatedBytes)
			}
		}
		var sw, tot float64
		var last netsim.Time
		for _, j := range rig.ina {
			st := j.Stats()
			sw += float64(st.SwitchContributions)
			tot += float64(st.SwitchContributions + st.PSContributions)
			at := end
			if j.Done() {
				at = j.DoneAt()
			}
			if at > last {
				last = at
			}
		}
		m["switch_agg_tput_gbps"] = setup.Gbps(aggBytes, last-rig.start)
		if tot > 0 {
			m["switch_agg_frac"] = sw / tot
		}
	}
	if rig.gen != nil {
		if err := rig.backgroundMetrics(m, end); err != nil {
			return nil, err
		}
		if ps.Float("warmup_ms") < 0 {
			r.Resolved("warmup_ms", mixedWarmup(ps))
		}
	}
	if r.Series {
		res.Series = append(res.Series, rig.iterationSeries())
	}
	m["drops"] = float64(rig.net.Stats().Dropped)
	m["timeouts"] = float64(rig.stack.Timeouts)
	m["events"] = float64(rig.sim.Events())
	res.Events = rig.sim.Events()
	if err := rig.check(r); err != nil {
		return nil, err
	}
	if rig.gen != nil {
		if err := setup.WriteFCT(r, rig.net, rig.stack.Config(), rig.hosts, rig.gen); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// iterationMeans pools the completed iterations of the INA jobs and of the
// ring jobs (NaN where a kind has none).
func (rig *mixedRig) iterationMeans() (ina, ring float64) {
	var s, n float64
	for _, j := range rig.ina {
		for _, t := range j.IterationTimes() {
			s += t.Milliseconds()
			n++
		}
	}
	ina = s / n
	s, n = 0, 0
	for _, j := range rig.rings {
		for _, t := range j.times {
			s += t.Milliseconds()
			n++
		}
	}
	return ina, s / n // 0/0 is NaN: no completed iteration
}

// inaJCT is the INA jobs' mean completion time from their start, ms, over
// the finished ones (NaN if none).
func (rig *mixedRig) inaJCT() float64 {
	var s, n float64
	for _, j := range rig.ina {
		if j.Done() {
			s += (j.DoneAt() - rig.start).Milliseconds()
			n++
		}
	}
	return s / n
}

// iterationSeries lists every completed iteration of every job: job number
// (INA jobs first, then ring jobs), whether it is a ring job, iteration,
// end time and duration in ms. Jobs start at bg_warmup_ms and iterate back
// to back, so an iteration ends at the start plus the durations so far.
func (rig *mixedRig) iterationSeries() experiments.Series {
	s := experiments.Series{Name: "iterations", Columns: []string{"job", "ring", "iteration", "end_ms", "iter_ms"}}
	add := func(job, ring int, ts []netsim.Time) {
		end := rig.start
		for k, t := range ts {
			end += t
			s.Rows = append(s.Rows, []float64{float64(job), float64(ring), float64(k), end.Milliseconds(), t.Milliseconds()})
		}
	}
	for i, j := range rig.ina {
		add(i, 0, j.IterationTimes())
	}
	for i, j := range rig.rings {
		add(len(rig.ina)+i, 1, j.times)
	}
	return s
}

// bgWarmup is the start of the background's measurement window: warmup_ms,
// or when the jobs start (bg_warmup_ms) if it is negative. The window is
// known before the run, so the generator summarises its flows online and
// keeps no record of them (memory flat in run length).
func (rig *mixedRig) bgWarmup() netsim.Time {
	if rig.warmupMs < 0 {
		return rig.start
	}
	return netsim.FromMillis(rig.warmupMs)
}

// measureBackground has the generator summarise the flows that start in
// [warm-up, limit) as they run (background.Generator.Measure); no flow
// starts after the run's end, which is at most limit.
func (rig *mixedRig) measureBackground(limit netsim.Time) error {
	w := rig.bgWarmup()
	if w >= limit {
		return fmt.Errorf("mixed-fabric: warmup %v is not before the end of the run %v", w, limit)
	}
	tc := rig.stack.Config()
	seg := tc.MSS + tc.HeaderBytes
	return rig.gen.Measure(background.StatsConfig{
		Warmup: w, Stop: limit,
		Latency: setup.UnloadedLatency(rig.net, seg),
		WireBytes: func(b netsim.Bytes) netsim.Bytes {
			return b + (b+tc.MSS-1)/tc.MSS*tc.HeaderBytes
		},
	})
}

// backgroundMetrics fills the background FCT metrics over [warm-up, end).
func (rig *mixedRig) backgroundMetrics(m map[string]float64, end netsim.Time) error {
	if w := rig.bgWarmup(); w >= end {
		return fmt.Errorf("mixed-fabric: warmup %v is not before the end of the run %v", w, end)
	}
	sum, err := rig.gen.Summary()
	if err != nil {
		return err
	}
	m["fct_slowdown_p50"] = sum.All.Slowdown.P50
	m["fct_slowdown_p99"] = sum.All.Slowdown.P99
	m["flows_started"] = float64(sum.All.Started)
	m["flows_done"] = float64(sum.All.Done)
	return nil
}

// check verifies the books when the run asks for it: every INA job got
// every exact sum and its contributions add up, no aggregator outlived its
// job, every ring job finished and every transfer it started was delivered
// once, and packets are conserved.
func (rig *mixedRig) check(r *experiments.Run) error {
	if !r.Check {
		return nil
	}
	for _, j := range rig.ina {
		if err := j.Check(); err != nil {
			return fmt.Errorf("%s: %w", r.Exp.Name, err)
		}
	}
	for _, a := range rig.aggs {
		if a == nil {
			continue
		}
		if err := a.CheckLeaks(); err != nil {
			return fmt.Errorf("%s: %w", r.Exp.Name, err)
		}
	}
	for i, j := range rig.rings {
		if err := j.check(); err != nil {
			return fmt.Errorf("%s: ring job %d: %w", r.Exp.Name, i, err)
		}
	}
	for i, j := range rig.prs {
		if err := j.check(); err != nil {
			return fmt.Errorf("%s: partial-reduce job %d: %w", r.Exp.Name, i, err)
		}
	}
	rig.recordBooks(r)
	return setup.CheckBooks(r, rig.net)
}

// mixedRingJob is a data-parallel job synchronising by ring all-reduce: each
// iteration is compute, then an all-reduce of size bytes over hosts (in
// ring order) through bulk.
type mixedRingJob struct {
	sim       *netsim.Sim
	bulkBooks // the transfers the all-reduces start through the job
	hosts     []netsim.NodeID
	size      netsim.Bytes
	iters     int
	compute   netsim.Time
	onDone    func()

	begun  netsim.Time   // start of the current iteration
	times  []netsim.Time // completed iteration times
	err    error         // the all-reduce refused its arguments
	par    *partRing     // the ring on a partitioned network (nil: sequential)
	lay    *layerRing    // the ring bucket by bucket, overlapping backprop (overlap=layer)
	doneAt netsim.Time   // the job's end (set on a partitioned network)

}

func (j *mixedRingJob) start() {
	j.begun = j.sim.Now()
	j.sim.AfterFunc(j.compute, j.reduce)
}

func (j *mixedRingJob) reduce() {
	if err := collective.RingAllReduce(j.sim, j, j.hosts, j.size, netsim.BulkOpts{}, j.finish); err != nil {
		j.err = err
		j.sim.Stop()
	}
}

func (j *mixedRingJob) finish() {
	now := j.sim.Now()
	j.times = append(j.times, now-j.begun)
	if len(j.times) < j.iters {
		j.start()
		return
	}
	j.onDone()
}

// check reports an unfinished job or unbalanced transfer books.
func (j *mixedRingJob) check() error {
	if len(j.times) != j.iters {
		return fmt.Errorf("finished %d of %d iterations", len(j.times), j.iters)
	}
	return j.checkBooks()
}

// inaTrace is the recorders of an INA job's workers when it computes
// layer by layer (buckets) and the run is traced (nil otherwise).
func inaTrace(l *timeline.Log, buckets []inagg.Bucket, name string, workers int) []*timeline.Worker {
	if l == nil || buckets == nil {
		return nil
	}
	return l.NewJob(name, workers)
}
