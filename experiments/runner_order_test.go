package experiments

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

var toyVary = []string{"n=1,2,3,5", "mode=fast,slow"}

func TestRunnerCSVIdenticalForAnyParallel(t *testing.T) {
	e := toyExperiment()
	want, err := sweepCSV(t, e, []string{"load=0.25"}, toyVary, 3, 1, 42)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(want, "\n"), "\n")
	if got := len(lines) - 1; got != 4*2*3 {
		t.Fatalf("rows = %d, want points*trials = 24", got)
	}
	if lines[0] != "experiment,n,load,mode,fail_n,panic_n,trial,seed,end_us,mean_gap_us,maybe" {
		t.Errorf("header = %s", lines[0])
	}
	// Point-major, trial-minor, first --vary outermost.
	for i, wantPrefix := range []string{
		"toy-runner,1,0.25,fast,0,0,0,42,",
		"toy-runner,1,0.25,fast,0,0,1,43,",
		"toy-runner,1,0.25,fast,0,0,2,44,",
		"toy-runner,1,0.25,slow,0,0,0,42,",
	} {
		if !strings.HasPrefix(lines[i+1], wantPrefix) {
			t.Errorf("row %d = %s, want prefix %s", i, lines[i+1], wantPrefix)
		}
	}
	if !strings.HasPrefix(lines[24], "toy-runner,5,0.25,slow,0,0,2,44,") {
		t.Errorf("last row = %s", lines[24])
	}
	for _, p := range []int{2, 4, 7} {
		got, err := sweepCSV(t, e, []string{"load=0.25"}, toyVary, 3, p, 42)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("--parallel %d CSV differs from --parallel 1:\n%s\nwant\n%s", p, got, want)
		}
	}
}

func TestRunnerSeeds(t *testing.T) {
	e := toyExperiment()
	a, _ := sweepCSV(t, e, nil, []string{"n=2,3"}, 2, 2, 5)
	b, _ := sweepCSV(t, e, nil, []string{"n=2,3"}, 2, 2, 5)
	c, _ := sweepCSV(t, e, nil, []string{"n=2,3"}, 2, 2, 6)
	if a != b {
		t.Error("same seed gave different CSV")
	}
	// Compare the metric columns only (the seed column differs anyway).
	metrics := func(s string) []string {
		var out []string
		for _, l := range strings.Split(strings.TrimSpace(s), "\n")[1:] {
			f := strings.Split(l, ",")
			out = append(out, strings.Join(f[8:], ","))
		}
		return out
	}
	ma, mc := metrics(a), metrics(c)
	// With base seed 6, trial 0 uses seed 6 = base 5's trial 1: the
	// runs coincide exactly, as seeds are base+trial.
	if ma[1] != mc[0] || ma[3] != mc[2] {
		t.Errorf("seed 6 rows differ between base 5 trial 1 and base 6 trial 0: %v vs %v", ma, mc)
	}
	if ma[0] == mc[0] {
		t.Errorf("seeds 5 and 6 gave identical metrics %s", ma[0])
	}
}

