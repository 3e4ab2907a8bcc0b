package crew

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"syncsim/netsim"
	"syncsim/workloads/layers"
	"syncsim/workloads/training"
)

// Config is one training run (Sec. V-C): n workers compute, report ready,
// and synchronise p at a time by Options.Scheme for Duration.
type Config struct {
	Options
	// Estimate is the bandwidth matrix the controller plans with (bits/s);
	// nil means the real one. Sec. V-H perturbs it (Matrix.Noisy).
	Estimate Matrix
	// Compute is the distribution of one local training iteration
	// (seconds), scaled by ComputeScale (Fig. 9).
	Compute      training.Dist
	ComputeScale float64
	// ComputeMult multiplies each worker's compute times (heterogeneous
	// workers, persistent stragglers: training.Heterogeneity); nil: all 1.
	ComputeMult []float64
	// Duration is the simulated training time.
	Duration netsim.Time
	// Faults are the outages of the run (Sec. IV-B, Fig. 8).
	Faults []Fault
	// Vary makes the real capacities change during the run (flow
	// fidelity).
	Vary Variation
	// Probe is how often every worker measures its outgoing connections
	// and reports them to the controller (the reports arrive Control
	// later), which plans every partial reduce with the latest reports
	// (times each pair's estimation error, Estimate / real at time 0). 0:
	// the controller knows every change at once; negative: it never learns
	// a change and plans with Estimate throughout.
	Probe netsim.Time
	// Recorder, if set, hears the schedule (recorder.go).
	Recorder Recorder
	// OnFormed, if set, hears every partial reduce the controller forms
	// (mixing.go), at the moment it forms.
	OnFormed func(Formation)
	// Buckets, if set, overlap each partial reduce with the members'
	// backprop bucket by bucket (overlap.go): the model's layer buckets,
	// input side first as layers.Buckets returns them, whose bytes and
	// compute give the proportions of Model and of each compute draw. Nil:
	// a worker scatters when its local iteration is done (Sec. III).
	Buckets []layers.Bucket
}

// worker states
const (
	wComputing uint8 = iota
	wReady           // reported ready (or report in flight), not in a task
	wSyncing         // member of a formed partial reduce
	wDead
)

// task is one partial reduce under way.
type task interface {
	pid() int
	start()
	// member reports whether worker w is one of the task's P and has not
	// finished it.
	member(w int) bool
	// connDown handles a detected outage of the connection u-v.
	connDown(u, v int)
	// nodeDown handles a detected failure of worker w.
	nodeDown(w int)
	abandon()
}

// forming is the group of ready workers the controller's queue holds for
// the next partial reduce.
type forming struct {
	pid     int
	members []int
}

// Cluster runs partial reduces over a Net: the controller's ready queue,
// the workers' compute loop, the tasks and the outages.
type Cluster struct {
	sim *netsim.Sim
	net *Net
	cfg Config
	n   int
	ch  Chunking

	est       Matrix  // the controller's bandwidth estimate
	noise     Matrix  // each pair's estimation error factor, est / real
	view      Matrix  // est with connections known to be down at 0
	knownDown [][]int // detected outages per connection
	physDown  [][]int // outages in force per connection
	dead      []bool  // physically failed
	knownDead []bool  // failure detected by the controller
	ctrlUp    bool

	wstate  []uint8
	wgen    []uint32      // bumped when a worker dies: stale compute events drop
	readyAt []netsim.Time // when each worker last became ready
	rng     []*rand.Rand
	pre     []*preScatter // non-blocking scatter under way, by worker

	mesh    *mesh // CREW's and OPR's streams at flow fidelity
	forming *forming
	nextPid int
	nextSeq int64  // streams started (their flow-level FCFS rank)
	tasks   []task // under way, in formation order

	defSplit Split // CREW's default plan (P = N), nil when stale

	ov  *overlapPlan // nil without overlap
	ovw []ovWorker   // per worker, with overlap

	mix *mixing // who meets whom in the run's second half

	// books
	rounds     []int
	standalone int
	prs        int
	prTime     netsim.Time
	lpSum      float64
	lpCount    int
	splitSum   float64 // Eq. 1a + 1b of the chunk splits used, summed like lpSum
	abandoned  int
	discarded  int64
	failovers  int
	waitSum    netsim.Time // readiness to formation, summed over members
	waitCount  int
	accepted   int64 // chunk copies reduced by completed tasks
	onTaskEnd  func(pid int, ok bool, took netsim.Time)
	err        error // first broken invariant
}

