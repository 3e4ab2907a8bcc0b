package syncctl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"syncsim/netsim"
	"syncsim/workloads/layers"
	"syncsim/workloads/training"
)

// Config describes a cluster of workers.
type Config struct {
	// BW is each worker's true available bandwidth in bits/s (the minimum of
	// its uplink and downlink, Sec. III-A); len(BW) is n. With a Schedule,
	// BW is ignored and the schedule's epoch 0 gives n.
	BW []float64
	// Schedule, if set, makes the bandwidths change over time.
	Schedule BandwidthSchedule
	// OnBandwidth, if set, is called at every change of the Schedule's
	// epoch with the new bandwidths (bits/s, shared, read-only), for
	// executors that move data on a network whose links must follow.
	OnBandwidth func(epoch int, bw []float64)
	// ModelBytes is the model size v in bytes.
	ModelBytes float64
	// Alpha is the one-way latency between workers in seconds (Eq. 2).
	Alpha float64
	// Compute holds each worker's compute-time distribution, or a single
	// distribution shared by all workers.
	Compute []training.Dist
	// Duration ends the run: computations and synchronisations that finish
	// after it are not counted. Zero runs until no event is left.
	Duration netsim.Time
	// MaxIters stops a worker after that many rounds (compute + sync);
	// 0 means no limit.
	MaxIters int
	// Cost is the analytic all-reduce cost model.
	Cost CostModel
	// Exec runs group all-reduces; nil means Analytic.
	Exec Executor
	// Record keeps a log of completed synchronisations (see Syncs).
	Record bool
	// OnSync, if set, hears every completed synchronisation as it
	// completes, in the order Syncs would list them, so a caller can
	// write them out instead of keeping them.
	OnSync func(SyncRecord)
	// Streams names the workers' compute-time streams: worker i draws
	// from Streams + i ("training/compute/" if empty). Clusters sharing a
	// Sim give each its own.
	Streams string
	// Recorder, if set, hears the schedule (recorder.go).
	Recorder Recorder
	// Buckets, if set, overlaps synchronisation with backprop layer by
	// layer (overlap.go): the model's buckets input side first
	// (layers.Buckets), whose bytes split ModelBytes and whose forward
	// and backward times split each round's compute draw, in proportion.
	// A worker is ready when backprop has produced its first bucket, and
	// a launched group reduces the buckets one at a time as its members
	// produce them. nil (or one bucket) synchronises the whole model
	// after the whole compute.
	Buckets []layers.Bucket
}

// Executor runs one group all-reduce of bytes (the model, or one bucket
// of it with Config.Buckets) and calls done when it completes.
type Executor interface {
	Start(c *Cluster, group []int, bytes float64, done func())
}

// Analytic runs a group all-reduce in the time given by the cluster's
// CostModel (Eq. 2) with the group's minimum true bandwidth; when the
// bandwidths change over time, with the minimum integrated over the
// epochs the all-reduce spans (see Cluster.analyticEnd).
type Analytic struct{}

// Start schedules done after the Eq. 2 time.
func (Analytic) Start(c *Cluster, group []int, bytes float64, done func()) {
	var at netsim.Time
	ok := false
	if c.varying() {
		at, ok = c.analyticEnd(group, bytes)
	} else {
		b := math.Inf(1)
		for _, w := range group {
			b = math.Min(b, c.bw[w])
		}
		d := c.cfg.Cost.Time(len(group), bytes, b, c.cfg.Alpha)
		at, ok = netsim.Later(c.sim.Now(), d)
	}
	if ok { // else it ends after the clock's end: never within the run
		c.sim.At(at, done)
	}
}

// Controller is the logic of a synchronisation scheme. Step is one pass of
// the controller loop (Alg. 3, lines 4-27): it is called after worker w
// became ready and was pushed to the ready queue, or with w = -1 when the
// wait for the next ready worker timed out. It launches groups with
// Cluster.Launch and returns how long to wait for the next ready worker
// before being called again with w = -1 (0: wait indefinitely).
type Controller interface {
	Name() string
	Step(c *Cluster, w int) (timeout netsim.Time)
}

// WorkerChecker is a Controller that can tell, before the run, that it
// would never launch a group on n workers (SelectiveReduce with p >= n);
// NewCluster refuses such a cluster with the controller's error.
type WorkerChecker interface {
	CheckWorkers(n int) error
}

type wstate uint8

const (
	computing wstate = iota
	ready
	syncing
	finished
)

type worker struct {
	state    wstate
	start    netsim.Time // start of the current computation
	readyAt  netsim.Time // its end
	queuedAt netsim.Time
	last     float64 // duration of the last computation (to the ready signal), seconds
	dur      float64 // the current round's whole compute, seconds
	iters    int     // completed computations
	rounds   int     // completed synchronisations
	idle     netsim.Time
	wasted   netsim.Time
	rng      *rand.Rand
	dist     training.Dist
}

