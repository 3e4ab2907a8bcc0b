// Package timeline records what each worker of a simulated job does over
// time (its compute, layer by layer, and each synchronisation, bucket by
// bucket) and writes it as a Chrome trace (the Trace Event Format's JSON
// object form, which chrome://tracing and ui.perfetto.dev open) and as a
// table of each collective's exposed communication time: the part of it
// during which the worker's compute was idle, waiting for it.
//
// Times are int64 picoseconds (netsim.Time's unit), so the package needs
// nothing of the simulator; a nil *Worker records nothing, so models call
// it unconditionally and pay one nil check when no trace is asked for.
package timeline

import "sort"

// Kind says what a span is.
type Kind uint8

const (
	// Forward is a bucket's layers' forward pass.
	Forward Kind = iota
	// Backward is a bucket's layers' backward pass: the bucket is
	// produced when it ends.
	Backward
	// Sync is a bucket's synchronisation at one worker: from when the
	// worker starts (or may start) it to when the worker holds the
	// bucket's synchronised gradient.
	Sync
)

// kindNames name the kinds in traces.
var kindNames = [...]string{"forward", "backward", "sync"}

// String names the kind.
func (k Kind) String() string { return kindNames[k] }

// Span is one interval of a worker's timeline, [Start, End) in
// picoseconds.
type Span struct {
	Kind         Kind
	Iter, Bucket int
	Start, End   int64
}

// Worker is one worker's recorder. Its methods are called only from the
// worker's own events (its partition on the parallel engine), so it needs
// no lock. A nil *Worker records nothing.
type Worker struct {
	spans []Span
}

// Add records a span; a span that ends before it starts is an engine bug.
func (w *Worker) Add(k Kind, iter, bucket int, start, end int64) {
	if w == nil {
		return
	}
	if end < start {
		panic("timeline: a span ends before it starts")
	}
	w.spans = append(w.spans, Span{Kind: k, Iter: iter, Bucket: bucket, Start: start, End: end})
}

// Spans returns the worker's spans ordered by start, then kind, iteration
// and bucket (a fixed order, whatever order they were recorded in).
func (w *Worker) Spans() []Span {
	if w == nil {
		return nil
	}
	out := append([]Span(nil), w.spans...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Iter != b.Iter {
			return a.Iter < b.Iter
		}
		if a.Bucket != b.Bucket {
			return a.Bucket < b.Bucket
		}
		return a.End < b.End
	})
	return out
}

// Job is one job's workers.
type Job struct {
	Name    string
	Workers []*Worker
}

// Log is one run's jobs, in the order they were added. A nil *Log
// records nothing.
type Log struct {
	Jobs []*Job
}

// NewJob adds a job of workers workers and returns their recorders (nil
// recorders when l is nil). Call it while setting the run up, before any
// event runs.
func (l *Log) NewJob(name string, workers int) []*Worker {
	out := make([]*Worker, workers)
	if l == nil {
		return out
	}
	for i := range out {
		out[i] = &Worker{}
	}
	l.Jobs = append(l.Jobs, &Job{Name: name, Workers: out})
	return out
}