// NewCluster prepares a run of cfg over net.
func NewCluster(net *Net, cfg Config) (*Cluster, error) {
	n := net.N()
	if err := cfg.Options.Validate(n); err != nil {
		return nil, err
	}
	if schemes[cfg.Scheme].task == nil {
		return nil, fmt.Errorf("training runs schemes %s; %v runs in single partial reduces only", strings.Join(TrainingSchemeNames, ", "), cfg.Scheme)
	}
	if cfg.Scatter == NonBlocking && cfg.Scheme == CREW && !net.CanCancel() { // OPR and A2A always block
		return nil, fmt.Errorf("non-blocking scatter needs flow fidelity (it abandons transfers mid-way)")
	}
	if len(cfg.Faults) > 0 && !net.CanCancel() {
		return nil, fmt.Errorf("outages need flow fidelity")
	}
	for _, f := range cfg.Faults {
		if err := f.validate(n); err != nil {
			return nil, err
		}
	}
	if !(cfg.ComputeScale > 0) {
		return nil, fmt.Errorf("compute scale %v must be positive", cfg.ComputeScale)
	}
	if cfg.ComputeMult != nil && len(cfg.ComputeMult) != n {
		return nil, fmt.Errorf("%d compute multipliers for %d workers", len(cfg.ComputeMult), n)
	}
	est := cfg.Estimate
	if est == nil {
		est = net.BW
	}
	if est.N() != n {
		return nil, fmt.Errorf("estimate is %d x %d for %d workers", est.N(), est.N(), n)
	}
	if err := cfg.Vary.validate(n); err != nil {
		return nil, err
	}
	if cfg.Vary.Model != BWStatic && !net.CanCancel() {
		return nil, fmt.Errorf("time-varying bandwidth needs flow fidelity")
	}
	est = est.Clone()
	noise := NewMatrix(n)
	for i := range noise {
		for j := range noise[i] {
			if i != j {
				noise[i][j] = est[i][j] / net.BW[i][j]
			}
		}
	}
	c := &Cluster{
		sim: net.Sim, net: net, cfg: cfg, n: n, ch: cfg.chunking(),
		est: est, noise: noise, view: est.Clone(), ctrlUp: true,
		knownDown: intMatrix(n), physDown: intMatrix(n),
		dead: make([]bool, n), knownDead: make([]bool, n),
		wstate: make([]uint8, n), wgen: make([]uint32, n), rng: make([]*rand.Rand, n),
		pre: make([]*preScatter, n), rounds: make([]int, n), readyAt: make([]netsim.Time, n),
		mix: newMixing(n, cfg.Duration/2),
	}
	for w := range c.rng {
		c.rng[w] = c.sim.Rand("crew/compute/" + strconv.Itoa(w))
	}
	if len(cfg.Buckets) > 0 {
		if err := cfg.validateOverlap(); err != nil {
			return nil, err
		}
		ov, err := newOverlapPlan(cfg.Buckets, cfg.Chunks)
		if err != nil {
			return nil, err
		}
		c.ov, c.ovw = ov, make([]ovWorker, n)
	}
	if net.Fluid != nil && cfg.Scheme != A2A && !cfg.viaEngine {
		c.mesh = newMesh(c)
		net.onRate = c.mesh.capacity
	}
	return c, nil
}

func intMatrix(n int) [][]int {
	m := make([][]int, n)
	for i := range m {
		m[i] = make([]int, n)
	}
	return m
}

