package timeline

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Writer streams the logs of one or more runs to a Chrome trace and to
// the CSV of their collectives' exposed time. In the trace every job of
// every run is a process (pid 1, 2, ... in the order written, named by
// the run's label and the job), and each of its workers one thread for
// its compute (forward and backward per bucket, complete "X" events) and
// as many threads for its synchronisations as it had in flight at once
// (one with a single stream, as a ring job's NCCL stream; more when an
// INA job's buckets overlap), since the viewers want a thread's complete
// events nested, never partly overlapping. Times are microseconds (the
// format's unit), written exactly from the picoseconds.
//
// The format is Chrome's Trace Event Format ("JSON Object Format" with
// traceEvents; ph "X" complete events with ts and dur, ph "M" metadata
// events process_name, thread_name and their sort indices), which
// chrome://tracing and ui.perfetto.dev read.
type Writer struct {
	js, cs *bufio.Writer
	pid    int
	n      int // events written
	err    error
}

// CommColumns is the header of the exposed-time CSV.
const CommColumns = "point,trial,seed,job,job_name,worker,iteration,bucket,start_us,end_us,comm_us,exposed_us"

// NewWriter starts a trace on js and the exposed-time CSV on cs.
func NewWriter(js, cs io.Writer) *Writer {
	w := &Writer{js: bufio.NewWriter(js), cs: bufio.NewWriter(cs)}
	w.js.WriteString(`{"displayTimeUnit":"ms","traceEvents":[`)
	w.cs.WriteString(CommColumns + "\n")
	return w
}

// Run writes one run's log: label names the run in the process names,
// point, trial and seed identify it in the CSV.
func (w *Writer) Run(label string, point, trial int, seed uint64, l *Log) error {
	if l == nil {
		return w.err
	}
	for j, job := range l.Jobs {
		w.pid++
		name := fmt.Sprintf("%s: job %d (%s)", label, j, job.Name)
		w.meta("process_name", 0, "name", quote(name))
		w.meta("process_sort_index", 0, "sort_index", strconv.Itoa(w.pid))
		tid := 0
		for wi, wk := range job.Workers {
			spans := wk.Spans()
			compute := tid
			w.meta("thread_name", compute, "name", quote(fmt.Sprintf("worker %d compute", wi)))
			w.meta("thread_sort_index", compute, "sort_index", strconv.Itoa(compute))
			var lanes []int64 // each sync thread's last end
			for _, s := range spans {
				if s.Kind != Sync {
					w.span(s, compute)
					continue
				}
				lane := -1
				for i, end := range lanes {
					if end <= s.Start {
						lane = i
						break
					}
				}
				if lane < 0 {
					lane = len(lanes)
					lanes = append(lanes, 0)
					t := compute + 1 + lane
					name := fmt.Sprintf("worker %d sync", wi)
					if lane > 0 {
						name = fmt.Sprintf("worker %d sync %d", wi, lane+1)
					}
					w.meta("thread_name", t, "name", quote(name))
					w.meta("thread_sort_index", t, "sort_index", strconv.Itoa(t))
				}
				lanes[lane] = s.End
				w.span(s, compute+1+lane)
			}
			tid = compute + 1 + len(lanes)
			for _, c := range Exposed(wi, spans) {
				fmt.Fprintf(w.cs, "%d,%d,%d,%d,%s,%d,%d,%d,%s,%s,%s,%s\n", point, trial, seed, j, csvField(job.Name), wi, c.Iter, c.Bucket,
					us(c.Start), us(c.End), us(c.End-c.Start), us(c.Exposed))
			}
		}
	}
	return w.err
}

// Close ends the trace and flushes both outputs (it does not close the
// underlying writers).
func (w *Writer) Close() error {
	w.js.WriteString("\n]}\n")
	if err := w.js.Flush(); err != nil && w.err == nil {
		w.err = err
	}
	if err := w.cs.Flush(); err != nil && w.err == nil {
		w.err = err
	}
	return w.err
}

// event starts the next event of the array.
func (w *Writer) event() {
	if w.n > 0 {
		w.js.WriteByte(',')
	}
	w.js.WriteString("\n")
	w.n++
}

// meta writes a metadata event with one argument (its value already
// JSON).
func (w *Writer) meta(name string, tid int, key, value string) {
	w.event()
	fmt.Fprintf(w.js, `{"name":%q,"ph":"M","pid":%d,"tid":%d,"args":{%q:%s}}`, name, w.pid, tid, key, value)
}

// span writes a complete event.
func (w *Writer) span(s Span, tid int) {
	cat := "compute"
	if s.Kind == Sync {
		cat = "sync"
	}
	w.event()
	fmt.Fprintf(w.js, `{"name":"%s b%d","cat":"%s","ph":"X","ts":%s,"dur":%s,"pid":%d,"tid":%d,"args":{"iteration":%d,"bucket":%d}}`,
		s.Kind, s.Bucket, cat, us(s.Start), us(s.End-s.Start), w.pid, tid, s.Iter, s.Bucket)
}

// us writes picoseconds as exact decimal microseconds.
func us(ps int64) string {
	neg := ps < 0
	if neg {
		ps = -ps
	}
	s := strconv.FormatInt(ps/1e6, 10)
	if f := ps % 1e6; f != 0 {
		frac := fmt.Sprintf("%06d", f)
		for frac[len(frac)-1] == '0' {
			frac = frac[:len(frac)-1]
		}
		s += "." + frac
	}
	if neg {
		s = "-" + s
	}
	return s
}

// quote is s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// csvField quotes s for a CSV field when it needs it.
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\n\r") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
