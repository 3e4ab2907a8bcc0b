package experiments

import (
	"context"
	"errors"
	"math"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"syncsim/netsim"
)

// spinExperiment runs a simulation that schedules an event every
// microsecond for a simulated second, through the harness's monitor;
// "progress" counts events until stall_us of simulated time, then stops
// growing, so the run stalls there. started, when set, is called as the
// simulation begins.
func spinExperiment(started func()) *Experiment {
	return &Experiment{
		Name: "spin", Summary: "s",
		Params: []Param{
			FloatParam("stall_us", 1e9, 0, 1e9, "progress stops at this simulated time, us"),
			FloatParam("quiet_us", 0, 0, 1e9, "Watch.Quiet, us"),
		},
		Metrics: []Metric{{Name: "end_us", Unit: "us", Help: "h"}},
		Run: func(r *Run) (*Result, error) {
			sim := netsim.New(r.Seed)
			sim.SetMonitor(TickEvents, func(now netsim.Time, ev uint64) bool { return r.Tick(now.Seconds(), ev) })
			stallAt := netsim.FromMicros(r.Params.Float("stall_us"))
			var progress float64
			var tick func()
			tick = func() {
				if sim.Now() < stallAt {
					progress++
				}
				sim.AfterFunc(netsim.Microsecond, tick)
			}
			sim.At(0, tick)
			r.Watch(Watch{What: "spins", Count: func() float64 { return progress }, Until: 1, Quiet: r.Params.Float("quiet_us") / 1e6})
			if started != nil {
				started()
			}
			sim.Run(netsim.Second)
			res := r.Exp.NewResult()
			res.Metrics["end_us"] = sim.Now().Microseconds()
			res.Events = sim.Events()
			return res, nil
		},
	}
}

// TestTickWithoutRunnerContinues: a run outside a Runner (a test calling
// Experiment.Run) is never halted.
func TestTickWithoutRunnerContinues(t *testing.T) {
	e := spinExperiment(nil)
	res, err := e.Run(&Run{Exp: e, Params: e.Defaults(), Seed: 1})
	if err != nil || res.Metrics["end_us"] != 1e6 {
		t.Fatalf("end %v err %v", res.Metrics["end_us"], err)
	}
}

// TestCancelHaltsRunInProgress: cancelling the context halts a run in
// progress within TickEvents events, emits nothing of it and returns
// *Interrupted; the old runner let the run finish its simulated second.
func TestCancelHaltsRunInProgress(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	e := spinExperiment(func() { cancel(errors.New("interrupted by test")) })
	r := &Runner{Exp: e, Points: PointList{e.Defaults()}, Trials: 3, Parallel: 1}
	start := time.Now()
	emitted := 0
	err := r.Run(ctx, func(*Outcome) error { emitted++; return nil })
	var in *Interrupted
	if !errors.As(err, &in) || in.Done != 0 || in.Total != 3 || !strings.Contains(err.Error(), "interrupted after 0 of 3 runs: interrupted by test") {
		t.Fatalf("err = %v, want interrupted after 0 of 3", err)
	}
	if emitted != 0 {
		t.Errorf("%d outcomes emitted from halted runs", emitted)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("halting took %v", d)
	}
}

// TestStallEndsRun: a run whose progress stops for longer than the limit
// while events go on ends with a StallError naming what stalled and
// when; Quiet extends the limit, Stall 0 turns the check off, and the
// detection point is deterministic.
func TestStallEndsRun(t *testing.T) {
	run := func(stall float64, sets ...string) error {
		e := spinExperiment(nil)
		ps, err := e.Resolve(sets)
		if err != nil {
			t.Fatal(err)
		}
		r := &Runner{Exp: e, Points: PointList{ps}, Trials: 1, Parallel: 1, Stall: stall, StallEvents: 1000}
		return r.Run(context.Background(), func(*Outcome) error { return nil })
	}
	err := run(0.1, "stall_us=200000")
	var se *StallError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want a StallError", err)
	}
	if se.What != "spins" || math.Abs(se.Since-0.2) > 0.1/16+1e-6 || se.At < se.Since+0.1 || se.At > se.Since+0.1+0.1/16+1e-6 {
		t.Errorf("stall %+v: want progress last seen near 0.2 s and detection 0.1 s later", se)
	}
	for _, w := range []string{"spin point 0", "stalled: no progress in spins", "--stall-ms"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	if again := run(0.1, "stall_us=200000"); again.Error() != err.Error() {
		t.Errorf("stall detection is not deterministic:\n%v\n%v", err, again)
	}
	if err := run(0.1, "stall_us=200000", "quiet_us=900000"); err != nil {
		t.Errorf("Quiet beyond the rest of the run: %v", err)
	}
	if err := run(0, "stall_us=200000"); err != nil {
		t.Errorf("stall check off: %v", err)
	}
	if err := run(0.1); err != nil {
		t.Errorf("a run that progresses stalled: %v", err)
	}
}