// Metrics are a run's results.
type Metrics struct {
	// RoundsPerWorker is the mean number of partial reduces a worker
	// completed (received the full result of) within the run.
	RoundsPerWorker float64
	// Rounds per worker.
	Rounds []int
	// PRs counts partial reduces completed; PRTime is their mean time from
	// the formation of P to the last member holding the result.
	PRs    int
	PRTime netsim.Time
	// LPObjective is the mean objective (seconds) of the weights the
	// partial reduces were planned with (CREW and OPR; NaN otherwise);
	// SplitT the mean T_scatter + T_multicast (Eq. 1a + 1b) of the chunk
	// splits used.
	LPObjective float64
	SplitT      float64
	// Abandoned counts partial reduces given up (no replacement
	// aggregator, a lost initiator, the controller unreachable, the time
	// budget); Discarded counts chunks that reached an aggregator that was
	// not theirs in the final plan; Failovers counts replacement
	// aggregators chosen by Eq. 3; Standalone counts local iterations done
	// while the controller was unreachable.
	Abandoned  int
	Discarded  int64
	Failovers  int
	Standalone int
	QueueWait  netsim.Time
	// GroupPairsFrac is the fraction of the n(n-1)/2 worker pairs that
	// were members of one P together among the partial reduces formed in
	// the second half of the run: 1 when every pair met, (p-1)/(n-1) when
	// the same n/p disjoint sets keep forming (3/7 at n = 8, p = 4), NaN
	// when none formed. DistinctGroups counts the distinct sets P formed
	// in that half (mixing.go).
	GroupPairsFrac float64
	DistinctGroups int
	Events         uint64
}

// Run simulates cfg.Duration of training and returns the metrics.
func (c *Cluster) Run() Metrics {
	for w := 0; w < c.n; w++ {
		if c.ov != nil {
			c.ovStart(w)
			continue
		}
		c.startCompute(w)
	}
	c.scheduleFaults()
	c.startVariation()
	if c.cfg.Probe > 0 && c.cfg.Vary.Model != BWStatic {
		c.sim.AfterFunc(c.cfg.Probe, c.probe)
	}
	c.sim.Run(c.cfg.Duration)
	return c.metrics()
}

func (c *Cluster) metrics() Metrics {
	m := Metrics{Rounds: append([]int(nil), c.rounds...), PRs: c.prs, Abandoned: c.abandoned,
		Discarded: c.discarded, Failovers: c.failovers, Standalone: c.standalone, Events: c.sim.Events()}
	sum := 0
	for _, r := range c.rounds {
		sum += r
	}
	m.RoundsPerWorker = float64(sum) / float64(c.n)
	if c.prs > 0 {
		m.PRTime = c.prTime / netsim.Time(c.prs)
	}
	if c.waitCount > 0 {
		m.QueueWait = c.waitSum / netsim.Time(c.waitCount)
	}
	m.GroupPairsFrac, m.DistinctGroups = c.mix.pairsFrac(), len(c.mix.groups)
	m.LPObjective, m.SplitT = math.NaN(), math.NaN()
	if c.lpCount > 0 {
		m.LPObjective = c.lpSum / float64(c.lpCount)
		m.SplitT = c.splitSum / float64(c.lpCount)
	}
	return m
}

// startCompute runs one local iteration of worker w.
func (c *Cluster) startCompute(w int) {
	if c.dead[w] || c.cfg.Compute == nil { // no compute: a single partial reduce
		return
	}
	c.wstate[w] = wComputing
	x := c.cfg.Compute.Sample(c.rng[w]) * c.cfg.ComputeScale
	if c.cfg.ComputeMult != nil {
		x *= c.cfg.ComputeMult[w]
	}
	at, ok := netsim.Later(c.sim.Now(), max(x, 0))
	if !ok {
		return // a draw from a long tail ends after the clock's end: never within the run
	}
	gen := c.wgen[w]
	c.sim.At(at, func() {
		if c.wgen[w] == gen {
			c.computeDone(w)
		}
	})
}

