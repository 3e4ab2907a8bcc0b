package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"syncsim/experiments"
)

// progress reports on stderr how a run or sweep goes: on a terminal a bar
// redrawn in place, its description showing the run in progress
// (simulated time reached, events per second, time left where the run's
// end is known); elsewhere (logs, pipes) plain lines: one at every tenth
// of the runs finished and, every `every`, one per run in progress.
type progress struct {
	name  string
	total int
	live  func() []experiments.Live
	w     io.Writer
	bar   *progressbar.ProgressBar
	plain bool
	every time.Duration
	start time.Time

	mu       sync.Mutex
	done     int
	step     int  // next tenth to report in plain mode
	finished bool // report finished runs in plain mode
	stop     chan struct{}
	wg       sync.WaitGroup
}

// newProgress starts a reporter for total runs of the named experiment,
// reading runs in progress from live. quiet reports nothing; finished
// lines are printed off a terminal only when there is more than one run.
func newProgress(w io.Writer, name string, total int, live func() []experiments.Live, every time.Duration, quiet bool) *progress {
	p := &progress{name: name, total: total, live: live, w: w, every: every, start: time.Now(), step: 1, stop: make(chan struct{})}
	p.finished = total > 1
	if quiet || total <= 0 {
		return p
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(name),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		p.loop(time.Second, p.describe)
		return p
	}
	p.plain = true
	if every > 0 {
		p.loop(every, p.liveLines)
	}
	return p
}

// loop calls f every period until finish.
func (p *progress) loop(period time.Duration, f func()) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				f()
			}
		}
	}()
}

// add records n more finished runs.
func (p *progress) add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	if p.bar != nil {
		_ = p.bar.Add(n)
		return
	}
	if !p.plain || !p.finished {
		return
	}
	if p.done*10 >= p.step*p.total || p.done == p.total {
		for p.done*10 >= p.step*p.total {
			p.step++
		}
		p.line()
	}
}

// finish ends the report.
func (p *progress) finish() {
	close(p.stop)
	p.wg.Wait()
	if p.bar != nil {
		_ = p.bar.Exit()
	}
}

func (p *progress) line() {
	el := time.Since(p.start)
	eta := "0s"
	if p.done > 0 && p.done < p.total {
		eta = (el * time.Duration(p.total-p.done) / time.Duration(p.done)).Round(100 * time.Millisecond).String()
	}
	fmt.Fprintf(p.w, "%s: %d/%d runs (%d%%), elapsed %s, eta %s\n",
		p.name, p.done, p.total, p.done*100/p.total, el.Round(100*time.Millisecond), eta)
}

// liveLines prints one line per run in progress (plain mode).
func (p *progress) liveLines() {
	runs := p.live()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range runs {
		if l.Events == 0 {
			continue
		}
		fmt.Fprintf(p.w, "%s: %d/%d runs done; point %d trial %d: %s\n", p.name, p.done, p.total, l.Point, l.Trial, liveText(l, time.Now()))
	}
}

// describe puts the first run in progress into the bar's description.
func (p *progress) describe() {
	runs := p.live()
	desc := p.name
	if len(runs) > 0 && runs[0].Events > 0 {
		desc = fmt.Sprintf("%s [point %d trial %d: %s]", p.name, runs[0].Point, runs[0].Trial, liveText(runs[0], time.Now()))
		if len(runs) > 1 {
			desc += fmt.Sprintf(" +%d running", len(runs)-1)
		}
	}
	p.mu.Lock()
	p.bar.Describe(desc)
	p.mu.Unlock()
}

// liveText describes a run in progress: simulated time reached (of the
// end, when known), events per second of wall-clock time, and the time
// left estimated from the share of the work done.
func liveText(l experiments.Live, now time.Time) string {
	el := now.Sub(l.Started)
	var b strings.Builder
	fmt.Fprintf(&b, "simulated %s", simDuration(l.SimSeconds))
	if l.Until > 0 {
		fmt.Fprintf(&b, " of at most %s", simDuration(l.Until))
	}
	if s := el.Seconds(); s > 0 {
		fmt.Fprintf(&b, ", %s events/s", siCount(float64(l.Events)/s))
	}
	if f := l.Fraction; !math.IsNaN(f) && f > 0 {
		fmt.Fprintf(&b, ", %.1f%% done", 100*f)
		if f < 1 {
			left := time.Duration(float64(el) * (1 - f) / f)
			fmt.Fprintf(&b, ", about %s left", left.Round(time.Second))
		}
	}
	return b.String()
}

// simDuration formats simulated seconds with a unit.
func simDuration(s float64) string {
	switch a := math.Abs(s); {
	case a == 0:
		return "0 s"
	case a < 1e-3:
		return fmt.Sprintf("%.3g us", s*1e6)
	case a < 1:
		return fmt.Sprintf("%.3g ms", s*1e3)
	}
	return fmt.Sprintf("%.4g s", s)
}

// siCount formats a count to 3 significant digits with a k, M, G or T
// suffix (999.7 reads 1 k, not 1e+03), for the progress lines and the
// cost estimate alike.
func siCount(v float64) string {
	r, err := strconv.ParseFloat(fmt.Sprintf("%.3g", v), 64)
	if err != nil {
		return fmt.Sprint(v)
	}
	for _, u := range []struct {
		scale  float64
		suffix string
	}{{1e12, " T"}, {1e9, " G"}, {1e6, " M"}, {1e3, " k"}} {
		if math.Abs(r) >= u.scale {
			return fmt.Sprintf("%.3g", r/u.scale) + u.suffix
		}
	}
	return fmt.Sprintf("%.3g", r)
}
