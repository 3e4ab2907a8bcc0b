package inagg

import (
	"fmt"
	"math"
	"math/bits"

	"syncsim/internal/timeline"
	"syncsim/netsim"
)

// JobConfig describes one training job.
type JobConfig struct {
	// ID identifies the job in packet headers; it must be unique among the
	// jobs registered at one aggregating switch (small non-negative
	// integers: the switch indexes a slice by it).
	ID int
	// Protocol is the synchronisation protocol.
	Protocol Protocol
	// Workers are the worker hosts (1..MaxWorkers); PS is the parameter
	// server host. A host may carry several jobs' endpoints.
	Workers []*netsim.Host
	PS      *netsim.Host
	// Switch is the aggregating switch's program. It is required for the
	// INA protocols and ignored by BytePS. It must lie on the path between
	// the workers and the PS in both directions.
	Switch *Aggregator
	// Gradient is the number of bytes each worker pushes per iteration
	// (the model size, e.g. 98 MB for ResNet50).
	Gradient netsim.Bytes
	// Iterations is the number of training iterations (>= 1).
	Iterations int
	// Compute returns worker w's compute time in iteration k, spent before
	// it pushes that iteration's gradient; nil means zero (a benchmark job
	// that always has data to send). With Buckets it is the iteration's
	// forward plus backward time, split over the buckets.
	Compute func(w, k int) netsim.Time
	// Buckets, with Compute, make the workers compute layer by layer and
	// aggregate bucket by bucket (buckets.go): the gradient buckets input
	// side first, as workloads/layers fuses them. Each bucket's sequences
	// go out once backprop has produced it, and the next iteration's
	// forward pass of its layers waits for its results. Nil (or a nil
	// Compute): the whole compute, then the whole gradient.
	Buckets []Bucket
	// Trace, with Buckets, records worker i's timeline into Trace[i]
	// (its forward and backward passes per bucket, and each bucket's
	// aggregation from when backprop produced it to its last result);
	// nil records nothing.
	Trace []*timeline.Worker
	// Start is when the job starts (its first compute phase).
	Start netsim.Time
	// Params are the protocol constants; the zero value selects
	// DefaultParams().
	Params *Params
	// FirstLevel, for ATP only, is the switch that aggregates each worker's
	// gradients first (nil: none, the worker's gradients go straight to
	// Switch): ATP's multi-rack aggregation, in which each rack switch sums
	// the job's workers under it and sends the rack's aggregate on to the
	// PS's switch, which sums the racks (Lao et al., NSDI 2021: the worker's
	// and the PS's rack switches aggregate). Each must lie on its workers'
	// paths to the PS and back; entries equal to Switch are ignored.
	FirstLevel []*Aggregator
	// Tree, for ATP only, is each worker's chain of aggregating switches
	// below Switch, bottom first (nil: none): an aggregation tree rooted
	// at Switch, in which every switch sums the contributions of the
	// workers whose chains cross it and sends their sum on up (tree.go;
	// agg_placement=every-tier). An empty chain sends the worker's
	// gradients straight to Switch. The chains must form a tree (workers
	// crossing a switch climb on by the same switches), and the routes
	// must follow it both ways under the workers' flow labels (Flows),
	// which NewJob checks. It excludes FirstLevel.
	Tree [][]*Aggregator
	// Flows optionally sets the ECMP flow label of each worker's packets
	// (to pin workers to paths); nil derives labels from (ID, worker).
	Flows []uint64
	// OnDone, if set, is called when every worker has finished every
	// iteration.
	OnDone func(j *Job)
}

// JobStats are a job's books.
type JobStats struct {
	// SwitchContributions and PSContributions count worker contributions
	// (one per worker per sequence) summed at the switch and at the PS;
	// they add up to workers x packets x iterations when the job is done.
	SwitchContributions, PSContributions uint64
}

