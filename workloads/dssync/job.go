package dssync

import (
	"fmt"
	"math"
	"math/rand/v2"

	"syncsim/internal/timeline"
	"syncsim/netsim"
	"syncsim/workloads/training"
)

// Syncer is a synchronisation scheme seen from the training loop. Invoke
// is called when worker w's gradient of piece l in iteration t is ready
// (the backward hook of Sec. V-A1: the local optimizer has stepped and the
// non-blocking synchronisation of the piece is invoked); the syncer must
// eventually call Job.Synced(w, t, l) exactly once, when the piece's
// synchronised parameters are in place at w.
type Syncer interface {
	Invoke(j *Job, w, t, l int)
}

// JobConfig describes one data-parallel training job with layer-wise
// synchronisation.
type JobConfig struct {
	Name  string          // names the job's random stream
	Hosts []netsim.NodeID // worker w runs on Hosts[w] (hosts may repeat only across jobs)
	// Pieces are the bytes of each synchronised piece, input side first:
	// the backward pass produces them last to first, the next forward
	// pass needs them first to last.
	Pieces []netsim.Bytes
	// Forward and Backward are one iteration's compute on one worker,
	// spread evenly over the pieces unless PieceForward and PieceBackward
	// give each piece's.
	Forward, Backward netsim.Time
	// PieceForward and PieceBackward, if set, are each piece's nominal
	// compute (one per piece, summing to Forward and Backward): a layer
	// table's buckets (workloads/layers). Every iteration scales them by
	// the same factor as the whole (Spread, Trace, Mult).
	PieceForward, PieceBackward []netsim.Time
	// Spread draws each worker's compute of each iteration uniformly in
	// [1 - Spread, 1 + Spread] times the nominal (0: constant).
	Spread float64
	// Trace, if set, draws each worker's compute of each iteration (in
	// seconds, forward plus backward, split in the proportion of Forward
	// and Backward) from a distribution such as measured times
	// (training.ReadTrace), instead of Spread around the nominal.
	Trace training.Dist
	// Mult, if set, multiplies each worker's compute in every iteration
	// (heterogeneous workers and persistent stragglers,
	// training.Heterogeneity); one per worker.
	Mult []float64
	// Iterations to run; 0 runs until the simulation stops.
	Iterations int
	// Warmup iterations are left out of the statistics.
	Warmup int
	// Start delays the first iteration.
	Start netsim.Time
	// Record keeps every (worker, iteration) communication time.
	Record bool
	// OnComm, if set, hears every (worker, iteration) communication time
	// as the iteration closes, in the order Log would keep them, so a
	// caller can write them out instead of keeping them.
	OnComm func(CommRecord)
	// Recorder, if set, hears the synchronisation schedule (recorder.go).
	Recorder Recorder
	// Timeline, if set, records worker w's timeline into Timeline[w]:
	// each piece's forward and backward pass and its synchronisation,
	// from its invocation to its parameters in place.
	Timeline []*timeline.Worker
}

// Job runs the training loop of Pseudo Code 1 with the per-layer hooks of
// Sec. V-A1 on every worker: forward pass piece by piece, each piece
// waiting (pre-forward hook) until its synchronisation from the previous
// iteration has completed; backward pass from the last piece to the first,
// invoking each piece's synchronisation as soon as its gradient is ready
// (backward hook). Workers are not globally synchronised: each proceeds as
// far as its own synchronisations allow.
//
// A worker's communication time in iteration t is the paper's (Sec.
// V-A2): from the invocation of its first synchronisation of t to the
// completion of its last.
type Job struct {
	sim  *netsim.Sim
	cfg  JobConfig
	sync Syncer
	rng  *rand.Rand
	w    []worker
	done func()
	left int // workers that have not finished

	// Comm[w] sums worker w's communication times over measured
	// iterations; Measured[w] counts them.
	comm     []netsim.Time
	measured []int
	// Log is every (worker, iteration) communication time when
	// JobConfig.Record is set.
	Log []CommRecord
}

