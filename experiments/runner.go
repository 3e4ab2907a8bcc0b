package experiments

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"
)

// Bounds on a grid run, so that a typo cannot exhaust memory or time
// before the first run starts.
const (
	MaxTrials   = 1_000_000 // trials per point
	MaxParallel = 1024      // runs at a time
	MaxThreads  = 256       // threads of one run (the parallel engine)
)

// Outcome is one finished (point, trial) of a grid.
type Outcome struct {
	Point  int // index of the parameter point in grid order (0-based)
	Trial  int
	Params Params
	Seed   uint64
	Result *Result
	// Resolved holds what automatic parameter values (Param.Auto)
	// resolved to in this run; the CSV shows these values.
	Resolved map[string]string
	// Books are the books the run checked (with Check).
	Books []Book
	// Engine is the parallel engine's report of the run (with
	// Runner.EngineProfile), not reproducible.
	Engine string
	// Wall is the wall-clock time the run took. It is reported only with
	// --timing and never influences a result.
	Wall time.Duration
}

// Value returns the text of parameter name as the run used it: the
// resolved value of an automatic parameter (what the run reported, or
// what Param.ResolveFrom works out from the point), else the point's
// value.
func (o *Outcome) Value(name string) string {
	if v, ok := o.Resolved[name]; ok {
		return v
	}
	v := o.Params.Text(name)
	if p, ok := o.Params.exp.Param(name); ok && p.ResolveFrom != nil && p.IsAuto(v) {
		return p.ResolveFrom(o.Params)
	}
	return v
}

// Runner runs the (point, trial) jobs of a set of points on up to
// Parallel worker goroutines and hands the outcomes to a callback in grid
// order (point-major, trial-minor), whatever the order in which they
// finish. Output written from the callback is therefore identical for any
// Parallel, and an interrupted grid leaves a complete prefix. Jobs are
// generated as they are issued: memory does not grow with points x
// trials.
type Runner struct {
	Exp      *Experiment
	Points   Points // parameter points in grid order
	Trials   int    // trials per point, in [1, MaxTrials]
	BaseSeed uint64 // trial t runs with seed BaseSeed + t
	Parallel int    // worker goroutines, in [1, MaxParallel]
	Check    bool   // passed to every Run
	Series   bool   // passed to every Run
	Trace    bool   // passed to every Run
	// Threads is the threads of each run (the parallel engine), in
	// [1, MaxThreads]; above 1 only for experiments with Threads set.
	// Results do not depend on it.
	Threads int
	// EngineProfile asks every run for a report of its parallel
	// windows (Outcome.Engine).
	EngineProfile bool
	// SeriesDir, when set with Series, is the directory series opened
	// with Run.OpenSeries stream to while the run goes on (WriteSeries
	// then writes the manifest and any series built in memory).
	SeriesDir string
	// Label names the parameters shown when an error names a point (the
	// varied ones); empty shows none.
	Label []string
	// Done, when set, reports (point, trial) jobs already done, for
	// example rows present in a CSV being resumed; they are left out.
	// DoneCount is the number of this shard's jobs it reports.
	Done      func(point, trial int) bool
	DoneCount int
	// Shard and Shards select a deterministic slice of the jobs: job k
	// (k = point x Trials + trial, in grid order) belongs to shard
	// k mod Shards. Shards of 0 or 1 run every job.
	Shard, Shards int
	// Stall is the simulated time in seconds a run may go without
	// progress (see Watch) while processing at least StallEvents events
	// (DefaultStallEvents when 0) before it is ended with a StallError;
	// 0 never ends a run for stalling.
	Stall       float64
	StallEvents uint64
	// LivePeriod is how often (wall clock) a run in progress refreshes
	// what Live reports, looked at every 16 ticks; 0 means
	// DefaultLivePeriod.
	LivePeriod time.Duration
	// FCTFile, when set, names each run's Run.FCTFile ("" for none).
	FCTFile func(point, trial int) string

	mu     sync.Mutex
	active map[int]*monitor // by seq, runs in progress
}