// computeDone: worker w has a new local model. It reports ready to the
// controller (and starts non-blocking scatter), or, when it cannot reach
// the controller, trains on alone (Sec. IV-B's standalone mode).
func (c *Cluster) computeDone(w int) {
	c.rec().Computed(w)
	if !c.ctrlUp {
		c.standalone++
		c.startCompute(w)
		return
	}
	c.wstate[w] = wReady
	c.readyAt[w] = c.sim.Now()
	if c.cfg.Scheme == CREW && c.cfg.Scatter == NonBlocking && !c.planKnownOnReady() {
		c.pre[w] = c.startPreScatter(w)
	}
	gen := c.wgen[w]
	c.after(c.cfg.Control, func() {
		if c.wgen[w] == gen {
			c.enqueue(w)
		}
	})
}

// planKnownOnReady reports whether a worker that becomes ready now would
// complete P and get the plan at once (no controller latency, one
// worker short), so non-blocking scatter has nothing to start.
func (c *Cluster) planKnownOnReady() bool {
	if c.cfg.Control > 0 {
		return false
	}
	k := 0
	if c.forming != nil {
		k = len(c.forming.members)
	}
	return k+1 >= c.cfg.P
}

// after runs f after d, or now if d is 0.
func (c *Cluster) after(d netsim.Time, f func()) {
	if d <= 0 {
		f()
		return
	}
	c.sim.AfterFunc(d, f)
}

// formingGroup returns the group being formed, creating it.
func (c *Cluster) formingGroup() *forming {
	if c.forming == nil {
		c.forming = &forming{pid: c.nextPid}
		c.nextPid++
	}
	return c.forming
}

// enqueue is the controller receiving worker w's readiness report.
func (c *Cluster) enqueue(w int) {
	if c.dead[w] || c.wstate[w] != wReady {
		return
	}
	if !c.ctrlUp {
		c.dropPre(w)
		c.standalone++
		c.startCompute(w)
		return
	}
	f := c.formingGroup()
	f.members = append(f.members, w)
	if len(f.members) >= c.cfg.P {
		c.forming = nil
		c.form(f)
	}
}

// crewTaskOf is the task of CREW's and OPR's partial reduce of group f,
// taking over the chunks its members scattered before P was known.
func crewTaskOf(c *Cluster, f *forming) task {
	pre := make([]*preScatter, len(f.members))
	for i, w := range f.members {
		pre[i], c.pre[w] = c.pre[w], nil
	}
	return newCrewTask(c, f.pid, f.members, pre)
}

// form starts the partial reduce of group f.
func (c *Cluster) form(f *forming) {
	for _, w := range f.members {
		c.wstate[w] = wSyncing
		c.waitSum += c.sim.Now() - c.readyAt[w]
		c.waitCount++
	}
	c.rec().Formed(f.pid, f.members)
	c.mix.add(c.sim.Now(), f.members)
	if c.cfg.OnFormed != nil {
		x := Formation{Pid: f.pid, At: c.sim.Now(), Members: slices.Clone(f.members)}
		for _, w := range f.members {
			x.Ready = append(x.Ready, c.readyAt[w])
			x.Rounds = append(x.Rounds, c.rounds[w])
		}
		c.cfg.OnFormed(x)
	}
	t := schemes[c.cfg.Scheme].task(c, f)
	c.tasks = append(c.tasks, t)
	if c.cfg.Budget > 0 {
		c.sim.AfterFunc(c.cfg.Budget, func() { c.expire(t) })
	}
	t.start()
}

// expire abandons t if it is still under way (the time budget).
func (c *Cluster) expire(t task) {
	for _, u := range c.tasks {
		if u == t {
			t.abandon()
			return
		}
	}
}

// memberDone: worker w holds the result of partial reduce t.
func (c *Cluster) memberDone(w int) {
	if c.dead[w] {
		return
	}
	c.rec().Holds(w)
	c.rounds[w]++
	if c.ov != nil {
		c.ovSyncOver(w) // the forward pass goes on by itself
		return
	}
	c.startCompute(w)
}