// Cluster is n training workers and a controller on one Sim.
type Cluster struct {
	sim   *netsim.Sim
	cfg   Config
	ctl   Controller
	w     []worker
	queue []int
	poll  netsim.Timer
	exec  Executor
	ov    *overlapPlan // nil: no overlap

	syncs     int
	syncTime  netsim.Time
	syncScale int
	launched  int
	log       []SyncRecord

	period netsim.Time   // bandwidth epoch length (0: static or timed)
	timed  TimedSchedule // epochs at their own times, if the schedule has them
	epoch  int           // bandwidth epoch in force
	bw     []float64     // true bandwidths in force, bits/s
}

const (
	evReady int32 = iota + 1
	evPoll
	evBandwidth
)

// NewCluster checks cfg and builds the cluster. Worker i draws its compute
// times from the stream "training/compute/<i>", so the same seed gives
// every scheme the same sequence of compute times per worker.
func NewCluster(sim *netsim.Sim, cfg Config, ctl Controller) (*Cluster, error) {
	var period netsim.Time
	if cfg.Schedule != nil {
		period = cfg.Schedule.Period()
		if period < 0 {
			return nil, fmt.Errorf("cluster: bandwidth period %v, want >= 0", period)
		}
		cfg.BW = cfg.Schedule.Epoch(0)
	}
	if err := checkBandwidths(cfg.BW); err != nil {
		return nil, err
	}
	n := len(cfg.BW)
	if !(cfg.ModelBytes > 0) {
		return nil, fmt.Errorf("cluster: model size %g bytes, want > 0", cfg.ModelBytes)
	}
	if cfg.Alpha < 0 || math.IsNaN(cfg.Alpha) {
		return nil, fmt.Errorf("cluster: alpha %g s, want >= 0", cfg.Alpha)
	}
	if len(cfg.Compute) != 1 && len(cfg.Compute) != n {
		return nil, fmt.Errorf("cluster: %d compute distributions for %d workers (want 1 or n)", len(cfg.Compute), n)
	}
	if ctl == nil {
		return nil, fmt.Errorf("cluster: no controller")
	}
	if wc, ok := ctl.(WorkerChecker); ok {
		if err := wc.CheckWorkers(n); err != nil {
			return nil, err
		}
	}
	c := &Cluster{sim: sim, cfg: cfg, ctl: ctl, w: make([]worker, n), queue: make([]int, 0, n), exec: cfg.Exec,
		period: period, bw: cfg.BW}
	if ts, ok := cfg.Schedule.(TimedSchedule); ok {
		c.timed = ts
	}
	if c.exec == nil {
		c.exec = Analytic{}
	}
	if len(cfg.Buckets) > 1 {
		var err error
		if c.ov, err = newOverlapPlan(cfg.Buckets, cfg.ModelBytes); err != nil {
			return nil, err
		}
	}
	for i := range c.w {
		prefix := cfg.Streams
		if prefix == "" {
			prefix = "training/compute/"
		}
		c.w[i].rng = sim.Rand(prefix + strconv.Itoa(i))
		c.w[i].dist = cfg.Compute[0]
		if len(cfg.Compute) == n {
			c.w[i].dist = cfg.Compute[i]
		}
	}
	c.poll.Init(sim, c, evPoll)
	return c, nil
}

// Sim is the cluster's simulation.
func (c *Cluster) Sim() *netsim.Sim { return c.sim }

// Controller is the cluster's controller.
func (c *Cluster) Controller() Controller { return c.ctl }

// N is the number of workers.
func (c *Cluster) N() int { return len(c.w) }

// Config returns the cluster's configuration.
func (c *Cluster) Config() *Config { return &c.cfg }

// Now is the current time in seconds.
func (c *Cluster) Now() float64 { return c.sim.Now().Seconds() }

// Queue is the ready queue in arrival order. It is owned by the cluster:
// read it, do not modify it.
func (c *Cluster) Queue() []int { return c.queue }

// Active is the number of workers that have not finished (MaxIters).
func (c *Cluster) Active() int {
	a := 0
	for i := range c.w {
		if c.w[i].state != finished {
			a++
		}
	}
	return a
}

// BW is worker w's true bandwidth in bits/s, as in force now.
func (c *Cluster) BW(w int) float64 { return c.bw[w] }

// Epoch is the bandwidth epoch in force (0 for static bandwidths).
func (c *Cluster) Epoch() int { return c.epoch }

// Dist is worker w's distribution of the time from a round's start to its
// ready signal (what a warm-started controller knows in advance): its
// compute-time distribution, scaled to the share of a round before the
// first bucket with Config.Buckets.
func (c *Cluster) Dist(w int) training.Dist {
	if c.ov == nil {
		return c.w[w].dist
	}
	return scaledDist{d: c.w[w].dist, f: c.ov.signal()}
}

// LastCompute is the duration in seconds of worker w's last computation,
// to its ready signal.
func (c *Cluster) LastCompute(w int) float64 { return c.w[w].last }