// CommRecord is one worker's communication in one iteration.
type CommRecord struct {
	Worker, Iter int
	Start, End   netsim.Time // first invocation, last completion
}

// worker is one worker's progress.
type worker struct {
	t       int         // current iteration
	fwd     bool        // in the forward pass (else backward)
	l       int         // piece being (or about to be) computed
	waiting bool        // forward blocked on piece l's synchronisation
	synced  []int       // synced[l]: last iteration whose piece l is in place
	f, b    netsim.Time // per-piece forward and backward time this iteration (equal pieces)
	fac     float64     // this iteration's compute factor (pieces with their own compute)
	first   netsim.Time // this iteration's first invocation
	open    int         // this iteration's synchronisations not yet completed
	last    netsim.Time // latest completion of this iteration
	warmEnd netsim.Time // when the warm-up ended (its last synchronisation)
	end     netsim.Time // when the latest iteration's synchronisations completed
	// rec records the worker's timeline (nil: none); invoked[l] is when
	// piece l's latest synchronisation was invoked.
	rec     *timeline.Worker
	invoked []netsim.Time
}

const (
	evForward int32 = iota
	evBackward
	evStart
)

// NewJob checks the configuration and prepares the workers; Start runs
// them.
func NewJob(sim *netsim.Sim, cfg JobConfig, s Syncer) (*Job, error) {
	if len(cfg.Hosts) == 0 {
		return nil, fmt.Errorf("job %s: no workers", cfg.Name)
	}
	if len(cfg.Pieces) == 0 {
		return nil, fmt.Errorf("job %s: no pieces to synchronise", cfg.Name)
	}
	for i, p := range cfg.Pieces {
		if p < 0 {
			return nil, fmt.Errorf("job %s: piece %d has %d bytes", cfg.Name, i, p)
		}
	}
	if cfg.PieceForward != nil || cfg.PieceBackward != nil {
		if len(cfg.PieceForward) != len(cfg.Pieces) || len(cfg.PieceBackward) != len(cfg.Pieces) {
			return nil, fmt.Errorf("job %s: %d and %d piece compute times for %d pieces", cfg.Name, len(cfg.PieceForward), len(cfg.PieceBackward), len(cfg.Pieces))
		}
		var f, b netsim.Time
		for i := range cfg.Pieces {
			if cfg.PieceForward[i] < 0 || cfg.PieceBackward[i] < 0 {
				return nil, fmt.Errorf("job %s: piece %d has a negative compute time", cfg.Name, i)
			}
			f += cfg.PieceForward[i]
			b += cfg.PieceBackward[i]
		}
		if f != cfg.Forward || b != cfg.Backward {
			return nil, fmt.Errorf("job %s: the pieces compute %v + %v, the job %v + %v", cfg.Name, f, b, cfg.Forward, cfg.Backward)
		}
	}
	if cfg.Forward < 0 || cfg.Backward < 0 || cfg.Start < 0 {
		return nil, fmt.Errorf("job %s: negative compute time or start", cfg.Name)
	}
	if !(cfg.Spread >= 0 && cfg.Spread < 1) {
		return nil, fmt.Errorf("job %s: compute spread %g, want 0 <= spread < 1", cfg.Name, cfg.Spread)
	}
	if cfg.Iterations < 0 || cfg.Warmup < 0 || (cfg.Iterations > 0 && cfg.Warmup >= cfg.Iterations) {
		return nil, fmt.Errorf("job %s: %d warm-up iterations of %d", cfg.Name, cfg.Warmup, cfg.Iterations)
	}
	if s == nil {
		return nil, fmt.Errorf("job %s: no synchronisation scheme", cfg.Name)
	}
	if cfg.Mult != nil && len(cfg.Mult) != len(cfg.Hosts) {
		return nil, fmt.Errorf("job %s: %d compute multipliers for %d workers", cfg.Name, len(cfg.Mult), len(cfg.Hosts))
	}
	for w, m := range cfg.Mult {
		if !(m > 0) || math.IsInf(m, 0) {
			return nil, fmt.Errorf("job %s: worker %d's compute multiplier %g must be positive", cfg.Name, w, m)
		}
	}
	n := len(cfg.Hosts)
	j := &Job{sim: sim, cfg: cfg, sync: s, rng: sim.Rand("dssync/job/" + cfg.Name),
		w: make([]worker, n), left: n, comm: make([]netsim.Time, n), measured: make([]int, n)}
	for i := range j.w {
		j.w[i].open = len(cfg.Pieces)
		j.w[i].warmEnd = cfg.Start
		j.w[i].synced = make([]int, len(cfg.Pieces))
		if i < len(cfg.Timeline) && cfg.Timeline[i] != nil {
			j.w[i].rec = cfg.Timeline[i]
			j.w[i].invoked = make([]netsim.Time, len(cfg.Pieces))
		}
		for l := range j.w[i].synced {
			j.w[i].synced[l] = -1
		}
	}
	return j, nil
}

