package mixed

import (
	"fmt"
	"math"
	"strconv"

	"syncsim/experiments"
	"syncsim/netsim"
	"syncsim/scenarios/internal/workers"
	"syncsim/topologies"
	"syncsim/workloads/layers"
	"syncsim/workloads/syncctl"
	"syncsim/workloads/training"
)

// prParams are the partial-reduce tenants' parameters.
func prParams() []experiments.Param {
	ps := []experiments.Param{
		experiments.IntParam("pr_jobs", 0, 0, 1<<16, "partial-reduce tenants: jobs whose controller forms groups of ready workers (pr_scheme), "+
			"each group synchronising by a ring all-reduce of DCTCP transfers"),
		experiments.IntParam("pr_workers", 8, 2, 1<<16, "hosts per partial-reduce job").OnlyWhenPositive("pr_jobs"),
		experiments.IntParam("pr_p", 3, 1, 1<<16, "p: the least workers per group (at most pr_workers; below it under selective-reduce, which launches only when more than p are ready)").OnlyWhenPositive("pr_jobs"),
		experiments.EnumParam("pr_scheme", "partial-reduce", prSchemeNames(),
			"partial-reduce (the first p ready workers) or selective-reduce (BAG, BPAWR and Alg. 3 of the selective-reduce paper, on the hosts' NIC rates)").OnlyWhenPositive("pr_jobs"),
		experiments.FloatParam("pr_mb", 2, 0.001, 1e5, "model all-reduced by each group, MB").OnlyWhenPositive("pr_jobs"),
		experiments.FloatParam("pr_compute_ms", 1, 0.001, 1e6, "mean compute time of a partial-reduce worker per iteration, ms").OnlyWhenPositive("pr_jobs"),
		experiments.FloatParam("pr_compute_spread", 0.2, 0, 0.99, "each iteration's compute uniform in pr_compute_ms x [1 - s, 1 + s] (times the worker's multiplier)").OnlyWhenPositive("pr_jobs"),
		// The selective-reduce paper's workers report once their local
		// training is done (Sec. II-C) and its Eq. 1 adds compute and
		// synchronisation: none is the default, as in sr-cluster.
		experiments.EnumParam("pr_overlap", "none", layers.OverlapNames, "none: a worker is ready when its round is computed and its group "+
			"all-reduces the whole model; layer: ready when backprop produces its first bucket, the group all-reducing bucket by bucket "+
			"(bucket_mib, in ResNet-50's proportions of pr_mb and pr_compute_ms) as its members produce them").OnlyWhenPositive("pr_jobs"),
		experiments.FloatParam("pr_dt_ms", 0.1, 0.001, 1e6, "selective-reduce's waiting slot Delta t, ms").OnlyWhen("pr_scheme", "selective-reduce"),
		// The selective-reduce tunables, named as sr-cluster names them
		// with the tenant's pr_ prefix; defaults are the paper's (Sec. IV-A).
		experiments.FloatParam("pr_bag_eta", 0.3, 0, 0.99, "BAG bandwidth relaxation eta (paper default 0.3; sr-cluster's bag_eta)").OnlyWhen("pr_scheme", "selective-reduce"),
		experiments.FloatParam("pr_theta", 1, 0, 1e6, "BPAWR waiting threshold factor theta (paper default 1; sr-cluster's theta)").OnlyWhen("pr_scheme", "selective-reduce"),
		experiments.FloatParam("pr_bw_error", 0, 0, 0.99, "bandwidth estimation error e: the controller estimates a NIC rate b as b(1 + e x), "+
			"x ~ U[-1, 1] (sr-cluster's bw_error)").OnlyWhen("pr_scheme", "selective-reduce"),
		experiments.EnumParam("pr_bag_seed", "p+1", syncctl.BAGSeedNames,
			"workers BAG admits to a group unconditionally: p+1 (Alg. 1 line 6 as printed) or p (the text of Sec. III-C; sr-cluster's bag_seed)").OnlyWhen("pr_scheme", "selective-reduce"),
		experiments.EnumParam("pr_k_round", "floor", syncctl.KRoundingNames,
			"virtual workers of Alg. 2 line 8 from the expected count: floor or round (sr-cluster's k_round)").OnlyWhen("pr_scheme", "selective-reduce"),
		experiments.EnumParam("pr_predict", "eq4", []string{"eq4", "conditional"},
			"ready-within-dt probability: Eq. 4's F(t+dt) or the exact conditional (sr-cluster's predict)").OnlyWhen("pr_scheme", "selective-reduce"),
		experiments.IntParam("pr_slow_nics", 0, 0, 1<<16, "workers of each partial-reduce job whose host cable runs at pr_slow_nic_gbps both ways "+
			"instead of host_gbps (the first hosts the job is placed on)").Means("0", "every NIC at host_gbps").OnlyWhenPositive("pr_jobs"),
		experiments.FloatParam("pr_slow_nic_gbps", 10, 0.001, 1600, "the slow workers' NIC rate, Gbit/s").OnlyWhenPositive("pr_slow_nics"),
	}
	for _, p := range workers.Params() {
		ps = append(ps, p.OnlyWhenPositive("pr_jobs"))
	}
	return ps
}