// RunError reports a run that failed, naming its point, trial and seed.
type RunError struct {
	Exp    string
	Point  int
	Trial  int
	Seed   uint64
	Where  string // key=value of the point's (labelled) parameters
	Err    error
	Stack  []byte // set when the run panicked
	Panics bool
}

// Error implements error.
func (e *RunError) Error() string {
	what := "failed"
	if e.Panics {
		what = "panicked"
	}
	if e.Where == "" {
		return fmt.Sprintf("%s point %d trial %d seed %d %s: %v", e.Exp, e.Point, e.Trial, e.Seed, what, e.Err)
	}
	return fmt.Sprintf("%s point %d (%s) trial %d seed %d %s: %v", e.Exp, e.Point, e.Where, e.Trial, e.Seed, what, e.Err)
}

// Unwrap returns the run's own error.
func (e *RunError) Unwrap() error { return e.Err }

// Interrupted reports a grid stopped by its context (an interrupt)
// before every run was done. The runs in progress were halted and left
// no outcome; Done outcomes, a prefix in grid order, were emitted.
type Interrupted struct {
	Done, Total int
	Cause       error
}

// Error implements error.
func (e *Interrupted) Error() string {
	return fmt.Sprintf("interrupted after %d of %d runs: %v", e.Done, e.Total, e.Cause)
}

// Unwrap returns the cause of the interruption.
func (e *Interrupted) Unwrap() error { return e.Cause }

// reorderWindow bounds the jobs issued but not yet emitted (at least
// twice the worker count).
const reorderWindow = 64

// job is one (point, trial) waiting to run; seq is its position among the
// jobs actually issued.
type job struct {
	seq, point, trial int
}

// done is a finished job.
type done struct {
	seq int
	out *Outcome
	err error
}

// shards returns the shard count, at least 1.
func (r *Runner) shards() int { return max(1, r.Shards) }

// Total returns the number of jobs Run will issue: those of the shard,
// less DoneCount.
func (r *Runner) Total() int {
	n := r.Points.Len() * r.Trials
	s := r.shards()
	inShard := 0
	if r.Shard < n {
		inShard = (n - r.Shard + s - 1) / s
	}
	return inShard - r.DoneCount
}

func (r *Runner) seed(trial int) uint64 { return r.BaseSeed + uint64(trial) }

// check validates the runner's settings.
func (r *Runner) check() error {
	switch {
	case r.Exp == nil || r.Exp.Run == nil:
		return errors.New("runner: no experiment")
	case r.Points == nil:
		return errors.New("runner: no points")
	case r.Trials < 1 || r.Trials > MaxTrials:
		return fmt.Errorf("trials must be in [1, %d], got %d", MaxTrials, r.Trials)
	case r.Parallel < 1 || r.Parallel > MaxParallel:
		return fmt.Errorf("parallel must be in [1, %d], got %d", MaxParallel, r.Parallel)
	case r.Threads < 0 || r.Threads > MaxThreads:
		return fmt.Errorf("threads must be in [1, %d], got %d", MaxThreads, r.Threads)
	case r.Threads > 1 && !r.Exp.Threads && r.Exp.Engine == "":
		return r.Exp.threadsRefusal(r.Threads, Params{})
	case r.BaseSeed > math.MaxUint64-uint64(r.Trials-1):
		return fmt.Errorf("seed %d + %d trials passes the largest seed %d", r.BaseSeed, r.Trials, uint64(math.MaxUint64))
	case r.Shards < 0 || r.Shard < 0 || (r.Shards > 1 && r.Shard >= r.Shards) || (r.Shards <= 1 && r.Shard != 0):
		return fmt.Errorf("shard %d of %d: want 0 <= shard < shards", r.Shard, r.Shards)
	case r.Stall < 0 || math.IsNaN(r.Stall):
		return fmt.Errorf("stall limit must be at least 0, got %g", r.Stall)
	}
	if err := ThreadsRefusal(r.Exp, r.Threads, r.Points); err != nil {
		return err
	}
	return nil
}