// TestRunnerReorderBuffer forces trial 0 to finish after trials 1 and 2;
// the outcomes must still be emitted in grid order.
func TestRunnerReorderBuffer(t *testing.T) {
	e := toyExperiment()
	var later sync.WaitGroup
	later.Add(2)
	var mu sync.Mutex
	var finished []int
	e.Run = func(r *Run) (*Result, error) {
		if r.Trial == 0 {
			later.Wait()
		}
		res, err := toyRun(r)
		mu.Lock()
		finished = append(finished, r.Trial)
		mu.Unlock()
		if r.Trial != 0 {
			later.Done()
		}
		return res, err
	}
	var emitted []int
	r := &Runner{Exp: e, Points: PointList{e.Defaults()}, Trials: 3, Parallel: 3}
	err := r.Run(context.Background(), func(o *Outcome) error {
		emitted = append(emitted, o.Trial)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if finished[2] != 0 {
		t.Fatalf("trial 0 should finish last, finished %v", finished)
	}
	if len(emitted) != 3 || emitted[0] != 0 || emitted[1] != 1 || emitted[2] != 2 {
		t.Errorf("emitted %v, want [0 1 2]", emitted)
	}
}

func TestRunnerErrorKeepsEarlierRows(t *testing.T) {
	e := toyExperiment()
	ref, err := sweepCSV(t, e, []string{"fail_n=4"}, []string{"n=1,2,3"}, 2, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{1, 2, 4} {
		// n=4, 5 and 6 all fail; the first in grid order (point 3) is reported.
		got, err := sweepCSV(t, e, []string{"fail_n=4"}, []string{"n=1,2,3,4,5,6"}, 2, p, 1)
		var re *RunError
		if !errors.As(err, &re) {
			t.Fatalf("parallel %d: err = %v, want *RunError", p, err)
		}
		if re.Point != 3 || re.Trial != 0 || !strings.Contains(err.Error(), "n=4") || !strings.Contains(err.Error(), "toy failure") {
			t.Errorf("parallel %d: error %q, want point 3 (n=4) trial 0", p, err)
		}
		if got != ref {
			t.Errorf("parallel %d: rows before the failure\n%s\nwant\n%s", p, got, ref)
		}
	}
}

func TestRunnerPanicBecomesError(t *testing.T) {
	e := toyExperiment()
	got, err := sweepCSV(t, e, []string{"panic_n=2"}, []string{"n=1,2,3"}, 1, 2, 1)
	var re *RunError
	if !errors.As(err, &re) || !re.Panics || len(re.Stack) == 0 || re.Point != 1 {
		t.Fatalf("err = %#v, want a panicking RunError at point 1", err)
	}
	if !strings.Contains(err.Error(), "toy invariant broken") {
		t.Errorf("error %q does not carry the panic message", err)
	}
	if n := strings.Count(got, "\n"); n != 2 {
		t.Errorf("CSV has %d lines, want header + 1 row", n)
	}
}

func TestRunnerRejectsBadResults(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(r *Run) (*Result, error)
		want string
	}{
		{"nil result", func(r *Run) (*Result, error) { return nil, nil }, "no result"},
		{"undeclared metric", func(r *Run) (*Result, error) {
			res := r.Exp.NewResult()
			res.Metrics["zzz"] = 1
			res.Metrics["end_us_typo"] = 1
			return res, nil
		}, `undeclared metric "end_us_typo"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := toyExperiment()
			e.Run = tc.run
			r := &Runner{Exp: e, Points: PointList{e.Defaults()}, Trials: 1, Parallel: 1}
			err := r.Run(context.Background(), func(*Outcome) error { return nil })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestRunnerStopsOnEmitErrorAndCancel(t *testing.T) {
	e := toyExperiment()
	pts, _ := Expand(e, nil, []string{"n=1,2,3,4,5,6,7,8"})
	boom := errors.New("disk full")
	calls := 0
	r := &Runner{Exp: e, Points: pts, Trials: 2, Parallel: 2}
	err := r.Run(context.Background(), func(o *Outcome) error {
		calls++
		if calls == 3 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || calls != 3 {
		t.Errorf("err = %v after %d emits, want disk full after 3", err, calls)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var seen []int
	err = r.Run(ctx, func(o *Outcome) error {
		seen = append(seen, o.Point*2+o.Trial)
		if len(seen) == 2 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("err = %v, want interrupted", err)
	}
	if len(seen) >= 16 {
		t.Errorf("cancel did not stop the grid: %d rows", len(seen))
	}
	for i, s := range seen {
		if s != i {
			t.Fatalf("rows after cancel are not a prefix in order: %v", seen)
		}
	}
}

func TestRunnerRejectsBadSettings(t *testing.T) {
	e := toyExperiment()
	for _, r := range []*Runner{
		{Exp: e, Points: PointList{e.Defaults()}, Trials: 0, Parallel: 1},
		{Exp: e, Points: PointList{e.Defaults()}, Trials: 1, Parallel: 0},
		{Points: PointList{e.Defaults()}, Trials: 1, Parallel: 1},
	} {
		if err := r.Run(context.Background(), func(*Outcome) error { return nil }); err == nil {
			t.Errorf("%+v: no error", r)
		}
	}
}

// TestRunnerBoundsReorderBuffer: while the first job is stuck, at most
// reorderWindow-1 later jobs run, so finished outcomes cannot pile up
// without bound.
func TestRunnerBoundsReorderBuffer(t *testing.T) {
	e := toyExperiment()
	release := make(chan struct{})
	var mu sync.Mutex
	started := 0
	e.Run = func(r *Run) (*Result, error) {
		if r.Trial == 0 {
			<-release
		} else {
			mu.Lock()
			started++
			mu.Unlock()
		}
		return r.Exp.NewResult(), nil
	}
	r := &Runner{Exp: e, Points: PointList{e.Defaults()}, Trials: 300, Parallel: 4}
	errc := make(chan error)
	rows := 0
	go func() { errc <- r.Run(context.Background(), func(*Outcome) error { rows++; return nil }) }()
	count := func() int { mu.Lock(); defer mu.Unlock(); return started }
	for count() < reorderWindow-1 {
		runtime.Gosched()
	}
	time.Sleep(20 * time.Millisecond) // give an unbounded runner time to run ahead
	if n := count(); n != reorderWindow-1 {
		t.Errorf("%d later jobs ran while the first was stuck, want %d", n, reorderWindow-1)
	}
	close(release)
	if err := <-errc; err != nil || rows != 300 {
		t.Errorf("err %v, %d rows", err, rows)
	}
}
