package mixed

import (
	"fmt"

	"syncsim/experiments"
	"syncsim/internal/timeline"
	"syncsim/netsim"
	"syncsim/scenarios/internal/layerfile"
	"syncsim/workloads/collective"
	"syncsim/workloads/layers"
)

// A ring job whose workers overlap backprop with synchronisation
// (overlap=layer; SPEC.md section 1, "Workers"), as PyTorch DDP over NCCL
// runs it: each host computes its model's buckets (workloads/layers)
// forward first to last and backward last to first; when its backward has
// produced a bucket and its ring all-reduce of the previous bucket is over
// at that host (one NCCL stream: a rank's all-reduces run one at a time,
// in the order launched), the host joins the bucket's ring all-reduce
// (ringSteps: collective.RingAllReduce's dependency rule, split by host);
// the next iteration's forward of a bucket waits until that host holds the
// bucket's reduced gradient. Nothing is global: a host runs ahead of
// another as far as the rings' chunks let it, on either engine, because
// every decision uses only the host's own state (on the parallel engine,
// its own partition).
//
// Each bucket has two rings' books, used by even and odd iterations: a
// host resets its share of a bucket's ring when the all-reduce is over at
// that host (ringSteps.done), and no neighbour can start the same bucket
// two iterations later before then.
//
// The job's iteration t ends when every host has bucket 0 of iteration t
// (the input layers, synchronised last); its time is that end minus
// iteration t-1's (the job's start for t = 0), the period of the
// pipeline.
type layerRing struct {
	job     *mixedRingJob
	buckets []layers.Bucket
	rings   [][2]*ringSteps // per bucket, per iteration parity
	hosts   []layerHost
	left    int  // hosts that have not finished every iteration (sequential engine)
	part    bool // on the parallel engine
	folded  bool // the job has ended
}

// layerHost is one host's compute and synchronisation state.
type layerHost struct {
	sim  *netsim.Sim
	t    int  // iteration being computed
	fwd  bool // in the forward pass
	l    int  // bucket being (or about to be) computed
	wait bool // forward blocked on bucket l's synchronisation
	// synced[b] is the last iteration whose bucket b this host holds
	// reduced; st, sb the iteration and bucket it synchronises next, and
	// live whether that all-reduce is under way at this host.
	synced []int
	st, sb int
	live   bool
	ends   []netsim.Time // when each iteration's bucket 0 was in place
	// rec records the host's timeline (nil: none); syncAt is when the
	// all-reduce under way at the host started there.
	rec    *timeline.Worker
	syncAt netsim.Time
}

// newLayerRing sets up job's bucketed ring; buckets carry the compute of
// their layers. On a partitioned network net has partitions.
func newLayerRing(job *mixedRingJob, net *netsim.Network, buckets []layers.Bucket, rec []*timeline.Worker) (*layerRing, error) {
	n := len(job.hosts)
	if n < 2 {
		return nil, fmt.Errorf("ring all-reduce over %d hosts", n)
	}
	if len(buckets) == 0 {
		return nil, fmt.Errorf("no buckets to synchronise")
	}
	r := &layerRing{job: job, buckets: buckets, rings: make([][2]*ringSteps, len(buckets)), hosts: make([]layerHost, n), left: n,
		part: net.Sim.Partitions() != nil}
	lookahead := net.Sim.Lookahead()
	for i, id := range job.hosts {
		h := &r.hosts[i]
		h.sim = net.Node(id).Base().Sim()
		h.synced = make([]int, len(buckets))
		for b := range h.synced {
			h.synced[b] = -1
		}
		h.sb = len(buckets) - 1
		if i < len(rec) {
			h.rec = rec[i]
		}
	}
	for b, bk := range buckets {
		if bk.Bytes < netsim.Bytes(n) {
			return nil, fmt.Errorf("bucket %d of %d bytes cannot be cut into %d chunks", b, bk.Bytes, n)
		}
		for par := range 2 {
			rs := &ringSteps{hosts: make([]ringHost, n), ids: job.hosts, chunks: collective.EqualChunks(bk.Bytes, n),
				steps: 2 * (n - 1), lookahead: lookahead, books: &job.bulkBooks, last: func(*ringHost) {}}
			for i := range rs.hosts {
				rs.hosts[i].sim = r.hosts[i].sim
			}
			rs.done = func(i int) { r.synced(i, rs) }
			r.rings[b][par] = rs
		}
	}
	if r.part {
		net.Sim.OnBarrier(r.fold)
	}
	return r, nil
}

// begin starts every host's first iteration at at (outside a window on
// the parallel engine).
func (r *layerRing) begin(at netsim.Time) {
	r.job.begun = at
	for i := range r.hosts {
		h := &r.hosts[i]
		if r.part {
			h.sim.Post(h.sim.Partition(), at, func() { r.iterate(i) })
		} else {
			h.sim.At(at, func() { r.iterate(i) })
		}
	}
}

// iterate starts host i's forward pass of its current iteration.
func (r *layerRing) iterate(i int) {
	h := &r.hosts[i]
	h.fwd, h.l = true, 0
	r.forward(i)
}

// forward computes host i's buckets from h.l on, waiting where the
// previous iteration's bucket is not in place yet.
func (r *layerRing) forward(i int) {
	h := &r.hosts[i]
	if h.l == len(r.buckets) {
		h.fwd = false
		h.l = len(r.buckets) - 1
		r.compute(h, timeline.Backward, r.buckets[h.l].Backward, func() { r.produced(i) })
		return
	}
	if h.synced[h.l] < h.t-1 {
		h.wait = true
		return
	}
	h.wait = false
	r.compute(h, timeline.Forward, r.buckets[h.l].Forward, func() {
		h.l++
		r.forward(i)
	})
}