// Job is one training job: W worker endpoints and a PS endpoint.
type Job struct {
	cfg    JobConfig
	params Params
	net    *netsim.Network
	agg    *Aggregator

	packets     int64 // gradient packets per worker per iteration
	payload     netsim.Bytes
	lastPayload netsim.Bytes
	hdr         netsim.Bytes
	psRing      int
	ring        uint8 // NIC transmit ring of the job's packets at its hosts
	// recoveryBatch is how many resends a timeout recovery
	// sends at once: the CWD cap (one BDP); and
	// recoveryStep how many more each new result lets out.
	recoveryBatch, recoveryStep int64
	// atpIdx is ATP's aggregator index table (atpIndexTable); nil for
	// the other protocols.
	atpIdx     []int32
	atpThreads int64 // ATP threads in use, min(ATPThreads, packets)
	atpWindow  int64 // aggregator indexes per thread, ATPThreadWindow

	workers []*worker
	ps      *paramServer
	awd     *awdCtl       // the job's AWD shared by its workers (AWDJob), else nil
	first   []*Aggregator // first-level switches (FirstLevel) or the tree's (Tree), distinct, in worker order

	finished []int         // workers that finished iteration k
	iterEnd  []netsim.Time // when the last worker finished iteration k
	started  bool
	done     bool
	doneAt   netsim.Time

	stats JobStats
	sw    SwitchJobStats // the job's share of its switch's counters
	held  heldBook       // the job's aggregators at its switch over time
	// shares are the switches' shares of sw and held of a two-level job
	// on a partitioned network, in switch order (twolevel_part.go).
	shares  []*jobShare
	heldBuf []heldDelta // foldHeld's merge buffer

	// On a partitioned network (partitioned.go): part is set, the
	// iterations before folded are booked, awdBuf is the AWD fold's
	// scratch.
	part   bool
	folded int
	awdBuf []awdInput
}

