package inagg

import (
	"cmp"
	"slices"

	"syncsim/netsim"
)

// A job on a partitioned network (the parallel engine:
// netsim.Network.Partition before NewJob). Its workers, its parameter
// server and its aggregating switch may lie in different partitions,
// which run concurrently inside windows of one lookahead; every piece of
// state the job shares between them is kept per partition inside a
// window and folded on the coordinator at the barrier after it, with
// every partition paused, in an order that depends on the simulated
// events only (never on the thread count):
//
//   - The job-scope asynchronous degree window (AWDJob). Each worker acts
//     on the job's AWD as of the last barrier. The inputs it would have
//     fed the shared controller (its GACK round-trip samples and its
//     AACKs with their AECN bits) go into a log of its own; at the
//     barrier the logs are merged by (time, worker index, the worker's
//     own order) and run through the same controller rule (awdCtl.sample,
//     awdCtl.onAACK). It is the sequential model's rule on the same kind
//     of stream, with the workers' view of AWD lagging by at most one
//     lookahead (2 us on the default fabrics, against a round trip of
//     10 us and more) and ties within one picosecond broken by worker
//     index instead of event order.
//   - The iteration books. Each worker records when it finished each
//     iteration (worker.finish); at the barrier an iteration whose every
//     worker finished ends at the latest of their times, which is what
//     the sequential engine books, so iteration times are exact. The
//     job's end (Job.finish: unregistration at its switch, the OnDone
//     callback that may stop the run) happens at that barrier, at most
//     one lookahead after the last worker finished.
//
// The parameter server and the switch already keep apart books
// (JobStats's two counters are written by the parameter server alone,
// SwitchJobStats and the held aggregators by the switch alone). ATP's
// two-level aggregation writes the job's switch books from several
// switches: each switch then keeps a share of its own, folded at the
// barriers in switch order (twolevel_part.go).

// awdInput is one input of a job-scope AWD that a worker saw inside a
// window.
type awdInput struct {
	at   netsim.Time
	rtt  netsim.Time // a GACK round-trip sample (awdCtl.sample) when sample is set
	smp  bool
	aecn bool // an AACK's AECN bit (awdCtl.onAACK) when smp is not set
	// seq and hi are the AACK's sequence and the highest sequence the
	// job had sent as far as its worker knew (awdCtl.onAACK).
	seq, hi int64
}

// partitioned sets up the job's books for a partitioned network: the
// workers sharing the job's AWD log their inputs, and a barrier hook
// folds the logs and the iteration books.
func (j *Job) partitioned(sim *netsim.Sim) {
	j.part = true
	for _, w := range j.workers {
		if c, ok := w.ctl.(*asyncCtl); ok && j.awd != nil && c.awd == j.awd {
			c.log = &w.awdLog
		}
	}
	j.shareBooks()
	sim.OnBarrier(j.fold)
}

// fold runs at every barrier of a partitioned run.
func (j *Job) fold() {
	if j.awd != nil {
		j.foldAWD()
	}
	j.foldHeld()
	if j.started && !j.done {
		j.foldIterations()
		j.foldHeld() // the job's end released what it still held
	}
}

// foldAWD runs the workers' logged inputs through the job's AWD in the
// order (time, worker index, the worker's own order).
func (j *Job) foldAWD() {
	buf := j.awdBuf[:0]
	for _, w := range j.workers {
		buf = append(buf, w.awdLog...)
		w.awdLog = w.awdLog[:0]
	}
	if len(buf) == 0 {
		return
	}
	// Stable: equal times keep worker order, then each worker's order.
	slices.SortStableFunc(buf, func(a, b awdInput) int { return cmp.Compare(a.at, b.at) })
	for _, in := range buf {
		if in.smp {
			j.awd.sample(in.rtt)
		} else {
			j.awd.onAACK(in.at, in.aecn, in.seq, in.hi)
		}
	}
	j.awdBuf = buf[:0]
}

// foldIterations books the iterations every worker has finished since
// the last barrier: iteration k ends at the latest of its workers'
// finish times, and the job ends with its last iteration.
func (j *Job) foldIterations() {
	most := 0
	for _, w := range j.workers {
		most = max(most, len(w.finish))
	}
	for len(j.finished) < most {
		j.finished = append(j.finished, 0)
		j.iterEnd = append(j.iterEnd, 0)
	}
	complete := true
	for k := j.folded; k < most; k++ {
		n, end := 0, netsim.Time(0)
		for _, w := range j.workers {
			if len(w.finish) > k {
				n++
				end = max(end, w.finish[k])
			}
		}
		j.finished[k] = n
		if complete = complete && n == len(j.workers); !complete {
			continue
		}
		j.iterEnd[k] = end
		j.folded = k + 1
		if k == j.cfg.Iterations-1 {
			j.finish(end)
			return
		}
	}
}
