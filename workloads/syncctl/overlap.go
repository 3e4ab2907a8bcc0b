package syncctl

import (
	"fmt"
	"math"
	"math/rand/v2"

	"syncsim/netsim"
	"syncsim/workloads/layers"
	"syncsim/workloads/training"
)

// Layer-wise overlap of a group's synchronisation with its members'
// backprop (Config.Buckets; docs/workers.md, "Partial and selective
// reduce, bucket by bucket").
//
// A worker's round of compute d (one draw of its distribution) is split
// over the buckets as the model's table splits its compute: the forward
// pass, then the backward pass from the output side's bucket to the input
// side's. The worker joins the ready queue when backprop has produced its
// first bucket (the output side's): the first moment it has anything to
// synchronise, and the moment PyTorch DDP's Reducer launches its first
// collective (mark_bucket_ready, torch/csrc/distributed/c10d/reducer.cpp).
// The controller forms groups exactly as it would otherwise, from the
// queue and the signals' times. Once launched, the group reduces its
// buckets one at a time in the order backprop produces them (one stream
// per communicator, as NCCL runs them and DDP launches them), each
// starting when the previous one is done and every member has produced
// it. The next round's forward pass of a layer needs that layer's reduced
// bucket; the input side's bucket is produced last, reduced last and
// needed first, so a member's next round starts when the group's last
// bucket is reduced: its round lasts the compute plus the part of the
// synchronisation that backprop could not hide (layers.Schedule with
// serial synchronisation is the same critical path).

// overlapPlan is Config.Buckets in the cluster's units.
type overlapPlan struct {
	bytes []float64 // each bucket's share of ModelBytes, input side first
	// produced[k] is the fraction of a round's compute after which
	// bucket k is produced: the forward pass plus the backward pass down
	// to bucket k. produced[len-1] is the ready signal; produced[0] = 1.
	produced []float64
}

// newOverlapPlan checks the buckets and turns them into shares of the
// model's bytes and of a round's compute.
func newOverlapPlan(bs []layers.Bucket, modelBytes float64) (*overlapPlan, error) {
	K := len(bs)
	var bytes, fwd, bwd float64
	for k, b := range bs {
		if b.Bytes < 0 || b.Forward < 0 || b.Backward < 0 {
			return nil, fmt.Errorf("cluster: bucket %d has a negative size or time", k)
		}
		bytes += float64(b.Bytes)
		fwd += float64(b.Forward)
		bwd += float64(b.Backward)
	}
	if !(bytes > 0) {
		return nil, fmt.Errorf("cluster: %d buckets hold no gradient bytes", K)
	}
	if !(fwd+bwd > 0) {
		return nil, fmt.Errorf("cluster: %d buckets have no compute to split a round by", K)
	}
	p := &overlapPlan{bytes: make([]float64, K), produced: make([]float64, K)}
	total := fwd + bwd
	at := fwd
	for k := K - 1; k >= 0; k-- {
		at += float64(bs[k].Backward)
		p.produced[k] = at / total
		p.bytes[k] = modelBytes * float64(bs[k].Bytes) / bytes
	}
	p.produced[0] = 1 // exact, whatever the rounding of the sums
	return p, nil
}

// signal is the fraction of a round's compute after which a worker joins
// the ready queue: when its first bucket is produced.
func (p *overlapPlan) signal() float64 { return p.produced[len(p.produced)-1] }

// scaledDist is a compute-time distribution times a constant factor: the
// time from a round's start to a worker's ready signal, which is what the
// controller observes and predicts (selective reduce's Eq. 4) when
// synchronisation overlaps backprop.
type scaledDist struct {
	d training.Dist
	f float64
}

// Sample draws f times a draw of d.
func (s scaledDist) Sample(r *rand.Rand) float64 { return s.f * s.d.Sample(r) }

// CDF is P(f T <= x).
func (s scaledDist) CDF(x float64) float64 { return s.d.CDF(x / s.f) }

// Mean is f E[T].
func (s scaledDist) Mean() float64 { return s.f * s.d.Mean() }

// Name labels the scaled distribution.
func (s scaledDist) Name() string { return fmt.Sprintf("%g x %s", s.f, s.d.Name()) }

// groupSync is a launched group reducing its buckets one at a time.
type groupSync struct {
	c     *Cluster
	g     []int
	start netsim.Time
	k     int // the bucket under way or next, counting down to 0
}

// launchBuckets starts group g's bucket-by-bucket synchronisation.
func (c *Cluster) launchBuckets(g []int, start netsim.Time) {
	s := &groupSync{c: c, g: g, start: start, k: len(c.ov.bytes) - 1}
	s.next()
}

// next starts bucket s.k once every member has produced it (now, or at
// the latest member's time).
func (s *groupSync) next() {
	c := s.c
	at := c.sim.Now()
	for _, w := range s.g {
		at = max(at, c.produced(w, s.k))
	}
	if at == netsim.Never {
		return // a member's backprop ends after the clock's end
	}
	if at > c.sim.Now() {
		c.sim.At(at, s.run)
		return
	}
	s.run()
}

// run reduces bucket s.k among the group.
func (s *groupSync) run() {
	c := s.c
	c.exec.Start(c, s.g, c.ov.bytes[s.k], func() {
		if s.k == 0 {
			c.finishSync(s.g, s.start)
			return
		}
		s.k--
		s.next()
	})
}

// produced is when worker w's backprop of its current round produces
// bucket k (Never if after the clock's end).
func (c *Cluster) produced(w, k int) netsim.Time {
	x := &c.w[w]
	at, ok := netsim.Later(x.start, x.dur*c.ov.produced[k])
	if !ok {
		return netsim.Never
	}
	return at
}

// computeEnd is when worker w's current round of compute ends: its
// ready signal without overlap, its backprop's last bucket with it.
func (c *Cluster) computeEnd(w int) netsim.Time {
	if c.ov == nil {
		return c.w[w].readyAt
	}
	return c.produced(w, 0)
}

// signalFraction is the share of a round's compute before the ready
// signal (1 without overlap).
func (c *Cluster) signalFraction() float64 {
	if c.ov == nil {
		return 1
	}
	return c.ov.signal()
}

// idleSince is how long worker w, ready since its signal, has been
// neither computing nor synchronising at time t: the time in the ready
// queue after its backprop ended.
func (c *Cluster) idleSince(w int, t netsim.Time) netsim.Time {
	from := max(c.w[w].queuedAt, c.computeEnd(w))
	return max(0, t-from)
}

// BucketsOf is model m's buckets for a cluster synchronising modelBytes:
// m's shape at that size (layers.Model.WithBytes, every layer keeping its
// share of the bytes), fused under b's caps as DDP fuses the gradient of a
// model of that size (layers.Buckets). A table without compute times has
// its compute split by bytes (layers.Model.WithCompute), only the
// proportions mattering: each round's compute is drawn from the workers'
// distributions.
func BucketsOf(m layers.Model, modelBytes float64, b layers.Bucketing) ([]layers.Bucket, error) {
	if !(modelBytes >= 1) || modelBytes > float64(math.MaxInt64)/2 {
		return nil, fmt.Errorf("model of %g bytes cannot be split into buckets", modelBytes)
	}
	m = m.WithBytes(netsim.Bytes(math.Round(modelBytes)))
	if m.Compute() == 0 {
		m = m.WithCompute(netsim.FromSeconds(1), -1)
	}
	return layers.Buckets(m, b)
}