// Start schedules every worker's first iteration; done, if not nil, is
// called when every worker has finished cfg.Iterations iterations
// (synchronisations included).
func (j *Job) Start(done func()) {
	j.done = done
	for w := range j.w {
		j.sim.After(j.cfg.Start, j, evStart, nil, int64(w))
	}
}

// Sim is the job's simulation.
func (j *Job) Sim() *netsim.Sim { return j.sim }

// Workers is the number of workers.
func (j *Job) Workers() int { return len(j.w) }

// Host is worker w's host.
func (j *Job) Host(w int) netsim.NodeID { return j.cfg.Hosts[w] }

// Pieces lists the bytes of the synchronised pieces.
func (j *Job) Pieces() []netsim.Bytes { return j.cfg.Pieces }

// Iter is the iteration worker w is in.
func (j *Job) Iter(w int) int { return j.w[w].t }

// HandleEvent advances a worker's computation (netsim.Handler).
func (j *Job) HandleEvent(ev netsim.Event) {
	w := int(ev.Arg)
	switch ev.Kind {
	case evStart:
		j.beginIteration(w)
	case evForward:
		j.w[w].l++
		j.forward(w)
	case evBackward:
		x := &j.w[w]
		l := x.l
		if l == len(j.cfg.Pieces)-1 {
			x.first = j.sim.Now()
			j.rec().Computed(w, x.t)
		}
		x.l--
		if x.rec != nil {
			x.invoked[l] = j.sim.Now()
		}
		j.sync.Invoke(j, w, x.t, l)
		j.backward(w)
	}
}

// beginIteration draws the iteration's compute and starts its forward
// pass, which waits piece by piece for the previous iteration's
// synchronisations.
func (j *Job) beginIteration(w int) {
	x := &j.w[w]
	f := 1.0
	switch nominal := j.cfg.Forward + j.cfg.Backward; {
	case j.cfg.Trace != nil && nominal > 0:
		f = j.cfg.Trace.Sample(j.rng) / nominal.Seconds()
	case j.cfg.Spread > 0:
		f = 1 + j.cfg.Spread*(2*j.rng.Float64()-1)
	}
	if j.cfg.Mult != nil {
		f *= j.cfg.Mult[w]
	}
	L := netsim.Time(len(j.cfg.Pieces))
	x.f = netsim.Time(math.Round(f*float64(j.cfg.Forward))) / L
	x.b = netsim.Time(math.Round(f*float64(j.cfg.Backward))) / L
	x.fac = f
	x.fwd, x.l = true, 0
	j.forward(w)
}

// forward computes pieces from x.l on, waiting where a piece's previous
// synchronisation is not in place.
func (j *Job) forward(w int) {
	x := &j.w[w]
	if x.l == len(j.cfg.Pieces) {
		x.fwd = false
		x.l = len(j.cfg.Pieces) - 1
		j.compute(w, timeline.Backward, j.backwardTime(x), evBackward)
		return
	}
	if x.synced[x.l] < x.t-1 {
		x.waiting = true
		return
	}
	x.waiting = false
	j.compute(w, timeline.Forward, j.forwardTime(x), evForward)
}

