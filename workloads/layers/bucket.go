package layers

import (
	"fmt"
	"math"

	"syncsim/netsim"
)

// PyTorch DistributedDataParallel's bucket caps (torch/nn/parallel/
// distributed.py: "default case (bucket cap is 25 MiB)", bucket_bytes_cap
// = int(bucket_cap_mb * 1024 * 1024); the first bucket's cap is
// dist._DEFAULT_FIRST_BUCKET_BYTES, kDefaultFirstBucketBytes = 1 MiB in
// torch/csrc/distributed/c10d/reducer.hpp).
const (
	DefaultBucketMB      = 25
	DefaultFirstBucketMB = 1
)

// Bucketing says how gradients are fused into buckets.
type Bucketing struct {
	// CapMB is a bucket's size cap in MiB, DDP's bucket_cap_mb; 0 gives
	// every layer a bucket of its own (no fusion: a hook per layer).
	CapMB float64
	// FirstCapMB caps the first bucket backprop fills (0: CapMB).
	FirstCapMB float64
}

// DDP is DistributedDataParallel's default bucketing.
var DDP = Bucketing{CapMB: DefaultBucketMB, FirstCapMB: DefaultFirstBucketMB}

// Bucket is a run of consecutive layers whose gradients are synchronised
// together.
type Bucket struct {
	// Lo and Hi delimit the layers [Lo, Hi) of the model.
	Lo, Hi int
	// Bytes is the bucket's gradient; Forward and Backward its layers'
	// compute.
	Bytes             netsim.Bytes
	Forward, Backward netsim.Time
}

// Buckets fuses m's gradients into buckets as DDP's Reducer does after its
// first iteration (Reducer::rebuild_buckets in
// torch/csrc/distributed/c10d/reducer.cpp, with
// compute_bucket_assignment_by_size): gradients in the order backprop
// produces them (last layer first) fill a bucket until its bytes reach the
// cap; the first bucket is capped at FirstCapMB, every later one at CapMB
// (a bucket may exceed its cap by its last layer, and a layer larger than
// the cap is a bucket of its own). DDP's default leaves the small bucket
// first in the order gradients are ready, at the output side; its
// DDP_SET_LAST_BUCKET_CAP=1 would put it last instead. Two differences
// from DDP, both stated: a row of the table is never split (DDP fuses
// tensors, and a table row may hold several), and layers without
// parameters join the bucket of the next layer backprop reaches (at the
// input end, the last bucket).
//
// The buckets are returned input side first, like the layers: backprop
// fills them from the last to the first, and the next forward pass needs
// them from the first to the last.
func Buckets(m Model, b Bucketing) ([]Bucket, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	if !(b.CapMB >= 0) || math.IsInf(b.CapMB, 0) || !(b.FirstCapMB >= 0) || math.IsInf(b.FirstCapMB, 0) {
		return nil, fmt.Errorf("bucket caps %g and %g MiB, want finite and >= 0", b.CapMB, b.FirstCapMB)
	}
	limit := func(first bool) float64 {
		if first && b.FirstCapMB > 0 && b.CapMB > 0 {
			return b.FirstCapMB * float64(netsim.MiB)
		}
		return b.CapMB * float64(netsim.MiB)
	}
	var rev []Bucket // in the order backprop fills them
	cur := Bucket{Hi: len(m.Layers)}
	for l := len(m.Layers) - 1; l >= 0; l-- {
		x := m.Layers[l]
		cur.Lo = l
		cur.Bytes += x.Bytes
		cur.Forward += x.Forward
		cur.Backward += x.Backward
		if cur.Bytes > 0 && float64(cur.Bytes) >= limit(len(rev) == 0) {
			rev = append(rev, cur)
			cur = Bucket{Hi: l}
		}
	}
	if cur.Hi > 0 { // layers left over
		if cur.Bytes > 0 || len(rev) == 0 {
			rev = append(rev, cur)
		} else {
			last := &rev[len(rev)-1]
			last.Lo = 0
			last.Forward += cur.Forward
			last.Backward += cur.Backward
		}
	}
	out := make([]Bucket, len(rev))
	for i, x := range rev {
		out[len(rev)-1-i] = x
	}
	return out, nil
}