// NewJob validates cfg, registers the endpoints on the hosts and the job
// at its aggregating switch. Call Start to schedule it.
func NewJob(net *netsim.Network, cfg JobConfig) (*Job, error) {
	params := DefaultParams()
	if cfg.Params != nil {
		params = *cfg.Params
	}
	if err := params.Validate(); err != nil {
		return nil, err
	}
	switch {
	case cfg.ID < 0 || cfg.ID > 1<<20:
		return nil, fmt.Errorf("inagg: job ID %d out of range [0, %d]", cfg.ID, 1<<20)
	case cfg.Protocol >= numProtocols:
		return nil, fmt.Errorf("inagg: unknown protocol %d", cfg.Protocol)
	case len(cfg.Workers) < 1 || len(cfg.Workers) > MaxWorkers:
		return nil, fmt.Errorf("inagg: job %d needs 1..%d workers, got %d", cfg.ID, MaxWorkers, len(cfg.Workers))
	case cfg.PS == nil:
		return nil, fmt.Errorf("inagg: job %d has no parameter server", cfg.ID)
	case cfg.Protocol.INA() && cfg.Switch == nil:
		return nil, fmt.Errorf("inagg: job %d uses %s, which needs an aggregating switch", cfg.ID, cfg.Protocol)
	case cfg.Gradient <= 0:
		return nil, fmt.Errorf("inagg: job %d gradient size must be positive, got %d", cfg.ID, cfg.Gradient)
	case cfg.Iterations < 1:
		return nil, fmt.Errorf("inagg: job %d needs at least one iteration, got %d", cfg.ID, cfg.Iterations)
	case cfg.Start < 0:
		return nil, fmt.Errorf("inagg: job %d start time %v is negative", cfg.ID, cfg.Start)
	case cfg.Flows != nil && len(cfg.Flows) != len(cfg.Workers):
		return nil, fmt.Errorf("inagg: job %d has %d flow labels for %d workers", cfg.ID, len(cfg.Flows), len(cfg.Workers))
	case cfg.FirstLevel != nil && cfg.Protocol != ATP:
		return nil, fmt.Errorf("inagg: job %d: first-level aggregation is ATP's; %s aggregates at one switch", cfg.ID, cfg.Protocol)
	case cfg.FirstLevel != nil && len(cfg.FirstLevel) != len(cfg.Workers):
		return nil, fmt.Errorf("inagg: job %d has %d first-level switches for %d workers", cfg.ID, len(cfg.FirstLevel), len(cfg.Workers))
	}
	if err := checkTree(cfg); err != nil {
		return nil, err
	}
	for i, h := range cfg.Workers {
		if h == nil {
			return nil, fmt.Errorf("inagg: job %d worker %d is nil", cfg.ID, i)
		}
		if h == cfg.PS {
			return nil, fmt.Errorf("inagg: job %d worker %d is its parameter server host", cfg.ID, i)
		}
	}
	j := &Job{cfg: cfg, params: params, net: net}
	j.hdr, j.payload = params.sizes(cfg.Protocol)
	j.packets = int64((cfg.Gradient + j.payload - 1) / j.payload)
	j.lastPayload = cfg.Gradient - netsim.Bytes(j.packets-1)*j.payload
	var plan *bucketPlan
	if len(cfg.Buckets) > 0 && cfg.Compute != nil {
		var err error
		if plan, err = newBucketPlan(cfg.Buckets, j.packets); err != nil {
			return nil, fmt.Errorf("inagg: job %d: %w", cfg.ID, err)
		}
	}
	if cfg.Protocol.INA() {
		j.agg = cfg.Switch
		j.ring = INARing
	}
	win := int64(params.MaxWindow)
	if j.packets < win {
		win = j.packets
	}
	wring := ringSize(int(win) + 1)
	j.psRing = ringSize(4 * int(win))

	j.ps = &paramServer{j: j, host: cfg.PS}
	j.ps.ring, j.ps.mask = make([]psEntry, j.psRing), int64(j.psRing-1)
	for i := range j.ps.ring {
		j.ps.ring[i].seq = -1
	}
	j.workers = make([]*worker, len(cfg.Workers))
	for i, h := range cfg.Workers {
		w := &worker{j: j, idx: i, host: h, flow: flowLabel(cfg.ID, i), lastAACK: -1, lastGACK: -1}
		if cfg.Flows != nil {
			w.flow = cfg.Flows[i]
		}
		w.flags, w.mask = make([]uint8, wring), int64(wring-1)
		w.rto.Init(h.Sim(), w, evRTO)
		if plan != nil {
			w.bk = newBucketRun(plan)
			if i < len(cfg.Trace) {
				w.bk.rec = cfg.Trace[i]
			}
		}
		j.workers[i] = w
	}
	if err := j.checkTreeRoutes(); err != nil {
		return nil, err
	}
	// Endpoints are registered last; a failed switch registration removes
	// them again, so a failed NewJob leaves no trace.
	j.ps.ep = cfg.PS.Register(j.ps)
	for _, w := range j.workers {
		w.ep = w.host.Register(w)
	}
	if j.agg != nil {
		if err := j.agg.register(j); err != nil {
			j.unregisterEndpoints()
			return nil, err
		}
		err := j.registerFirstLevel()
		if err == nil {
			err = j.registerTree()
		}
		if err != nil {
			j.agg.unregister(j)
			j.unregisterEndpoints()
			return nil, err
		}
	}
	initAWD := params.InitAWD
	if initAWD == 0 {
		initAWD = float64(params.MaxWindow) // replaced by AWD* when the job starts
	}
	maxCWD := params.MaxCWD
	if maxCWD == 0 {
		maxCWD = float64(params.MaxWindow)
		if j.agg != nil {
			// CWDCapBDP times the BDP in bytes, in this job's packets.
			bdp := params.CWDCapBDP * float64(j.agg.cfg.BDPPackets) * float64(INAHeaderBytes+INAPayloadBytes)
			maxCWD = math.Max(1, math.Floor(bdp/float64(j.hdr+j.payload)))
		}
	}
	maxCWD = math.Min(maxCWD, float64(params.MaxWindow))
	j.recoveryBatch, j.recoveryStep = int64(maxCWD), 1
	if cfg.Protocol == BytePS {
		// TCP after a timeout: the first unacknowledged segment (RFC 6298
		// Sec. 5.4), then two more per new acknowledgement, as slow start
		// from a window of one segment lets out (RFC 5681 Sec. 3.1), not
		// the whole window at once.
		j.recoveryBatch, j.recoveryStep = 1, 2
	}
	if cfg.Protocol == ATP {
		j.atpThreads, j.atpWindow = min(int64(params.ATPThreads), j.packets), int64(params.ATPThreadWindow)
		j.atpIdx = atpIndexTable(int32(cfg.ID), int(j.atpThreads*j.atpWindow), j.agg.mem.Size())
	}
	if params.AWDScope == AWDJob {
		j.awd = newAWDCtl(params, initAWD)
	}
	spec := &protocols[cfg.Protocol]
	for _, w := range j.workers {
		w.ctl = spec.worker(spec, j, w, maxCWD, initAWD)
		w.strm, _ = w.ctl.(streamer)
	}
	if net.Sim.Partitions() != nil {
		j.partitioned(net.Sim)
	}
	return j, nil
}