// memberReleased: worker w leaves an abandoned partial reduce without its
// result and trains on.
func (c *Cluster) memberReleased(w int) {
	if c.dead[w] || c.wstate[w] != wSyncing {
		return
	}
	c.rec().Released(w)
	if c.ov != nil {
		c.ovSyncOver(w)
		return
	}
	c.startCompute(w)
}

// taskEnded removes t from the tasks under way and books it.
func (c *Cluster) taskEnded(t task, ok bool, formed netsim.Time) {
	for i, u := range c.tasks {
		if u == t {
			c.tasks = append(c.tasks[:i], c.tasks[i+1:]...)
			break
		}
	}
	took := c.sim.Now() - formed
	if ok {
		c.prs++
		c.prTime += took
	} else {
		c.abandoned++
	}
	if c.onTaskEnd != nil {
		c.onTaskEnd(t.pid(), ok, took)
	}
}

// fail records the first broken invariant.
func (c *Cluster) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf(format, args...)
	}
}

// Check reports the first broken invariant of the run's books: a chunk
// delivered twice to its aggregator, a completed partial reduce whose
// aggregators did not get every chunk from every initiator, a result
// delivered twice. It also checks the engine's books.
func (c *Cluster) Check() error {
	if c.err != nil {
		return c.err
	}
	if c.mesh != nil {
		if err := c.mesh.check(); err != nil {
			return err
		}
	}
	return c.net.Check()
}

// usable reports whether the controller believes worker w is alive.
func (c *Cluster) usable(w int) bool { return !c.knownDead[w] }

// viewUp reports whether the controller believes the connection i-j
// works.
func (c *Cluster) viewUp(i, j int) bool {
	return i == j || (c.knownDown[i][j] == 0 && !c.knownDead[i] && !c.knownDead[j])
}

// refreshView recomputes the controller's planning matrix after a change
// of what it knows.
func (c *Cluster) refreshView() {
	for i := range c.view {
		for j := range c.view[i] {
			if i == j {
				continue
			}
			if c.viewUp(i, j) {
				c.view[i][j] = c.est[i][j]
			} else {
				c.view[i][j] = 0
			}
		}
	}
	c.defSplit = nil
}

// aliveWorkers lists the workers the controller believes alive.
func (c *Cluster) aliveWorkers() []int {
	out := make([]int, 0, c.n)
	for w := 0; w < c.n; w++ {
		if c.usable(w) {
			out = append(out, w)
		}
	}
	return out
}

// weights plans the blocks of P over the aggregator pool.
func (c *Cluster) weights(P, pool []int) (Weights, error) {
	bits := float64(c.cfg.Model) * 8
	if c.cfg.Split == Even {
		return EvenWeights(c.view, P, pool, bits)
	}
	return SolveLP(c.view, P, pool, bits, c.cfg.Objective)
}

// defaultSplit is CREW's default plan for non-blocking scatter: the
// weights for P = N (every worker the controller believes alive) split by
// Alg. 1, indexed by worker (Sec. IV-A2). It is recomputed when the
// controller's view changes.
func (c *Cluster) defaultSplit() Split {
	if c.defSplit != nil {
		return c.defSplit
	}
	all := make([]int, c.n)
	for i := range all {
		all[i] = i
	}
	alive := c.aliveWorkers()
	w, err := c.weights(alive, all)
	if err != nil {
		w, err = EvenWeights(c.view, alive, all, float64(c.cfg.Model)*8)
	}
	x := make([]float64, c.n)
	if err == nil {
		copy(x, w.X)
	} else {
		for _, a := range alive {
			x[a] = 1 / float64(len(alive))
		}
	}
	c.defSplit = SplitFromScratch(x, c.cfg.Chunks)
	return c.defSplit
}

// dropPre cancels worker w's non-blocking scatter, if any; the chunks it
// got to aggregators are discarded.
func (c *Cluster) dropPre(w int) {
	if p := c.pre[w]; p != nil {
		p.cancel(c)
		c.pre[w] = nil
	}
}
