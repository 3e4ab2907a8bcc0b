package dssync

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"syncsim/internal/timeline"
	"syncsim/netsim"
	"syncsim/netsim/fluid"
	"syncsim/switchmodel"
	"syncsim/topologies"
	"syncsim/transport"
	"syncsim/workloads/collective"
	"syncsim/workloads/layers"
	"syncsim/workloads/training"
)

// Config is one run of a job on racks behind a spine, under one scenario
// of Sec. V-A5, with one synchronisation scheme.
type Config struct {
	Scheme   string
	Scenario Scenario
	// Layout lists the workers of each rack (nil: PaperLayout(Scenario)).
	Layout Layout
	// Delayed is the worker sharing its NIC in the end-host and both
	// scenarios (-1: the last worker of rack 0).
	Delayed int

	Model Model
	// Layers < 0 synchronises the model's layer table (Table) bucket by
	// bucket (Bucket), overlapping the backward pass as Overlap says;
	// Layers >= 1 cuts the model into that many equal pieces with the
	// compute spread evenly, and 0 into 25 MB equal pieces (the earlier
	// model; Cutting).
	Layers int
	// Table is the model's layer table (nil: Model.Table's built-in table,
	// if it has one).
	Table *layers.Model
	// Overlap and Bucket: see Cutting.
	Overlap layers.Overlap
	Bucket  layers.Bucketing
	// Compute is forward plus backward time of one iteration (0: the
	// model's); BackwardFrac of it is the backward pass (< 0: the layer
	// table's own split; 0.667 without a table).
	Compute      netsim.Time
	BackwardFrac float64
	// Spread draws each iteration's compute in [1-Spread, 1+Spread] times
	// the nominal; Trace, if set, draws it from measured times instead.
	Spread float64
	Trace  training.Dist
	// Mult multiplies each worker's compute (heterogeneous workers,
	// persistent stragglers); nil: all alike. One per worker of Layout.
	Mult []float64

	LinkRate netsim.Rate // every host link
	// Oversub is a host link's rate over a rack uplink's (the paper's
	// "oversubscription rate 1": every link at 20 Gbps).
	Oversub float64
	Delay   netsim.Time // propagation of every cable (with Fabric, the longest)

	// Fabric, if set, builds the network instead of BuildRacks' racks
	// behind one spine (a fat-tree, a topology file), with output queues
	// q (zero at flow fidelity). Its host group r is rack r of Layout:
	// placement host index i (Placement) is host i mod HostsPerRack of
	// group i / HostsPerRack, which must exist (Placement.Fits). Its
	// hosts' cables run at LinkRate; a rack's uplink capacity, for the
	// detector, is the sum of its edge switch's cables to other switches.
	Fabric func(net *netsim.Network, q switchmodel.QueueConfig) (*topologies.Fabric, error)
	// PathCables is the number of cables between the two farthest hosts
	// (0: 4, the racks' host-ToR-spine-ToR-host); with Delay it sets the
	// packet fidelity's base round trip and the run's horizon.
	PathCables int
	// Alpha is the per-message start latency (software overhead).
	Alpha netsim.Time

	// Background is "job" (a two-worker task training BGModel with ring
	// all-reduce, Sec. V-A5) or "flows" (BGFlows long-lived transfers in
	// each direction between the background task's two hosts).
	Background string
	BGModel    Model
	BGFlows    int
	// BGCompute is the background job's compute per iteration (0: its
	// model's): the longer, the less of the time it competes.
	BGCompute netsim.Time

	Iterations, Warmup int
	Fidelity           string // "flow" or "packet"

	// DS-Sync: re-detect every AdjustEvery iterations from measured
	// transfers (Detect "measure"), start from the scenario's contention
	// (Detect "given") or keep initGroups' pattern (Detect "off");
	// Threshold is the detector's (DefaultThreshold). GroupAlgo is the
	// groups' all-reduce, "ring" or "tree".
	AdjustEvery int
	Detect      string
	Threshold   float64
	GroupAlgo   string

	TreeChunks int // pipeline chunks per piece of tree and leader-mode hierarchical all-reduce
	HierMode   collective.HierMode

	ConsensusTol float64 // the tolerance of ConsensusIters
	Record       bool    // keep every worker's communication per iteration
	Check        bool    // verify the engines' books at the end

	// OnComm hears every worker's communication per iteration as it
	// closes (JobConfig.OnComm; nil: nobody).
	OnComm func(CommRecord)

	// Recorder hears the synchronisation schedule (nil: nobody).
	Recorder Recorder

	// Timeline records the job's workers' timelines (nil: none).
	Timeline *timeline.Log
}