// gapThreshold is how far results must pass a missing one before it is
// fast-retransmitted: Params.GapThreshold, or TCP's three duplicate ACKs
// under BytePS.
func (j *Job) gapThreshold() int64 {
	switch {
	case j.cfg.Protocol == BytePS:
		return BytePSGapThreshold
	case j.params.GapThreshold > 0:
		return int64(j.params.GapThreshold)
	case j.cfg.Protocol == ATP:
		return ATPGapThreshold
	}
	return 1
}

// twoLevel reports whether cfg aggregates at a first-level switch other
// than its switch.
func twoLevel(cfg JobConfig) bool {
	for _, a := range cfg.FirstLevel {
		if a != nil && a != cfg.Switch {
			return true
		}
	}
	return false
}

func (j *Job) unregisterEndpoints() {
	j.cfg.PS.Unregister(j.ps.ep)
	for _, w := range j.workers {
		w.host.Unregister(w.ep)
	}
}

// asyncWorker is the asynchronous window of StrawAsyn, its ablations
// and PA-ATP (asyncCtl), with progress-aware cuts and the asynchrony limit
// as the protocol's registration s says.
func asyncWorker(s *protocolSpec, j *Job, _ *worker, maxCWD, initAWD float64) controller {
	if s.progressAware && s.asyncLimited {
		return newPAATPCtl(j.params, maxCWD, j.hdr+j.payload, j.awd, initAWD)
	}
	return newStrawAsynCtl(j.params, maxCWD, j.hdr+j.payload, s.progressAware, s.asyncLimited, j.awd, initAWD)
}

// ringSize is the power of two >= n (at least 2).
func ringSize(n int) int {
	if n < 2 {
		return 2
	}
	return 1 << bits.Len(uint(n-1))
}

// payloadOf is the payload of sequence seq (the last packet of an
// iteration carries the remainder).
func (j *Job) payloadOf(seq int64) netsim.Bytes {
	if (seq+1)%j.packets == 0 {
		return j.lastPayload
	}
	return j.payload
}

// Start schedules the job's first iteration at its start time (or now, if
// that has passed). Calling it twice is an error.
func (j *Job) Start() error {
	if j.started {
		return fmt.Errorf("inagg: job %d started twice", j.cfg.ID)
	}
	j.started = true
	at := j.cfg.Start
	if now := j.net.Sim.Now(); at < now {
		at = now
	}
	j.net.Sim.At(at, func() {
		j.setInitialAWD()
		for _, w := range j.workers {
			w.credits = w.host.NICFlowControl()
			w.startIteration(0)
		}
	})
	return nil
}

// setInitialAWD starts the asynchrony limit at AWD* = eta (M + BDP) / N
// (Sec. III-C), N the jobs registered at the aggregator now, unless
// Params.InitAWD sets it.
func (j *Job) setInitialAWD() {
	if j.params.InitAWD != 0 || j.agg == nil {
		return
	}
	c := j.agg.cfg
	awd := AWDStar(c.Eta, float64(j.agg.mem.Size()), float64(c.BDPPackets), j.agg.njobs)
	for _, w := range j.workers {
		if a, ok := w.ctl.(*asyncCtl); ok {
			a.awd.start(awd, j.params)
		}
	}
}

// workerFinished books worker w finishing iteration k.
func (j *Job) workerFinished(_ *worker, k int, now netsim.Time) {
	if j.part {
		return // folded at the next barrier (foldIterations)
	}
	for len(j.finished) <= k {
		j.finished = append(j.finished, 0)
		j.iterEnd = append(j.iterEnd, 0)
	}
	j.finished[k]++
	if j.finished[k] == len(j.workers) {
		j.iterEnd[k] = now
		if k == j.cfg.Iterations-1 {
			j.finish(now)
		}
	}
}

func (j *Job) finish(now netsim.Time) {
	j.done, j.doneAt = true, now
	if j.agg != nil {
		j.agg.unregister(j)
	}
	for _, a := range j.first {
		a.unregister(j)
	}
	if j.cfg.OnDone != nil {
		j.cfg.OnDone(j)
	}
}
