package crew

import (
	"fmt"
	"math"

	"syncsim/netsim"
	"syncsim/workloads/layers"
)

// Layer-wise overlap of CREW's partial reduce with backprop
// (Config.Buckets; docs/workers.md, "CREW, bucket by bucket").
//
// CREW's workers scatter "when each worker completes its local training"
// (Sec. III) and the paper leaves "communication-computation overlapping"
// to future work (Sec. VI), so this mode is an option, off by default. It
// mirrors the partial and selective reduce's (workloads/syncctl/overlap.go):
//
//   - The model's k chunks are laid out in the order backprop produces the
//     gradient: chunk 1 is the output side's first byte, chunk k the input
//     side's last. A bucket is a byte range of the model, so it covers a run
//     of chunks (its boundaries rounded to the nearest chunk; a bucket under
//     half a chunk covers none). Alg. 1 and Alg. 2 split the chunks into
//     blocks as before, so a bucket's chunks fall in one block or several.
//   - A worker's iteration of compute d (one draw, as without overlap) is
//     split as the table splits its compute: the forward pass input side
//     first, then the backward pass output side first. Bucket i is produced
//     when backprop has gone through it. The worker reports ready when its
//     first bucket is produced (the moment DDP launches its first
//     collective), not when its compute ends.
//   - Once a member has its plan (blocking scatter, as now), it streams the
//     chunks of each block that backprop has produced, in increasing order;
//     each bucket produced later adds its chunks to the streams of the
//     blocks that hold them, and copies to its own block count at once.
//     Aggregators reduce and multicast chunk by chunk unchanged (they only
//     see chunks arrive later).
//   - The next iteration's forward pass of a bucket waits until the worker
//     holds the result of every chunk of that bucket, whichever aggregators
//     they come from and in whatever order they arrive; the backward pass
//     needs nothing. The input side's bucket is produced last and needed
//     first, so most of a partial reduce still precedes the next forward
//     pass; what overlaps is the backward pass with the scatter and
//     multicast of the buckets already produced.
//
// A round still ends when the member holds every chunk's result (Holds,
// rounds_per_worker); a member's next ready signal always follows it, since
// the forward pass needs every bucket.

// overlapPlan is Config.Buckets in the cluster's units, in the order
// backprop produces the buckets (index 0: the output side's).
type overlapPlan struct {
	chunks []Block // each bucket's chunks
	// fwdStart[i] is the fraction of an iteration's compute after which
	// the forward pass of bucket i starts; produced[i] the fraction after
	// which backprop has produced bucket i (produced[K-1] = 1).
	fwdStart []float64
	produced []float64
}

// newOverlapPlan checks the buckets (input side first, as layers.Buckets
// returns them) and maps them onto k chunks.
func newOverlapPlan(bs []layers.Bucket, k int) (*overlapPlan, error) {
	K := len(bs)
	var bytes, total float64
	for i, b := range bs {
		if b.Bytes < 0 || b.Forward < 0 || b.Backward < 0 {
			return nil, fmt.Errorf("overlap: bucket %d has a negative size or time", i)
		}
		bytes += float64(b.Bytes)
		total += float64(b.Forward) + float64(b.Backward)
	}
	if !(bytes > 0) || !(total > 0) {
		return nil, fmt.Errorf("overlap: %d buckets hold no gradient bytes or no compute", K)
	}
	p := &overlapPlan{chunks: make([]Block, K), fwdStart: make([]float64, K), produced: make([]float64, K)}
	// Forward pass input side first: backprop index K-1 first.
	var at float64
	for i := K - 1; i >= 0; i-- {
		p.fwdStart[i] = at / total
		at += float64(bs[K-1-i].Forward)
	}
	var cum float64
	lo := 0 // last chunk of the previous bucket
	for i := 0; i < K; i++ {
		b := bs[K-1-i]
		at += float64(b.Backward)
		p.produced[i] = at / total
		cum += float64(b.Bytes)
		hi := int(math.Round(float64(k) * cum / bytes))
		if i == K-1 {
			hi = k
		}
		if hi > lo {
			p.chunks[i] = Block{{lo + 1, hi}}
		}
		lo = max(lo, hi)
	}
	p.produced[K-1] = 1 // exact, whatever the rounding of the sums
	return p, nil
}

// ovWorker is one worker's iteration under overlap.
type ovWorker struct {
	x        float64     // the iteration's compute, seconds
	base     netsim.Time // the compute ran without a wait from base on
	baseFrac float64     // ... having done baseFrac of x by then
	fwd      int         // next bucket (backprop index) whose forward pass is due; -1: backward
	blocked  bool        // the forward pass waits for a result
	gen      uint32      // bumped at every iteration start: stale events drop

	produced Block // chunks backprop has produced in the iteration being synchronised
	pending  bool  // the iteration's partial reduce is not over for this worker
	t        *crewTask
	mi       int
}

// at is when fraction f of the iteration's compute is done if it runs on
// from o.base without waiting, or false beyond the clock.
func (o *ovWorker) at(f float64) (netsim.Time, bool) {
	return netsim.Later(o.base, max((f-o.baseFrac)*o.x, 0))
}