// Result is what one run measured.
type Result struct {
	// CommMs and IterMs are the workers' mean communication and
	// iteration times in ms over the measured iterations (ASP: the
	// fastest worker's, as Table III reports); CommMaxMs is the slowest
	// worker's mean communication time.
	CommMs, CommMaxMs, IterMs float64
	// IterMinMs is the mean iteration time of the worker that iterates
	// fastest (with stragglers, ASP's other workers run ahead of them).
	IterMinMs float64
	// InterRackGB is the job's bytes between racks per iteration, in GB.
	InterRackGB float64
	// BGGbps is the background task's throughput while the job ran.
	BGGbps float64
	// Rho and ConsensusIters describe the scheme's W_k (NaN and -1 for
	// ASP): rho of the period product and the iterations until the worst
	// case is within ConsensusTol of the average.
	Rho            float64
	ConsensusIters int
	// Period, Adjustments and Detected describe DS-Sync's final pattern.
	Period      int
	Adjustments int
	Detected    Contention
	Events      uint64
	Log         []CommRecord
}

// run is one run in progress.
type run struct {
	cfg      Config
	sim      *netsim.Sim
	net      *netsim.Network
	fab      *topologies.Fabric
	uplinks  []netsim.Rate
	place    Placement
	eng      *fluid.Engine
	stack    *transport.Stack
	conns    *transport.Persistent
	bulk     netsim.Bulk // the engine
	books    *books      // the job's transfers
	hosts    []netsim.NodeID
	adaptive *Adaptive
	plan     Plan // the job's pieces
}

// Run simulates cfg on sim (whose seed drives every random draw).
func Run(sim *netsim.Sim, cfg Config) (*Result, error) {
	r := &run{cfg: cfg, sim: sim}
	if err := r.setup(); err != nil {
		return nil, err
	}
	return r.execute()
}

// Check reports what Run would refuse in cfg before simulating: an
// unknown scheme or fidelity, negative times, a model that cannot be cut
// into pieces, no iteration to measure, a delayed worker outside the
// layout.
func Check(cfg Config) error {
	_, _, err := cfg.resolve()
	return err
}

// resolve fills cfg's defaults (the paper's layout, the models' compute)
// and checks it, returning the model's pieces and the placement.
func (c *Config) resolve() (Plan, Placement, error) {
	if _, err := lookupScheme(c.Scheme); err != nil {
		return Plan{}, Placement{}, err
	}
	if c.Fidelity != "flow" && c.Fidelity != "packet" {
		return Plan{}, Placement{}, fmt.Errorf("unknown fidelity %q (allowed: flow, packet)", c.Fidelity)
	}
	if c.Layout == nil {
		c.Layout = PaperLayout(c.Scenario)
	}
	if c.Compute == 0 {
		c.Compute = c.Model.Compute
	}
	if c.BGCompute == 0 {
		c.BGCompute = c.BGModel.Compute
	}
	if c.Compute < 0 || c.BGCompute < 0 {
		return Plan{}, Placement{}, fmt.Errorf("negative compute time")
	}
	plan, err := c.resolvePlan()
	if err != nil {
		return Plan{}, Placement{}, err
	}
	if c.LinkRate <= 0 || c.Delay < 0 || c.Alpha < 0 {
		return Plan{}, Placement{}, fmt.Errorf("link rate, delay and alpha must be positive, non-negative and non-negative")
	}
	if c.Iterations < 1 {
		return Plan{}, Placement{}, fmt.Errorf("iterations %d, need at least 1", c.Iterations)
	}
	if c.Warmup < 0 || c.Warmup >= c.Iterations {
		return Plan{}, Placement{}, fmt.Errorf("warm-up of %d iterations leaves nothing of %d to measure", c.Warmup, c.Iterations)
	}
	p, err := Place(c.Scenario, c.Layout, c.Delayed)
	if err != nil {
		return Plan{}, Placement{}, err
	}
	return plan, p, nil
}

func (r *run) setup() error {
	c := &r.cfg
	plan, p, err := c.resolve()
	if err != nil {
		return err
	}
	r.plan = plan
	r.place = p
	r.net = netsim.NewNetwork(r.sim)
	var q switchmodel.QueueConfig
	tc := transport.DefaultConfig()
	switch c.Fidelity {
	case "flow":
	case "packet":
		q, tc = packetConfig(c.LinkRate, c.Delay, c.pathCables())
	default:
		return fmt.Errorf("unknown fidelity %q (allowed: flow, packet)", c.Fidelity)
	}
	if c.Fabric == nil {
		r.fab, r.uplinks, err = BuildRacks(r.net, c.Layout, p, c.LinkRate, c.Oversub, c.Delay, q)
	} else {
		r.fab, r.uplinks, err = r.customFabric(q)
	}
	if err != nil {
		return err
	}
	if c.Fidelity == "flow" {
		r.eng = fluid.New(r.net, fluid.MaxMin)
		r.bulk = r.eng
	} else {
		r.stack = transport.NewStack(r.net, tc)
		r.conns = r.stack.Persistent()
		r.bulk = r.conns
	}
	r.hosts = make([]netsim.NodeID, len(p.Worker))
	for w, h := range p.Worker {
		r.hosts[w] = r.hostAt(h)
	}
	r.books = &books{inner: r.bulk, fab: r.fab}
	return nil
}