// Computing calls f for every computing worker in ID order with the time
// elapsed since it started its current round, in seconds.
func (c *Cluster) Computing(f func(w int, elapsed float64)) {
	now := c.sim.Now()
	for i := range c.w {
		if c.w[i].state == computing {
			f(i, (now - c.w[i].start).Seconds())
		}
	}
}

// ReadyAt is when computing worker w will finish its current round: the
// oracle knowledge of the illustrative schemes of Fig. 3. ok is false if w
// is not computing.
func (c *Cluster) ReadyAt(w int) (t float64, ok bool) {
	if c.w[w].state != computing {
		return 0, false
	}
	return c.w[w].readyAt.Seconds(), true
}

// QueuedAt is when worker w last became ready.
func (c *Cluster) QueuedAt(w int) netsim.Time { return c.w[w].queuedAt }

// AddWastedWait books d of wasted waiting to worker w.
func (c *Cluster) AddWastedWait(w int, d netsim.Time) { c.w[w].wasted += d }

// Launch pops the workers of group from the ready queue and starts their
// all-reduce. Launching a worker that is not ready is a controller bug and
// panics.
func (c *Cluster) Launch(group []int) {
	if len(group) == 0 {
		return
	}
	now := c.sim.Now()
	for _, w := range group {
		if c.w[w].state != ready {
			panic(fmt.Sprintf("syncctl: %s launched worker %d which is not in the ready queue", c.ctl.Name(), w))
		}
		c.w[w].state = syncing
		c.w[w].idle += c.idleSince(w, now)
	}
	out := c.queue[:0]
	for _, w := range c.queue {
		if c.w[w].state == ready {
			out = append(out, w)
		}
	}
	c.queue = out
	c.launched++
	g := append([]int(nil), group...)
	start := now
	if c.ov != nil {
		c.launchBuckets(g, start)
		return
	}
	c.exec.Start(c, g, c.cfg.ModelBytes, func() { c.finishSync(g, start) })
}

func (c *Cluster) finishSync(g []int, start netsim.Time) {
	now := c.sim.Now()
	c.syncs++
	c.syncTime += now - start
	c.syncScale += len(g)
	if c.cfg.Record {
		c.log = append(c.log, SyncRecord{Start: start, End: now, Scale: len(g)})
	}
	if c.cfg.OnSync != nil {
		c.cfg.OnSync(SyncRecord{Start: start, End: now, Scale: len(g)})
	}
	c.rec().Synced(g)
	for _, w := range g {
		c.w[w].rounds++
		if c.cfg.MaxIters > 0 && c.w[w].rounds >= c.cfg.MaxIters {
			c.w[w].state = finished
			continue
		}
		c.compute(w)
	}
}

func (c *Cluster) compute(w int) {
	x := &c.w[w]
	d := x.dist.Sample(x.rng)
	if !(d >= 0) || math.IsInf(d, 0) {
		panic(fmt.Sprintf("syncctl: compute time %v of worker %d is not a finite non-negative number", d, w))
	}
	x.state = computing
	x.start = c.sim.Now()
	x.dur = d
	var ok bool
	if x.readyAt, ok = netsim.Later(x.start, d*c.signalFraction()); ok {
		c.sim.Schedule(x.readyAt, c, evReady, nil, int64(w))
	} // else a draw from a long tail ends after the clock's end: never within the run
}

// HandleEvent implements netsim.Handler: worker ready events and the
// controller's wait timeout.
func (c *Cluster) HandleEvent(ev netsim.Event) {
	w := -1
	switch ev.Kind {
	case evReady:
		w = int(ev.Arg)
		x := &c.w[w]
		x.state = ready
		x.last = (x.readyAt - x.start).Seconds()
		x.iters++
		x.queuedAt = ev.At
		c.rec().Computed(w)
		c.queue = append(c.queue, w)
	case evPoll:
	case evBandwidth:
		c.nextEpoch()
		return
	default:
		panic(fmt.Sprintf("syncctl: unknown event kind %d", ev.Kind))
	}
	if d := c.ctl.Step(c, w); d > 0 && c.busy() {
		c.poll.Set(c.sim.Now() + d)
	} else {
		c.poll.Stop()
	}
}

// busy reports whether some worker is computing or synchronising. When
// none is, no worker can become ready and the controller's state cannot
// change, so its wait for the next ready worker would never end: the
// cluster stops polling (this only matters for runs without a Duration).
func (c *Cluster) busy() bool {
	for i := range c.w {
		if s := c.w[i].state; s == computing || s == syncing {
			return true
		}
	}
	return false
}

// Run starts every worker's first computation at time 0, runs the Sim to
// the configured duration and returns the metrics.
func (c *Cluster) Run() Metrics {
	for i := range c.w {
		c.compute(i)
	}
	c.scheduleEpoch()
	until := c.cfg.Duration
	if until <= 0 {
		until = netsim.Never
	}
	c.sim.Run(until)
	return c.metrics()
}