// gatedSpin is a run that schedules an event every simulated microsecond
// up to horizon seconds, through the harness's monitor; at simulated
// time gate it tells the test (reached) and waits until the test lets
// it go on (release). It reports the simulated time it ended at on
// ended, so a test can tell a run halted from a run that finished.
type gatedSpin struct {
	gate, horizon float64
	reached       chan float64
	release       chan struct{}
	ended         chan float64
}

func (g *gatedSpin) run(r *Run) (*Result, error) {
	sim := netsim.New(r.Seed)
	sim.SetMonitor(TickEvents, func(now netsim.Time, ev uint64) bool { return r.Tick(now.Seconds(), ev) })
	var progress float64
	var tick func()
	tick = func() {
		progress++
		sim.AfterFunc(netsim.Microsecond, tick)
	}
	sim.At(0, tick)
	if g.reached != nil {
		sim.At(netsim.FromSeconds(g.gate), func() {
			g.reached <- sim.Now().Seconds()
			<-g.release
		})
	}
	r.Watch(Watch{What: "spins", Count: func() float64 { return progress }, Until: g.horizon})
	sim.Run(netsim.FromSeconds(g.horizon))
	if g.ended != nil {
		g.ended <- sim.Now().Seconds()
	}
	res := r.Exp.NewResult()
	res.Metrics["end_us"] = sim.Now().Microseconds()
	return res, nil
}

// TestFailureAbandonsLaterRuns: a failure halts the runs after it in
// grid order (their outcomes could never be emitted) instead of waiting
// for them. Trial 1 spins for 100 simulated seconds (10^8 events, many
// seconds of CPU) unless it is halted; trial 0 fails once trial 1 is
// under way. The test asserts on the halt: trial 1 ended long before its
// horizon, and Run returned trial 0's failure. Without the abandon
// (Runner.abandonAfter) trial 1 runs to its horizon and the test fails.
func TestFailureAbandonsLaterRuns(t *testing.T) {
	spin := &gatedSpin{gate: 0.001, horizon: 100, reached: make(chan float64), release: make(chan struct{}), ended: make(chan float64, 1)}
	e := spinExperiment(nil)
	e.Run = func(r *Run) (*Result, error) {
		if r.Trial == 0 {
			<-spin.reached // trial 1 is running: it has reached 1 ms
			close(spin.release)
			return nil, errors.New("first run fails")
		}
		return spin.run(r)
	}
	r := &Runner{Exp: e, Points: PointList{e.Defaults()}, Trials: 2, Parallel: 2}
	emitted := 0
	err := r.Run(context.Background(), func(*Outcome) error { emitted++; return nil })
	var re *RunError
	if !errors.As(err, &re) || re.Trial != 0 || !strings.Contains(err.Error(), "first run fails") {
		t.Fatalf("err = %v, want trial 0's failure", err)
	}
	if end := <-spin.ended; end >= spin.horizon {
		t.Errorf("trial 1 ran to its horizon (%g s simulated): the failure did not abandon it", end)
	}
	if emitted != 0 {
		t.Errorf("%d outcomes emitted after a failure in trial 0", emitted)
	}
	if len(r.Live()) != 0 {
		t.Error("an abandoned run is still reported live")
	}
}