// prJob is a data-parallel job synchronising by partial reduce on the
// fabric: a syncctl cluster whose groups all-reduce over a ring of DCTCP
// transfers (persistent connections, as ring jobs use). Once its workers
// have completed iterations rounds each on average (the sum of its
// groups' sizes reaches iterations x workers) it launches no more traffic
// (later groups complete at once: the job has left the fabric), and it is
// done when its groups under way have finished.
type prJob struct {
	sim       *netsim.Sim
	bulkBooks // the transfers the all-reduces start through the job
	ring      *syncctl.FlowExecutor
	cluster   *syncctl.Cluster
	target    int
	start     netsim.Time
	onDone    func()

	rounds   int              // worker-rounds completed
	inflight int              // groups whose synchronisation is under way
	buckets  int              // buckets per synchronisation (1 without overlap)
	groups   map[int]*prGroup // groups under way by their first worker
	syncs    int
	syncTime netsim.Time
	scale    int
	done     bool
	doneAt   netsim.Time

	// On a partitioned network (pr_partitioned.go): part is set, sim is
	// the controller's partition, hosts the job's hosts, and counted
	// whether its end was counted in the run at a barrier.
	part      bool
	net       *netsim.Network
	hosts     []netsim.NodeID
	lookahead netsim.Time
	counted   bool
}

// newPRJob builds job id on hosts.
func newPRJob(rig *mixedRig, ps experiments.Params, id int, hosts []netsim.NodeID, alpha float64, start netsim.Time, onDone func()) (*prJob, error) {
	n := len(hosts)
	p := ps.Int("pr_p")
	if err := checkPRP(ps.String("pr_scheme"), p, n); err != nil {
		return nil, err
	}
	c, s := ps.Float("pr_compute_ms")/1e3, ps.Float("pr_compute_spread")
	var dist training.Dist = training.Constant{T: c}
	if s > 0 {
		dist = training.Uniform{Lo: c * (1 - s), Hi: c * (1 + s)}
	}
	name := "mixed/pr/" + strconv.Itoa(id)
	mult, err := workers.MultipliersFrom(ps, rig.sim, name+"/workers", n)
	if err != nil {
		return nil, err
	}
	j := &prJob{sim: rig.sim, bulkBooks: newBulkBooks(rig.stack.Persistent(), "partial-reduce", rig.net), target: ps.Int("iterations") * n, start: start, onDone: onDone,
		buckets: 1, groups: map[int]*prGroup{}}
	if rig.part {
		j.part, j.net, j.hosts, j.lookahead = true, rig.net, hosts, rig.sim.Lookahead()
		j.sim = rig.net.Node(hosts[0]).Base().Sim()
		rig.sim.OnBarrier(j.foldDone)
	}
	if j.ring, err = syncctl.NewFlowExecutor(j, hosts); err != nil {
		return nil, err
	}
	bw := make([]float64, n)
	for i, h := range hosts {
		if bw[i], err = hostBandwidth(rig.fab, h); err != nil {
			return nil, err
		}
	}
	model := ps.Float("pr_mb") * 1e6
	sc, err := prSchemeOf(ps.String("pr_scheme"))
	if err != nil {
		return nil, err
	}
	ctl, err := sc.ctl(prSchemeArgs{ps: ps, p: p, modelBytes: model, sim: rig.sim, name: name})
	if err != nil {
		return nil, err
	}
	buckets, err := prBuckets(ps, model)
	if err != nil {
		return nil, err
	}
	if len(buckets) > 1 {
		j.buckets = len(buckets)
	}
	j.cluster, err = syncctl.NewCluster(j.sim, syncctl.Config{BW: bw, ModelBytes: model, Alpha: alpha,
		Compute: training.PerWorker(dist, mult), Exec: j, Streams: name + "/compute/", Buckets: buckets}, ctl)
	if err != nil {
		return nil, err
	}
	return j, nil
}

// prBuckets is the partial-reduce jobs' buckets with pr_overlap=layer
// (nil with none): ResNet-50's layer table at pr_mb, fused under
// bucket_mib, its compute proportions splitting each round's compute.
func prBuckets(ps experiments.Params, model float64) ([]layers.Bucket, error) {
	if ps.String("pr_overlap") != layers.OverlapLayer.String() {
		return nil, nil
	}
	m, err := layers.Builtin("resnet50")
	if err != nil {
		return nil, err
	}
	return syncctl.BucketsOf(m, model, layers.Bucketing{CapMB: ps.Float("bucket_mib"), FirstCapMB: layers.DefaultFirstBucketMB})
}