// resolvePlan fills the defaults that cut the model (the model's built-in
// layer table, the backward share) and cuts it.
func (c *Config) resolvePlan() (Plan, error) {
	if c.Table == nil && c.Model.Table != "" && c.Layers < 0 {
		t, err := layers.Builtin(c.Model.Table)
		if err != nil {
			return Plan{}, err
		}
		c.Table = &t
	}
	if c.Compute == 0 {
		c.Compute = c.Model.Compute
	}
	if c.BackwardFrac < 0 && (c.Table == nil || c.Layers >= 0) {
		c.BackwardFrac = DefaultBackwardFrac
	}
	if !(c.BackwardFrac >= 0 && c.BackwardFrac <= 1) && c.BackwardFrac != -1 {
		return Plan{}, fmt.Errorf("backward fraction %g, want 0..1 (-1: the layer table's)", c.BackwardFrac)
	}
	return PlanOf(c.Model.Bytes(), c.Compute, c.BackwardFrac, Cutting{Layers: c.Layers, Table: c.Table, Overlap: c.Overlap, Bucket: c.Bucket})
}

// PlanFor is the pieces a run of c synchronises (Run cuts them the same
// way).
func PlanFor(c Config) (Plan, error) { return c.resolvePlan() }

// packetConfig is the packet fidelity's switch queues and transport:
// DCTCP with the guideline K = C x RTT / 7 for the base round trip
// between racks (cables each way: four between racks, six between a
// fat-tree's pods), drop-tail buffers of 1 MB or 4K
// packets per port, whichever is larger, and windows capped at three
// times that round trip's bandwidth-delay product (at least 32 segments):
// a NIC does not mark, and an uncapped window grows into the sender's own
// NIC queue until it overflows, which Linux prevents with TCP small
// queues (see workloads/collective's fidelity test).
func packetConfig(link netsim.Rate, delay netsim.Time, cables int) (switchmodel.QueueConfig, transport.Config) {
	tc := transport.DefaultConfig()
	const mtu = 1500
	h := netsim.Time(cables)
	rtt := 2*h*delay + h*netsim.TxTime(mtu, link) + h*netsim.TxTime(netsim.Bytes(tc.HeaderBytes), link)
	k := switchmodel.DCTCPK(link, rtt, mtu)
	q := switchmodel.QueueConfig{ECNPackets: k, Buffer: max(netsim.Megabyte, 4*netsim.Bytes(k)*mtu)}
	bdp := netsim.BytesIn(link, rtt)
	tc.MaxCwndPkts = max(32, int(3*bdp/mtu)+1)
	tc.MinRTO = max(tc.MinRTO, 4*rtt)
	tc.InitRTO = max(tc.InitRTO, 4*rtt)
	return q, tc
}

// syncer is the Syncer of the run's scheme (its registration, schemes).
func (r *run) syncer() (Syncer, error) {
	sc, err := lookupScheme(r.cfg.Scheme)
	if err != nil {
		return nil, err
	}
	return sc.syncer(r)
}

func (r *run) execute() (*Result, error) {
	s, err := r.syncer()
	if err != nil {
		return nil, err
	}
	return r.executeWith(s)
}

