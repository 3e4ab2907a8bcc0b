package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"syncsim/experiments"
)

// failure turns the error that ended a run or sweep into its one-line
// message: for an interruption, how much was kept and the command that
// continues; for a failed run, how many rows the CSV keeps. An output
// that holds nothing (no run finished) is removed rather than left
// behind, and the message says so.
func (p *plan) failure(err error, out *output) error {
	what := "runs"
	if p.cmd == "run" {
		what = "trials"
	}
	kept := out.rows()
	removed := out.discard()
	var in *experiments.Interrupted
	if errors.As(err, &in) {
		cause := in.Cause
		var se *signalError
		if !errors.As(cause, &se) {
			cause = fmt.Errorf("interrupted (%w)", cause)
		}
		keep := "nothing was written (add --csv FILE to keep the trials that finish)"
		switch {
		case removed:
			keep = fmt.Sprintf("no run had finished, so %s was not kept; run it again with: %s", p.csvPath, p.resumeHint())
		case p.csvPath != "":
			keep = fmt.Sprintf("%s keeps %d complete rows; continue with: %s", p.csvPath, kept, p.resumeHint())
		}
		return fmt.Errorf("%w after %d of %d %s; %s", cause, in.Done, in.Total, what, keep)
	}
	switch {
	case removed:
		return fmt.Errorf("%w (no run had finished, so %s was not kept)", err, p.csvPath)
	case p.csvPath != "":
		return fmt.Errorf("%w (%s keeps the %d rows written before)", err, p.csvPath, kept)
	}
	return err
}

// printBooks prints what --check verified: every book the runs kept,
// with its identity and its terms summed over the runs, or that the
// experiment keeps none.
func printBooks(w io.Writer, exp string, outs []*experiments.Outcome) {
	type total struct {
		rule  string
		names []string
		sums  map[string]float64
		runs  int
	}
	var order []string
	books := map[string]*total{}
	for _, o := range outs {
		for _, b := range o.Books {
			t := books[b.Name]
			if t == nil {
				t = &total{rule: b.Rule, sums: map[string]float64{}}
				books[b.Name] = t
				order = append(order, b.Name)
			}
			t.runs++
			for _, term := range b.Terms {
				if _, ok := t.sums[term.Name]; !ok {
					t.names = append(t.names, term.Name)
				}
				t.sums[term.Name] += term.Value
			}
		}
	}
	if len(order) == 0 {
		fmt.Fprintf(w, "--check: %s keeps no conservation books; nothing was checked\n", exp)
		return
	}
	fmt.Fprintf(w, "--check: every run's books balance (totals over %d runs):\n", len(outs))
	for _, name := range order {
		t := books[name]
		parts := make([]string, len(t.names))
		for i, n := range t.names {
			parts[i] = n + " " + experiments.FormatFloat(t.sums[n])
		}
		fmt.Fprintf(w, "  %s (%s): %s\n", name, t.rule, strings.Join(parts, ", "))
	}
}

// seriesNote says when --series-dir was given but the runs collected no
// time series, instead of leaving the directory silently without them.
func seriesNote(w io.Writer, p *plan, out *output) {
	if p.seriesDir != "" && out.manifests > 0 && out.series == 0 {
		fmt.Fprintf(w, "syncsim: note: %s collected no time series for these parameters; %s holds only the runs' manifests\n",
			p.exp.Name, p.seriesDir)
	}
}

// traceNote says when --trace was given but no run recorded a timeline.
func traceNote(w io.Writer, p *plan, out *output) {
	if p.tracePath != "" && out.traced == 0 {
		fmt.Fprintf(w, "syncsim: note: %s recorded no timeline for these parameters (jobs that compute layer by layer do: "+
			"dssync, mixed-fabric's ring jobs and layer-wise INA jobs, ina-testbed and ina-leafspine with compute_ms > 0 and overlap=layer); %s holds no spans\n",
			p.exp.Name, p.tracePath)
	}
}

// plural is "1 trial", "2 trials".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// printEngine prints the parallel engine's report of a run
// (--engine-profile), naming the run.
func printEngine(w io.Writer, o *experiments.Outcome) {
	if o.Engine == "" {
		return
	}
	fmt.Fprintf(w, "point %d trial %d seed %d: %s", o.Point, o.Trial, o.Seed, o.Engine)
}