// Run executes the jobs. emit is called from the calling goroutine, once
// per finished job, strictly in grid order. When a run fails, Run stops
// issuing new jobs, lets the earlier running ones finish (later ones are
// halted), emits every outcome that precedes the failed job in grid
// order, and returns a *RunError for the first failure in grid order.
// When emit fails, Run stops the same way and returns that error. When
// ctx is cancelled, the runs in progress are halted within TickEvents
// events, nothing of theirs is emitted, and Run returns *Interrupted.
func (r *Runner) Run(ctx context.Context, emit func(*Outcome) error) error {
	if err := r.check(); err != nil {
		return err
	}
	total := r.Total()
	if total <= 0 {
		return nil
	}
	stop, cancel := context.WithCancel(ctx)
	defer cancel()

	jobCh := make(chan job)
	resCh := make(chan done, r.Parallel)
	// A job holds a credit from issue until it leaves the reorder buffer,
	// so one slow early job lets at most reorderWindow later outcomes
	// pile up in memory.
	credits := make(chan struct{}, max(reorderWindow, 2*r.Parallel))
	go func() { // issue jobs in grid order until stopped
		defer close(jobCh)
		n, s, seq := r.Points.Len()*r.Trials, r.shards(), 0
		for k := r.Shard; k < n; k += s {
			p, t := k/r.Trials, k%r.Trials
			if r.Done != nil && r.Done(p, t) {
				continue
			}
			select {
			case credits <- struct{}{}:
			case <-stop.Done():
				return
			}
			if stop.Err() != nil {
				return
			}
			select {
			case jobCh <- job{seq: seq, point: p, trial: t}:
				seq++
			case <-stop.Done():
				return
			}
		}
	}()
	workers := min(r.Parallel, total)
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			for j := range jobCh {
				// Every job handed over runs, even after a stop: an
				// earlier job may still be needed to complete the prefix.
				resCh <- r.runOne(ctx, j)
			}
		}()
	}
	go func() { wg.Wait(); close(resCh) }()

	// Reorder buffer: hold finished outcomes until every earlier one is out.
	pending := make(map[int]*Outcome)
	next, emitted := 0, 0
	limit := total // no outcome at or after limit is emitted
	var firstErr error
	fail := func(seq int, err error) {
		if seq < limit {
			limit, firstErr = seq, err
		}
		cancel()
		r.abandonAfter(limit)
	}
	for d := range resCh {
		if d.err != nil {
			<-credits
			fail(d.seq, d.err)
			continue
		}
		if d.seq >= limit {
			<-credits
			continue
		}
		pending[d.seq] = d.out
		for next < limit {
			o, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			if err := emit(o); err != nil {
				fail(next, err)
				break
			}
			<-credits
			next++
			emitted++
		}
	}
	if firstErr != nil && !errors.Is(firstErr, errHalted) {
		return firstErr
	}
	if ctx.Err() != nil && emitted < total {
		return &Interrupted{Done: emitted, Total: total, Cause: context.Cause(ctx)}
	}
	return firstErr
}

// abandonAfter halts the runs in progress after seq in grid order: no
// outcome of theirs can be emitted any more.
func (r *Runner) abandonAfter(seq int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for s, m := range r.active {
		if s > seq {
			m.abandon.Store(true)
		}
	}
}

// Live returns a snapshot of the runs in progress, in grid order.
func (r *Runner) Live() []Live {
	r.mu.Lock()
	seqs := make([]int, 0, len(r.active))
	for s := range r.active {
		seqs = append(seqs, s)
	}
	sort.Ints(seqs)
	out := make([]Live, len(seqs))
	for i, s := range seqs {
		out[i] = r.active[s].snapshot()
	}
	r.mu.Unlock()
	return out
}