func (r *run) executeWith(s Syncer) (*Result, error) {
	c := r.cfg
	jc := JobConfig{Name: "job", Hosts: r.hosts, Pieces: r.plan.Pieces,
		Spread: c.Spread, Trace: c.Trace, Mult: c.Mult, Iterations: c.Iterations,
		Warmup: c.Warmup, Record: c.Record, OnComm: c.OnComm, Recorder: c.Recorder}
	if c.Timeline != nil {
		jc.Timeline = c.Timeline.NewJob(c.Scheme, len(r.hosts))
	}
	r.plan.apply(&jc, c.Compute, c.BackwardFrac)
	job, err := NewJob(r.sim, jc, s)
	if err != nil {
		return nil, err
	}
	bg, err := r.background()
	if err != nil {
		return nil, err
	}
	var end netsim.Time
	job.Start(func() {
		end = r.sim.Now()
		r.sim.Stop()
	})
	// A generous horizon: every iteration moving the model over a
	// thousandth of a link, plus its compute, plus a ring all-reduce's
	// 2(n-1) steps of latency (alpha and the path's cables) a thousand times,
	// a hundred times over. Without the latency, a tiny model behind a
	// second of alpha_us ran out of time after microseconds.
	tx := float64(c.Model.Bytes()) * 8 / float64(c.LinkRate) * float64(netsim.Second)
	slowest := 1.0
	for _, m := range c.Mult {
		slowest = max(slowest, m)
	}
	lat := float64(2*c.Layout.Workers()) * float64(c.Alpha+netsim.Time(c.pathCables())*c.Delay)
	h := float64(c.Iterations) * (slowest*float64(c.Compute) + 1000*tx + 1000*lat) * 100
	horizon := netsim.Never
	if h < float64(netsim.Never)/2 {
		horizon = netsim.Time(h)
	}
	r.sim.Run(horizon)
	if !job.Done() {
		if horizon == netsim.Never {
			return nil, fmt.Errorf("%s: the job did not finish %d iterations before the simulated clock's end (%.3g s, 106 days)",
				c.Scheme, c.Iterations, netsim.MaxSeconds)
		}
		return nil, fmt.Errorf("%s: the job did not finish %d iterations within %v of simulated time", c.Scheme, c.Iterations, horizon)
	}
	res := &Result{Events: r.sim.Events(), Log: job.Log}
	r.measure(res, job)
	if bg != nil && end > 0 {
		res.BGGbps = float64(bg.delivered) * 8 / end.Seconds() / 1e9
	}
	r.consensus(res)
	if c.Check {
		if err := r.check(); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// measure fills the timing metrics.
func (r *run) measure(res *Result, job *Job) {
	var comm, iter, worst float64
	fastest := -1
	res.IterMinMs = math.Inf(1)
	for w := range r.hosts {
		st := job.Stats(w)
		cm, it := st.Comm.Milliseconds(), st.Iter.Milliseconds()
		comm += cm
		iter += it
		worst = math.Max(worst, cm)
		res.IterMinMs = math.Min(res.IterMinMs, it)
		if fastest < 0 || cm < job.Stats(fastest).Comm.Milliseconds() {
			fastest = w
		}
	}
	n := float64(len(r.hosts))
	res.CommMs, res.IterMs, res.CommMaxMs = comm/n, iter/n, worst
	if sc, err := lookupScheme(r.cfg.Scheme); err == nil && sc.fastest {
		st := job.Stats(fastest)
		res.CommMs, res.IterMs = st.Comm.Milliseconds(), st.Iter.Milliseconds()
	}
	res.InterRackGB = float64(r.books.interRack) / float64(r.cfg.Iterations) / 1e9
}

// consensus fills rho and the iterations to consensus of the scheme's W_k.
func (r *run) consensus(res *Result) {
	n := len(r.hosts)
	const maxIters = 10000
	sc, err := lookupScheme(r.cfg.Scheme)
	if err != nil || sc.mixing == nil {
		res.Rho, res.ConsensusIters = math.NaN(), -1
		return
	}
	ws := sc.mixing(r, res, n)
	rho, err := Rho(ws)
	if err != nil {
		rho = math.NaN()
	}
	res.Rho = math.Max(rho, 0)
	if rho < 1e-12 {
		res.Rho = 0 // exact averaging up to rounding
	}
	res.ConsensusIters = ConsensusIters(n, func(t int) *mat.Dense { return ws[t%len(ws)] }, r.cfg.ConsensusTol, maxIters)
}

// check verifies the engines' books and that every job transfer finished.
func (r *run) check() error {
	if r.books.dones != r.books.sends || r.books.twice > 0 {
		return fmt.Errorf("books: %d transfers, %d completions (%d twice)", r.books.sends, r.books.dones, r.books.twice)
	}
	if r.eng != nil {
		if err := r.eng.Check(); err != nil {
			return fmt.Errorf("fluid engine: %w", err)
		}
	}
	if r.stack != nil {
		if err := r.net.CheckConservation(); err != nil {
			return fmt.Errorf("packet books: %w", err)
		}
	}
	return nil
}

// books counts a job's transfers, their completions and the bytes that
// cross between racks.
type books struct {
	inner               netsim.Bulk
	fab                 *topologies.Fabric
	sends, dones, twice int
	sent, delivered     netsim.Bytes
	interRack           netsim.Bytes
}

// Send implements netsim.Bulk.
func (b *books) Send(src, dst netsim.NodeID, size netsim.Bytes, opts netsim.BulkOpts, done func()) {
	b.sends++
	b.sent += size
	if b.fab.GroupOf(src) != b.fab.GroupOf(dst) {
		b.interRack += size
	}
	fired := false
	b.inner.Send(src, dst, size, opts, func() {
		if fired {
			b.twice++
		}
		fired = true
		b.dones++
		b.delivered += size
		done()
	})
}