// compute runs host h's pass of kind over bucket h.l, d long, then then.
func (r *layerRing) compute(h *layerHost, kind timeline.Kind, d netsim.Time, then func()) {
	if h.rec != nil {
		now := h.sim.Now()
		h.rec.Add(kind, h.t, h.l, int64(now), int64(now+d))
	}
	h.sim.AfterFunc(d, then)
}

// produced: host i's backward pass has produced bucket h.l.
func (r *layerRing) produced(i int) {
	h := &r.hosts[i]
	h.l--
	r.trySync(i)
	if h.l >= 0 {
		r.compute(h, timeline.Backward, r.buckets[h.l].Backward, func() { r.produced(i) })
		return
	}
	h.t++
	if h.t < r.job.iters {
		r.iterate(i)
	}
}

// ready reports whether host i's backward has produced bucket b of
// iteration t.
func (h *layerHost) ready(t, b int) bool {
	return h.t > t || (h.t == t && !h.fwd && h.l < b)
}

// trySync joins host i to its next bucket's ring all-reduce when its
// backward has produced the bucket and the previous one is over here.
func (r *layerRing) trySync(i int) {
	h := &r.hosts[i]
	if h.live || h.st >= r.job.iters || !h.ready(h.st, h.sb) {
		return
	}
	h.live = true
	h.syncAt = h.sim.Now()
	rs := r.rings[h.sb][h.st%2]
	rs.hosts[i].live = true
	rs.try(i)
}

// synced: the all-reduce of rs is over at host i (ringSteps.done).
func (r *layerRing) synced(i int, rs *ringSteps) {
	h := &r.hosts[i]
	if rs != r.rings[h.sb][h.st%2] || !h.live {
		panic(fmt.Sprintf("mixed-fabric: host %d finished a ring it was not in (bucket %d, iteration %d)", i, h.sb, h.st))
	}
	x := &rs.hosts[i]
	x.live, x.next, x.recvd, x.busy = false, 0, 0, false
	h.live = false
	b, t := h.sb, h.st
	h.synced[b] = t
	h.rec.Add(timeline.Sync, t, b, int64(h.syncAt), int64(h.sim.Now()))
	if b > 0 {
		h.sb--
	} else {
		h.ends = append(h.ends, h.sim.Now())
		h.st++
		h.sb = len(r.buckets) - 1
		if h.st == r.job.iters {
			r.hostDone()
		}
	}
	if h.fwd && h.wait && h.l == b && h.t == t+1 {
		r.forward(i)
	}
	r.trySync(i)
}

// hostDone: a host finished its last iteration. On the sequential engine
// the job ends with its last host; on the parallel one at the barrier
// after it (fold).
func (r *layerRing) hostDone() {
	if r.part {
		return // fold reads the hosts' own books at the barrier
	}
	r.left--
	if r.left == 0 {
		r.finish()
	}
}

// fold runs at every barrier on the parallel engine: the job ends when
// every host has finished.
func (r *layerRing) fold() {
	if r.folded {
		return
	}
	for i := range r.hosts {
		if len(r.hosts[i].ends) < r.job.iters {
			return
		}
	}
	r.finish()
}

// finish books the iterations and ends the job.
func (r *layerRing) finish() {
	r.folded = true
	r.book()
	r.job.doneAt = r.job.begun
	if k := len(r.job.times); k > 0 {
		var end netsim.Time
		for i := range r.hosts {
			end = max(end, r.hosts[i].ends[k-1])
		}
		r.job.doneAt = end
	}
	r.job.onDone()
}

// book sets the job's iteration times from the iterations every host has
// completed: iteration t ends when its last host has bucket 0.
func (r *layerRing) book() {
	k := r.job.iters
	for i := range r.hosts {
		k = min(k, len(r.hosts[i].ends))
	}
	r.job.times = r.job.times[:0]
	prev := r.job.begun
	for t := range k {
		var end netsim.Time
		for i := range r.hosts {
			end = max(end, r.hosts[i].ends[t])
		}
		r.job.times = append(r.job.times, end-prev)
		prev = end
	}
}

// ringPlan is the ring jobs' model: its bytes and compute (what
// overlap=none all-reduces after computing) and, with overlap=layer, its
// buckets with their layers' compute (nil with overlap=none).
func ringPlan(ps experiments.Params, size netsim.Bytes, compute netsim.Time) (netsim.Bytes, netsim.Time, []layers.Bucket, error) {
	m, own, err := layerfile.Load(ps)
	if err != nil {
		return 0, 0, nil, err
	}
	if !own {
		name := ps.String("ring_model")
		shape := name
		if name == "custom" {
			shape = "resnet50"
		}
		t, err := layers.Builtin(shape)
		if err != nil {
			return 0, 0, nil, err
		}
		if name == "custom" {
			t = t.WithBytes(size)
		}
		m = t.WithCompute(compute, -1)
	}
	o, err := layers.ParseOverlap(ps.String("overlap"))
	if err != nil {
		return 0, 0, nil, err
	}
	if o == layers.OverlapNone {
		return m.Bytes(), m.Compute(), nil, nil
	}
	bs, err := layers.Buckets(m, layers.Bucketing{CapMB: ps.Float("bucket_mib"), FirstCapMB: layers.DefaultFirstBucketMB})
	if err != nil {
		return 0, 0, nil, err
	}
	return m.Bytes(), m.Compute(), bs, nil
}