// runOne executes one job, turning a panic or an ill-formed result into
// an error that names the point, and a halted run into errHalted.
func (r *Runner) runOne(ctx context.Context, j job) (d done) {
	ps := r.Points.Point(j.point)
	seed := r.seed(j.trial)
	d.seq = j.seq
	fail := func(err error, stack []byte) done {
		return done{seq: j.seq, err: &RunError{
			Exp: r.Exp.Name, Point: j.point, Trial: j.trial, Seed: seed,
			Where: r.where(ps), Err: err, Stack: stack, Panics: stack != nil,
		}}
	}
	start := time.Now()
	m := &monitor{done: ctx.Done(), stall: r.Stall, stallEvents: r.StallEvents, lastLive: start, period: r.LivePeriod,
		live: Live{Point: j.point, Trial: j.trial, Seed: seed, Started: start, Fraction: math.NaN()}}
	if m.stallEvents == 0 {
		m.stallEvents = DefaultStallEvents
	}
	if m.period <= 0 {
		m.period = DefaultLivePeriod
	}
	r.mu.Lock()
	if r.active == nil {
		r.active = map[int]*monitor{}
	}
	r.active[j.seq] = m
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.active, j.seq)
		r.mu.Unlock()
	}()
	defer func() {
		if v := recover(); v != nil {
			d = fail(fmt.Errorf("%v", v), debug.Stack())
		}
	}()
	run := &Run{Exp: r.Exp, Params: ps, Seed: seed, Trial: j.trial, Check: r.Check, Series: r.Series, Trace: r.Trace, mon: m,
		point: j.point, Threads: max(r.Threads, 1), EngineProfile: r.EngineProfile, Concurrent: min(r.Parallel, r.Total())}
	if r.Series {
		run.seriesDir = r.SeriesDir
	}
	if r.FCTFile != nil {
		run.FCTFile = r.FCTFile(j.point, j.trial)
	}
	finished := false
	defer func() {
		if !finished {
			run.finishSeries(nil, false) // a panic: remove partial files
		}
	}()
	res, err := r.Exp.Run(run)
	wall := time.Since(start)
	if run.engineReport != nil {
		run.Engine = run.engineReport()
	}
	ok := err == nil && m.err == nil && res != nil
	serr := run.finishSeries(res, ok)
	finished = true
	if ok && serr != nil {
		err = serr
	}
	switch {
	case errors.Is(m.err, errHalted):
		return done{seq: j.seq, err: errHalted}
	case m.err != nil:
		return fail(m.err, nil)
	case err != nil:
		return fail(err, nil)
	}
	if err := r.checkResult(res); err != nil {
		return fail(err, nil)
	}
	d.out = &Outcome{Point: j.point, Trial: j.trial, Params: ps, Seed: seed, Result: res, Wall: wall,
		Resolved: run.resolved, Books: run.books, Engine: run.Engine}
	return d
}

// checkResult rejects results that do not match the declared metrics; a
// metric left out counts as undefined (NaN).
func (r *Runner) checkResult(res *Result) error {
	if res == nil {
		return errors.New("run returned no result")
	}
	if bad := r.undeclared(res); bad != "" {
		return fmt.Errorf("run reported undeclared metric %q", bad)
	}
	return nil
}

// undeclared returns the smallest reported metric name that the
// experiment does not declare, or "".
func (r *Runner) undeclared(res *Result) string {
	bad := ""
	for name := range res.Metrics {
		if !r.declared(name) && (bad == "" || name < bad) {
			bad = name
		}
	}
	return bad
}

func (r *Runner) declared(name string) bool {
	for _, m := range r.Exp.Metrics {
		if m.Name == name {
			return true
		}
	}
	return false
}

// where formats the labelled parameters of a point as key=value pairs
// ("" without labels: a single point needs none, and its every
// parameter would bury the message, whose own text names the parameter
// at fault).
func (r *Runner) where(ps Params) string {
	parts := make([]string, len(r.Label))
	for i, k := range r.Label {
		parts[i] = k + "=" + ps.Text(k)
	}
	return strings.Join(parts, " ")
}