// TestLiveReportsRunsInProgress: Live shows the point, trial, seed,
// simulated time, events and fraction done of a run while it runs. The
// run stops at 0.3 simulated seconds until the test has looked, and the
// snapshot is refreshed every 16 ticks (LivePeriod of a nanosecond), so
// it must show between 0.3 s less 16 ticks (4096 events, 4.096 ms) and
// 0.3 s, whatever the machine's speed; the finished run is gone from it.
func TestLiveReportsRunsInProgress(t *testing.T) {
	spin := &gatedSpin{gate: 0.3, horizon: 1, reached: make(chan float64), release: make(chan struct{})}
	e := spinExperiment(nil)
	e.Run = spin.run
	r := &Runner{Exp: e, Points: PointList{e.Defaults()}, Trials: 1, BaseSeed: 7, Parallel: 1, LivePeriod: time.Nanosecond}
	done := make(chan error)
	go func() { done <- r.Run(context.Background(), func(*Outcome) error { return nil }) }()
	at := <-spin.reached
	live := r.Live()
	close(spin.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(live) != 1 {
		t.Fatalf("live = %+v, want the one run in progress", live)
	}
	l := live[0]
	window := float64(16*TickEvents) * 1e-6
	if l.Point != 0 || l.Trial != 0 || l.Seed != 7 || l.What != "spins" || l.Until != 1 {
		t.Errorf("live %+v: want point 0, trial 0, seed 7, what spins, until 1 s", l)
	}
	if l.SimSeconds > at || l.SimSeconds < at-window-1e-9 {
		t.Errorf("live shows %g s simulated; the run was held at %g s, refreshed every %g s", l.SimSeconds, at, window)
	}
	if l.Events < uint64(1e6*(at-window)) || l.Events > uint64(1e6*at)+1 {
		t.Errorf("live shows %d events at %g s (one event per simulated microsecond)", l.Events, l.SimSeconds)
	}
	if math.Abs(l.Fraction-l.SimSeconds/1) > 1e-12 {
		t.Errorf("fraction %g, want simulated time / until = %g", l.Fraction, l.SimSeconds)
	}
	if len(r.Live()) != 0 {
		t.Error("finished run still reported live")
	}
}

// TestRunnerJobsAreLazy: a million trials cost no memory before they
// run (the old runner built every job up front).
func TestRunnerJobsAreLazy(t *testing.T) {
	e := toyExperiment()
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int32
	e.Run = func(r *Run) (*Result, error) {
		if n.Add(1) == 3 {
			cancel()
		}
		return r.Exp.NewResult(), nil
	}
	r := &Runner{Exp: e, Points: PointList{e.Defaults(), e.Defaults()}, Trials: MaxTrials, Parallel: 1}
	if r.Total() != 2*MaxTrials {
		t.Fatalf("Total = %d", r.Total())
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := r.Run(ctx, func(*Outcome) error { return nil })
	runtime.ReadMemStats(&after)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("allocated %d bytes for a grid of 2 million jobs", grew)
	}
}

func TestRunnerBounds(t *testing.T) {
	e := toyExperiment()
	pts := PointList{e.Defaults()}
	for _, tc := range []struct {
		r    *Runner
		want string
	}{
		{&Runner{Exp: e, Points: pts, Trials: MaxTrials + 1, Parallel: 1}, "trials must be in [1, 1000000]"},
		{&Runner{Exp: e, Points: pts, Trials: 1, Parallel: math.MaxInt}, "parallel must be in [1, 1024]"},
		{&Runner{Exp: e, Points: pts, Trials: 3, Parallel: 1, BaseSeed: math.MaxUint64}, "passes the largest seed"},
		{&Runner{Exp: e, Points: pts, Trials: 3, Parallel: 1, BaseSeed: math.MaxUint64 - 1}, "passes the largest seed"},
		{&Runner{Exp: e, Points: pts, Trials: 1, Parallel: 1, Shard: 2, Shards: 2}, "shard 2 of 2"},
	} {
		if err := tc.r.Run(context.Background(), func(*Outcome) error { return nil }); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
	r := &Runner{Exp: e, Points: pts, Trials: 3, Parallel: 1, BaseSeed: math.MaxUint64 - 2}
	var seeds []uint64
	if err := r.Run(context.Background(), func(o *Outcome) error { seeds = append(seeds, o.Seed); return nil }); err != nil || seeds[2] != math.MaxUint64 {
		t.Errorf("seeds %v err %v, want the last seed 2^64-1", seeds, err)
	}
}

// TestShardsPartitionJobs: shards I/N together run every job once, each
// its k mod N share, and Total counts them.
func TestShardsPartitionJobs(t *testing.T) {
	e := toyExperiment()
	g, _ := Expand(e, nil, []string{"n=1,2,3,4,5"})
	for _, n := range []int{1, 2, 3, 4, 7, 11} {
		seen := map[int]int{}
		for s := 0; s < n; s++ {
			r := &Runner{Exp: e, Points: g, Trials: 2, Parallel: 2, Shard: s, Shards: n}
			rows := 0
			err := r.Run(context.Background(), func(o *Outcome) error {
				k := o.Point*2 + o.Trial
				if k%n != s {
					t.Errorf("shard %d/%d ran job %d", s, n, k)
				}
				seen[k]++
				rows++
				return nil
			})
			if err != nil || rows != r.Total() {
				t.Errorf("shard %d/%d: %d rows, Total %d, err %v", s, n, rows, r.Total(), err)
			}
		}
		for k := 0; k < 10; k++ {
			if seen[k] != 1 {
				t.Errorf("%d shards: job %d ran %d times", n, k, seen[k])
			}
		}
	}
}

// BenchmarkTick measures one Run.Tick of a watched run, which a
// simulation calls every TickEvents events: its cost per event is the
// figure over TickEvents.
func BenchmarkTick(b *testing.B) {
	ctx := context.Background()
	var progress float64
	r := &Run{mon: &monitor{done: ctx.Done(), stall: 1, stallEvents: DefaultStallEvents, lastLive: time.Now()}}
	r.Watch(Watch{What: "x", Count: func() float64 { return progress }, Goal: 1e9})
	b.ReportAllocs()
	now := 0.0
	for i := 0; i < b.N; i++ {
		now += 1e-6
		progress++
		if !r.Tick(now, uint64(i)*TickEvents) {
			b.Fatal("halted")
		}
	}
}
