package inagg

import (
	"fmt"
	"math"
	"sort"

	"syncsim/internal/timeline"
	"syncsim/netsim"
)

// A job whose workers compute layer by layer and aggregate bucket by
// bucket (JobConfig.Buckets), as PyTorch DistributedDataParallel, Horovod
// and BytePS overlap backprop with synchronisation (SPEC.md section 1,
// "Workers"; the plan is workloads/layers' Buckets and the schedule its
// Schedule, which the scenarios turn into JobConfig.Buckets):
//
//   - Backprop produces the gradients from the output side to the input
//     side, so the buckets fill from the last to the first. A worker may
//     send a gradient sequence only once the bucket that holds it is
//     produced: a release gate on the sequence index (worker.gateEnd).
//   - The gradient is laid out in the order backprop produces it: the
//     iteration's first sequences hold the last bucket, its last ones the
//     input side's. Bucket bytes map onto sequences in proportion to the
//     gradient (the table's bytes scaled to JobConfig.Gradient, which
//     gradient_scale may have shrunk), each boundary rounded to the
//     nearest whole packet, so every sequence belongs to exactly one
//     bucket (a bucket smaller than half a packet may hold none).
//   - The next iteration's forward pass of a bucket's layers starts when
//     the compute is free and the worker holds every result of that
//     bucket in the iteration before (the layer's aggregated gradient).
//     The input side's bucket is produced last and needed first, so with
//     communication much faster than compute an iteration lasts the
//     compute plus that bucket's aggregation; with communication slower,
//     the communication plus the first bucket's backward and the forward.
//   - The worker's sequences stay one iteration at a time: iteration k+1's
//     gradients come from its backward pass, which follows its whole
//     forward pass, which needs every bucket of iteration k aggregated.
//     So the protocols' windows, recovery and books are unchanged; only
//     the first new sequence each may send waits for the gate.
//
// Compute(w, k) is the worker's forward plus backward time in iteration
// k, split over the buckets' forward and backward passes in proportion to
// their Forward and Backward times (exactly those times when Compute
// returns their sum). ATP's threads label their packets interleaved
// (atpCtl), so under the gate they share each bucket packet by packet, as
// they share the gradient without it.

// Bucket is one gradient bucket of a job that overlaps backprop with
// aggregation (JobConfig.Buckets): its layers' gradient bytes and their
// forward and backward compute times. Only proportions matter: the bytes
// of all buckets are scaled to JobConfig.Gradient, their times to
// JobConfig.Compute.
type Bucket struct {
	Bytes             netsim.Bytes
	Forward, Backward netsim.Time
}

// evLayer is the worker event that ends one forward or backward segment
// of the layer-by-layer compute (its Arg is the segment).
const evLayer int32 = 4

// bucketPlan is a job's buckets laid out on its sequences.
type bucketPlan struct {
	n int // buckets, input side first
	// Bucket b holds the iteration's sequence offsets [lo[b], hi[b]);
	// bucket n-1 comes first (backprop fills it first), bucket 0 last.
	lo, hi []int64
	// cum[i] is the compute weight of the segments before and including
	// segment i, in the order they run: the forward of buckets 0..n-1,
	// then the backward of buckets n-1..0.
	cum []float64
}

// maxBucketWeight bounds the buckets' summed times and bytes, so their
// running sums and the rounded boundaries stay exact.
const maxBucketWeight = 1 << 53

// newBucketPlan lays bs out on packets sequences per iteration.
func newBucketPlan(bs []Bucket, packets int64) (*bucketPlan, error) {
	n := len(bs)
	var bytes, weight float64
	for i, b := range bs {
		if b.Bytes < 0 || b.Forward < 0 || b.Backward < 0 {
			return nil, fmt.Errorf("bucket %d has a negative size or time", i)
		}
		bytes += float64(b.Bytes)
		weight += float64(b.Forward) + float64(b.Backward)
	}
	switch {
	case bytes == 0:
		return nil, fmt.Errorf("the %d buckets hold no gradient bytes", n)
	case weight == 0:
		return nil, fmt.Errorf("the %d buckets have no compute time to split", n)
	case bytes > maxBucketWeight || weight > maxBucketWeight:
		return nil, fmt.Errorf("the buckets' bytes or times add up past 2^53")
	}
	p := &bucketPlan{n: n, lo: make([]int64, n), hi: make([]int64, n), cum: make([]float64, 2*n)}
	var seen float64
	var at int64
	for b := n - 1; b >= 0; b-- {
		seen += float64(bs[b].Bytes)
		end := int64(math.Round(seen / bytes * float64(packets)))
		if b == 0 {
			end = packets
		}
		p.lo[b], p.hi[b] = at, end
		at = end
	}
	var c float64
	for i := range 2 * n {
		if i < n {
			c += float64(bs[i].Forward)
		} else {
			c += float64(bs[2*n-1-i].Backward)
		}
		p.cum[i] = c
	}
	return p, nil
}

// boundary is when segment i ends, counted from the start of an
// iteration whose compute is total (rounded on the running sums, so the
// segments add up to total exactly; without waits).
func (p *bucketPlan) boundary(i int, total netsim.Time) netsim.Time {
	if i < 0 {
		return 0
	}
	w := p.cum[len(p.cum)-1]
	if float64(total) == w {
		return netsim.Time(p.cum[i])
	}
	return netsim.Time(math.Round(float64(total) * (p.cum[i] / w)))
}