// ovStart starts worker w's next iteration: the forward pass, gated
// bucket by bucket on the previous partial reduce's results.
func (c *Cluster) ovStart(w int) {
	if c.dead[w] {
		return
	}
	o := &c.ovw[w]
	x := c.cfg.Compute.Sample(c.rng[w]) * c.cfg.ComputeScale
	if c.cfg.ComputeMult != nil {
		x *= c.cfg.ComputeMult[w]
	}
	o.x, o.base, o.baseFrac = x, c.sim.Now(), 0
	o.fwd = len(c.ov.chunks) - 1
	o.blocked = false
	o.gen++
	c.ovForward(w)
}

// gateOpen reports whether worker w holds the results of bucket i's
// chunks (or has no partial reduce to wait for).
func (c *Cluster) gateOpen(w, i int) bool {
	o := &c.ovw[w]
	if !o.pending {
		return true
	}
	if o.t == nil {
		return false
	}
	if o.t.done[o.mi] {
		return true
	}
	return o.t.held[o.mi].from(c.ov.chunks[i]).Len() == 0
}

// ovForward runs worker w's forward pass as far as the results it holds
// allow, and schedules the backward pass when every gate is open.
func (c *Cluster) ovForward(w int) {
	o := &c.ovw[w]
	now := c.sim.Now()
	for ; o.fwd >= 0; o.fwd-- {
		if c.gateOpen(w, o.fwd) {
			continue
		}
		start, ok := o.at(c.ov.fwdStart[o.fwd])
		if !ok {
			return
		}
		if start > now {
			gen := o.gen
			c.sim.At(start, func() {
				if o.gen == gen && !o.blocked {
					c.ovForward(w)
				}
			})
			return
		}
		// The compute idles from now until the results arrive.
		o.blocked, o.baseFrac = true, c.ov.fwdStart[o.fwd]
		return
	}
	gen := o.gen
	for i := range c.ov.chunks {
		at, ok := o.at(c.ov.produced[i])
		if !ok {
			return // beyond the clock's end: never within the run
		}
		c.sim.At(at, func() {
			if o.gen == gen {
				c.ovProduced(w, i)
			}
		})
	}
}

// ovResult: worker w has received results (or its partial reduce ended);
// a forward pass waiting for them goes on.
func (c *Cluster) ovResult(w int) {
	o := &c.ovw[w]
	if !o.blocked || !c.gateOpen(w, o.fwd) {
		return
	}
	o.blocked, o.base = false, c.sim.Now()
	c.ovForward(w)
}

// ovSyncOver: worker w's partial reduce is over (result held, or
// abandoned); its forward pass no longer waits.
func (c *Cluster) ovSyncOver(w int) {
	o := &c.ovw[w]
	o.pending, o.t = false, nil
	c.wstate[w] = wComputing
	c.ovResult(w)
}

// ovProduced: worker w's backprop has produced bucket i. The first is the
// ready signal; every bucket's chunks go to the streams of a plan already
// known; after the last the compute starts the next iteration.
func (c *Cluster) ovProduced(w, i int) {
	o := &c.ovw[w]
	if i == 0 {
		o.produced, o.pending, o.t = nil, true, nil
	}
	o.produced = o.produced.Union(c.ov.chunks[i])
	if i == 0 {
		c.computeDone(w)
	} else if o.t != nil {
		o.t.produce(o.mi, c.ov.chunks[i])
	}
	if i == len(c.ov.chunks)-1 {
		c.ovStart(w)
	}
}

// ovJoin: worker w is member mi of partial reduce t.
func (c *Cluster) ovJoin(w int, t *crewTask, mi int) {
	o := &c.ovw[w]
	o.t, o.mi = t, mi
}

// ovAvail is what member mi of t may send of target: everything without
// overlap, the chunks its backprop has produced with it.
func (t *crewTask) ovAvail(mi int, target Block) Block {
	if t.c.ov == nil {
		return target
	}
	return target.Intersect(t.c.ovw[t.P[mi]].produced)
}

// produce: member mi's backprop has produced chunks m; once its plan is
// known they join the streams of the blocks that hold them (a copy to its
// own block counts at once).
func (t *crewTask) produce(mi int, m Block) {
	if t.state != tActive || !t.planned[mi] || m.Len() == 0 {
		return
	}
	c, w, ml := t.c, t.P[mi], t.ml[mi]
	for b, target := range t.split {
		part := target.Intersect(m)
		if part.Len() == 0 {
			continue
		}
		s := ml.legs[b]
		if t.owner[b] == w {
			s.got = s.got.Union(part)
			t.copyArrived(mi, b, part)
			continue
		}
		c.push(s, part)
	}
}

// validateOverlap says why cfg cannot overlap, if it cannot.
func (cfg *Config) validateOverlap() error {
	switch {
	case cfg.Scheme != CREW && cfg.Scheme != OPR:
		return fmt.Errorf("overlap=layer runs crew and opr only, not %v", cfg.Scheme)
	case cfg.Scatter == NonBlocking && cfg.Scheme == CREW:
		return fmt.Errorf("overlap=layer needs blocking scatter")
	case len(cfg.Faults) > 0:
		return fmt.Errorf("overlap=layer does not run with outages")
	case cfg.Budget > 0:
		return fmt.Errorf("overlap=layer does not run with a time budget")
	case cfg.Compute == nil:
		return fmt.Errorf("overlap=layer needs a compute time")
	}
	return nil
}