// compute runs worker w's pass of kind over its current piece, d long,
// ending with event ev.
func (j *Job) compute(w int, kind timeline.Kind, d netsim.Time, ev int32) {
	x := &j.w[w]
	if x.rec != nil {
		now := j.sim.Now()
		x.rec.Add(kind, x.t, x.l, int64(now), int64(now+d))
	}
	j.sim.After(d, j, ev, nil, int64(w))
}

// forwardTime is the forward computation of worker x's current piece.
func (j *Job) forwardTime(x *worker) netsim.Time {
	if j.cfg.PieceForward == nil {
		return x.f
	}
	return netsim.Time(math.Round(x.fac * float64(j.cfg.PieceForward[x.l])))
}

// backwardTime is the backward computation of worker x's current piece.
func (j *Job) backwardTime(x *worker) netsim.Time {
	if j.cfg.PieceBackward == nil {
		return x.b
	}
	return netsim.Time(math.Round(x.fac * float64(j.cfg.PieceBackward[x.l])))
}

// backward schedules the next piece's backward computation, or ends the
// iteration's computation and starts the next iteration.
func (j *Job) backward(w int) {
	x := &j.w[w]
	if x.l >= 0 {
		j.compute(w, timeline.Backward, j.backwardTime(x), evBackward)
		return
	}
	x.t++
	if j.cfg.Iterations > 0 && x.t == j.cfg.Iterations {
		return // closeIteration ends the job when the last synchronisation completes
	}
	j.beginIteration(w)
}

// Synced records that piece l of iteration t is in place at worker w.
// Syncers call it exactly once per Invoke.
func (j *Job) Synced(w, t, l int) {
	x := &j.w[w]
	if x.synced[l] != t-1 {
		panic(fmt.Sprintf("dssync: worker %d piece %d synchronised for iteration %d after %d", w, l, t, x.synced[l]))
	}
	x.synced[l] = t
	now := j.sim.Now()
	if x.rec != nil {
		x.rec.Add(timeline.Sync, t, l, int64(x.invoked[l]), int64(now))
	}
	x.last = max(x.last, now)
	x.open--
	if x.open == 0 {
		j.closeIteration(w, t)
	}
	if x.fwd && x.waiting && x.l == l && x.t == t+1 {
		j.forward(w)
	}
}

// closeIteration books worker w's communication in iteration t.
func (j *Job) closeIteration(w, t int) {
	x := &j.w[w]
	x.end = x.last
	j.rec().IterationDone(w, t)
	if t >= j.cfg.Warmup {
		j.comm[w] += x.last - x.first
		j.measured[w]++
	}
	if t == j.cfg.Warmup-1 {
		x.warmEnd = x.last
	}
	if j.cfg.Record || j.cfg.OnComm != nil {
		rec := CommRecord{Worker: w, Iter: t, Start: x.first, End: x.last}
		if j.cfg.Record {
			j.Log = append(j.Log, rec)
		}
		if j.cfg.OnComm != nil {
			j.cfg.OnComm(rec)
		}
	}
	x.open = len(j.cfg.Pieces)
	x.last = 0
	if j.cfg.Iterations > 0 && t == j.cfg.Iterations-1 {
		j.left--
		if j.left == 0 && j.done != nil {
			j.done()
		}
	}
}

// WorkerStats is one worker's measured means.
type WorkerStats struct {
	Iterations int         // measured iterations
	Comm       netsim.Time // mean communication time per iteration
	Iter       netsim.Time // mean time per iteration (from the end of the warm-up to the last completion)
}

// Stats returns worker w's means over the measured iterations completed
// so far.
func (j *Job) Stats(w int) WorkerStats {
	x := &j.w[w]
	n := j.measured[w]
	if n == 0 {
		return WorkerStats{}
	}
	return WorkerStats{Iterations: n, Comm: j.comm[w] / netsim.Time(n), Iter: (x.end - x.warmEnd) / netsim.Time(n)}
}

// Done reports whether every worker has finished its iterations.
func (j *Job) Done() bool { return j.left == 0 }