// bucketOf is the bucket that holds sequence offset o.
func (p *bucketPlan) bucketOf(o int64) int {
	// hi decreases with b; the holder is the largest b with lo[b] <= o
	// < hi[b], i.e. the first b from the top whose hi exceeds o.
	i := sort.Search(p.n, func(k int) bool { return p.hi[p.n-1-k] > o })
	return p.n - 1 - i
}

// bucketRun is one worker's layer-by-layer compute.
type bucketRun struct {
	p     *bucketPlan
	iter  int         // the iteration the compute is in
	seg   int         // its next segment, 0..2n
	total netsim.Time // the iteration's compute, Compute(w, iter)
	busy  bool        // a segment is running
	// ready[b]: bucket b of the iteration before is aggregated (or
	// there is none), so its next forward may run.
	ready []bool
	// left[b] counts the results of bucket b the worker still lacks in
	// its current (communication) iteration.
	left []int64
	// rec records the worker's timeline (nil: none); syncAt[b] is when
	// bucket b of the worker's communication iteration was produced.
	rec    *timeline.Worker
	syncAt []netsim.Time
}

func newBucketRun(p *bucketPlan) *bucketRun {
	r := &bucketRun{p: p, ready: make([]bool, p.n), left: make([]int64, p.n), syncAt: make([]netsim.Time, p.n)}
	for b := range r.ready {
		r.ready[b] = true
	}
	return r
}

// startIteration begins the worker's iteration k on the network: nothing
// of it is produced yet. Iteration 0 starts the compute; later ones find
// it already under way (their forward pass began as buckets of the
// iteration before were aggregated).
func (r *bucketRun) startIteration(w *worker, k int) {
	w.gateEnd = w.iterBase
	for b := range r.left {
		r.left[b] = r.p.hi[b] - r.p.lo[b]
	}
	if k == 0 {
		r.startCompute(w, 0)
	}
}

// startCompute begins iteration k's forward pass.
func (r *bucketRun) startCompute(w *worker, k int) {
	r.iter, r.seg = k, 0
	if k >= w.j.cfg.Iterations {
		return
	}
	r.total = max(w.j.cfg.Compute(w.idx, k), 0)
	r.step(w)
}

// step starts the next segment unless one is running, the iterations are
// over, or the next is a forward pass whose bucket is not aggregated yet.
func (r *bucketRun) step(w *worker) {
	if r.busy || r.iter >= w.j.cfg.Iterations {
		return
	}
	if r.seg < r.p.n {
		if !r.ready[r.seg] {
			return
		}
		r.ready[r.seg] = false
	}
	r.busy = true
	d := r.p.boundary(r.seg, r.total) - r.p.boundary(r.seg-1, r.total)
	if r.rec != nil {
		now := w.host.Sim().Now()
		if r.seg < r.p.n {
			r.rec.Add(timeline.Forward, r.iter, r.seg, int64(now), int64(now+d))
		} else {
			r.rec.Add(timeline.Backward, r.iter, 2*r.p.n-1-r.seg, int64(now), int64(now+d))
		}
	}
	w.host.Sim().After(d, w, evLayer, nil, int64(r.seg))
}

// segmentDone ends segment seg: a backward segment produces its bucket,
// which opens the gate up to the bucket's last sequence.
func (r *bucketRun) segmentDone(w *worker, seg int64) {
	if !r.busy || seg != int64(r.seg) {
		panic(fmt.Sprintf("inagg: job %d worker %d: layer segment %d ended, %d was running", w.j.cfg.ID, w.idx, seg, r.seg))
	}
	r.busy = false
	n := r.p.n
	opened := false
	if r.seg >= n {
		b := 2*n - 1 - r.seg
		empty := r.p.hi[b] == r.p.lo[b]
		switch {
		case w.iter == r.iter:
			w.gateEnd = w.iterBase + r.p.hi[b]
			opened = !empty
			r.syncAt[b] = w.host.Sim().Now()
		case !empty || w.iter != r.iter+1:
			panic(fmt.Sprintf("inagg: job %d worker %d produced bucket %d of iteration %d while in iteration %d",
				w.j.cfg.ID, w.idx, b, r.iter, w.iter))
		}
		// A bucket that holds no sequence (less than half a packet) has
		// nothing to aggregate. When the input side's buckets are such,
		// the worker has every result of the iteration, and has moved on
		// to the next, before backprop reaches them.
		if empty {
			r.ready[b] = true
		}
	}
	r.seg++
	if r.seg == 2*n {
		r.startCompute(w, r.iter+1)
	} else {
		r.step(w)
	}
	if opened {
		w.pump()
	}
}

// onResult books a new result for seq of the worker's iteration: the
// bucket's last one lets the bucket's next forward pass run.
func (r *bucketRun) onResult(w *worker, seq int64) {
	b := r.p.bucketOf(seq - w.iterBase)
	r.left[b]--
	if r.left[b] == 0 {
		r.rec.Add(timeline.Sync, w.iter, b, int64(r.syncAt[b]), int64(w.host.Sim().Now()))
		r.ready[b] = true
		r.step(w)
	}
}