// selectiveConfig is the selective-reduce controller of the tenant's
// parameters (sr-cluster's, prefixed pr_) with minimum group size p; the
// full all reduce of Alg. 3 line 5 is off (c = 0) and the controller
// knows the workers' compute distributions (warm start).
func selectiveConfig(ps experiments.Params, p int) (syncctl.SelectiveConfig, error) {
	seed, err := syncctl.ParseBAGSeed(ps.String("pr_bag_seed"))
	if err != nil {
		return syncctl.SelectiveConfig{}, err
	}
	kround, err := syncctl.ParseKRounding(ps.String("pr_k_round"))
	if err != nil {
		return syncctl.SelectiveConfig{}, err
	}
	return syncctl.SelectiveConfig{
		P:                p,
		Eta:              ps.Float("pr_bag_eta"),
		Theta:            ps.Float("pr_theta"),
		Dt:               ps.Float("pr_dt_ms") / 1e3,
		BWError:          ps.Float("pr_bw_error"),
		ExactConditional: ps.String("pr_predict") == "conditional",
		Seed:             seed,
		KRound:           kround,
	}, nil
}

// checkPRP refuses a minimum group size p that the scheme cannot run on
// n workers (its registration's check).
func checkPRP(scheme string, p, n int) error {
	sc, err := prSchemeOf(scheme)
	if err != nil {
		return err
	}
	return sc.check(p, n)
}

// hostBandwidth is a host's b_i as the selective-reduce paper defines it
// (Sec. III-A: the available bandwidth of its uplink and downlink): the
// lesser rate of the two directions of its cable to its leaf, in bits/s,
// read from the fabric as built (pr_slow_nics included).
func hostBandwidth(fab *topologies.Fabric, h netsim.NodeID) (float64, error) {
	leaf := fab.EdgeOf(h)
	if leaf == nil {
		return 0, fmt.Errorf("host %d has no leaf", h)
	}
	up, down := fab.LinkBetween(h, leaf.ID()), fab.LinkBetween(leaf.ID(), h)
	if up == nil || down == nil {
		return 0, fmt.Errorf("host %d has no cable to its leaf", h)
	}
	return float64(min(up.Rate, down.Rate)), nil
}

// waits is the number of BPAWR wait-and-replace decisions of the job's
// controller (0 under partial reduce).
func (j *prJob) waits() int {
	if sr, ok := j.cluster.Controller().(*syncctl.SelectiveReduce); ok {
		return sr.Waits()
	}
	return 0
}

// Start implements syncctl.Executor: the ring all-reduce of one bucket of
// a group (the whole model without overlap) over the fabric. A group is
// booked as one synchronisation of the job when its last bucket is
// reduced; a group launched once the job's worker rounds are done moves
// no traffic (it has left the fabric).
func (j *prJob) Start(c *syncctl.Cluster, group []int, bytes float64, done func()) {
	g := j.groups[group[0]] // a worker is in one group at a time
	if g == nil {
		g = &prGroup{began: j.sim.Now(), skip: j.rounds >= j.target}
		j.groups[group[0]] = g
		if !g.skip {
			j.inflight++
		}
	}
	finish := func() {
		if g.buckets++; g.buckets < j.buckets {
			done()
			return
		}
		delete(j.groups, group[0])
		if !g.skip {
			j.inflight--
			j.syncs++
			j.syncTime += j.sim.Now() - g.began
			j.scale += len(group)
			j.rounds += len(group)
			if !j.done && j.rounds >= j.target && j.inflight == 0 {
				j.done, j.doneAt = true, j.sim.Now()
				if !j.part { // else counted at the barrier (foldDone)
					j.onDone()
				}
			}
		}
		done()
	}
	if g.skip {
		j.sim.AfterFunc(0, finish)
		return
	}
	if j.part {
		j.startGroup(group, bytes, finish)
		return
	}
	j.ring.Start(c, group, bytes, finish)
}

// prGroup is a launched group of a partial-reduce job.
type prGroup struct {
	began   netsim.Time
	skip    bool // launched after the job's rounds were done: no traffic
	buckets int  // buckets reduced
}

// check reports an unfinished job, unbalanced transfer books or broken
// cluster books.
func (j *prJob) check() error {
	if !j.done {
		return fmt.Errorf("completed %d of %d worker rounds", j.rounds, j.target)
	}
	if err := j.checkBooks(); err != nil {
		return err
	}
	return j.cluster.Check()
}

// prMeans pools the partial-reduce jobs' synchronisations: mean duration
// (ms), mean group size, and mean job completion time from the jobs'
// start (ms, over finished jobs); NaN where there are none.
func (rig *mixedRig) prMeans() (syncMs, scale, jctMs float64) {
	var t netsim.Time
	var n, sc, jn float64
	var jct netsim.Time
	for _, j := range rig.prs {
		t += j.syncTime
		n += float64(j.syncs)
		sc += float64(j.scale)
		if j.done {
			jct += j.doneAt - j.start
			jn++
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	syncMs, scale = t.Milliseconds()/n, sc/n
	jctMs = math.NaN()
	if jn > 0 {
		jctMs = jct.Milliseconds() / jn
	}
	return syncMs, scale, jctMs
}
