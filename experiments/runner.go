package experiments

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// Outcome is one finished (point, trial) of a grid.
type Outcome struct {
	Point  int // index of the parameter point in grid order (0-based)
	Trial  int
	Params Params
	Seed   uint64
	Result *Result
	// Wall is the wall-clock time the run took. It is reported only with
	// --timing and never influences a result.
	Wall time.Duration
}

// Runner runs every (point, trial) of a grid on up to Parallel worker
// goroutines and hands the outcomes to a callback in grid order
// (point-major, trial-minor), whatever the order in which they finish.
// Output written from the callback is therefore identical for any
// Parallel, and an interrupted grid leaves a complete prefix.
type Runner struct {
	Exp      *Experiment
	Points   []Params // parameter points in grid order
	Trials   int      // trials per point, >= 1
	BaseSeed uint64   // trial t runs with seed BaseSeed + t
	Parallel int      // worker goroutines, >= 1
	Check    bool     // passed to every Run
	Series   bool     // passed to every Run
	// Label names the parameters shown when an error names a point (the
	// varied ones); empty shows every parameter.
	Label []string
	// Skip, when set, reports (point, trial) jobs to leave out, for
	// example rows already present in a CSV being resumed.
	Skip func(point, trial int, ps Params, seed uint64) bool
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
	return fmt.Sprintf("%s point %d (%s) trial %d seed %d %s: %v", e.Exp, e.Point, e.Where, e.Trial, e.Seed, what, e.Err)
}

// Unwrap returns the run's own error.
func (e *RunError) Unwrap() error { return e.Err }

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

// Total returns the number of jobs Run will issue (after Skip).
func (r *Runner) Total() int { return len(r.jobs()) }

func (r *Runner) jobs() []job {
	var js []job
	for p := range r.Points {
		for t := 0; t < r.Trials; t++ {
			if r.Skip != nil && r.Skip(p, t, r.Points[p], r.seed(t)) {
				continue
			}
			js = append(js, job{seq: len(js), point: p, trial: t})
		}
	}
	return js
}

func (r *Runner) seed(trial int) uint64 { return r.BaseSeed + uint64(trial) }

// Run executes the grid. emit is called from the calling goroutine, once
// per finished job, strictly in grid order. When a run fails, Run stops
// issuing new jobs, lets the running ones finish, emits every outcome
// that precedes the failed job in grid order, and returns a *RunError
// for the first failure in grid order. When emit fails, or ctx is
// cancelled, Run stops the same way and returns that error.
func (r *Runner) Run(ctx context.Context, emit func(*Outcome) error) error {
	if r.Exp == nil || r.Exp.Run == nil {
		return errors.New("runner: no experiment")
	}
	if r.Trials < 1 {
		return fmt.Errorf("trials must be at least 1, got %d", r.Trials)
	}
	if r.Parallel < 1 {
		return fmt.Errorf("parallel must be at least 1, got %d", r.Parallel)
	}
	js := r.jobs()
	if len(js) == 0 {
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
		for _, j := range js {
			select {
			case credits <- struct{}{}:
			case <-stop.Done():
				return
			}
			if stop.Err() != nil {
				return
			}
			select {
			case jobCh <- j:
			case <-stop.Done():
				return
			}
		}
	}()
	workers := min(r.Parallel, len(js))
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			for j := range jobCh {
				// Every job handed over runs, even after a stop: an
				// earlier job may still be needed to complete the prefix.
				resCh <- r.runOne(j)
			}
		}()
	}
	go func() { wg.Wait(); close(resCh) }()

	// Reorder buffer: hold finished outcomes until every earlier one is out.
	pending := make(map[int]*Outcome)
	next, emitted := 0, 0
	limit := len(js) // no outcome at or after limit is emitted
	var firstErr error
	for d := range resCh {
		if d.err != nil {
			<-credits
			if d.seq < limit {
				limit, firstErr = d.seq, d.err
			}
			cancel()
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
				limit, firstErr = next, err
				cancel()
				break
			}
			<-credits
			next++
			emitted++
		}
	}
	if firstErr != nil {
		return firstErr
	}
	if err := ctx.Err(); err != nil && emitted < len(js) {
		return fmt.Errorf("interrupted after %d of %d runs: %w", emitted, len(js), err)
	}
	return nil
}

// runOne executes one job, turning a panic or an ill-formed result into
// an error that names the point.
func (r *Runner) runOne(j job) (d done) {
	ps := r.Points[j.point]
	seed := r.seed(j.trial)
	d.seq = j.seq
	fail := func(err error, stack []byte) done {
		return done{seq: j.seq, err: &RunError{
			Exp: r.Exp.Name, Point: j.point, Trial: j.trial, Seed: seed,
			Where: r.where(ps), Err: err, Stack: stack, Panics: stack != nil,
		}}
	}
	defer func() {
		if v := recover(); v != nil {
			d = fail(fmt.Errorf("%v", v), debug.Stack())
		}
	}()
	start := time.Now()
	res, err := r.Exp.Run(&Run{Exp: r.Exp, Params: ps, Seed: seed, Trial: j.trial, Check: r.Check, Series: r.Series})
	wall := time.Since(start)
	if err != nil {
		return fail(err, nil)
	}
	if err := r.checkResult(res); err != nil {
		return fail(err, nil)
	}
	d.out = &Outcome{Point: j.point, Trial: j.trial, Params: ps, Seed: seed, Result: res, Wall: wall}
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

// where formats the labelled parameters of a point as key=value pairs.
func (r *Runner) where(ps Params) string {
	keys := r.Label
	if len(keys) == 0 {
		for _, p := range r.Exp.Params {
			keys = append(keys, p.Name)
		}
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + ps.Text(k)
	}
	return strings.Join(parts, " ")
}
