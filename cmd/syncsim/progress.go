package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress reports finished runs on stderr: a bar redrawn in place when
// stderr is a terminal, otherwise (logs, pipes) a plain line at every
// tenth of the work and at the end, when plain is true.
type progress struct {
	bar   *progressbar.ProgressBar
	w     io.Writer
	plain bool
	name  string
	total int
	done  int
	start time.Time
	step  int // next tenth to report in plain mode
}

// newProgress starts a reporter for total runs of the named experiment.
// Without a terminal it prints plain lines only when plain is set.
func newProgress(w io.Writer, name string, total int, plain bool) *progress {
	p := &progress{w: w, name: name, total: total, start: time.Now(), step: 1}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) && total > 0 {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(name),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		return p
	}
	p.plain = plain && total > 0
	return p
}

// add records n more finished runs.
func (p *progress) add(n int) {
	p.done += n
	if p.bar != nil {
		_ = p.bar.Add(n)
		return
	}
	if !p.plain {
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
