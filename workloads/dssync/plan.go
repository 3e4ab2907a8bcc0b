package dssync

import (
	"fmt"
	"math"

	"syncsim/netsim"
	"syncsim/workloads/layers"
)

// Plan is how one iteration of a job is cut for synchronisation: the
// bytes of each piece, input side first, and each piece's nominal forward
// and backward compute (nil: spread evenly over the pieces).
type Plan struct {
	Pieces            []netsim.Bytes
	Forward, Backward []netsim.Time
}

// Cutting says how a job cuts its model.
type Cutting struct {
	// Layers < 0 cuts the model's layer table (Table) into Bucket's
	// buckets, each with its layers' compute; Layers >= 1 cuts it into
	// that many equal pieces with the compute spread evenly, and 0 into
	// 25 MB equal pieces (the earlier model, kept for comparison).
	Layers int
	// Table is the model's layer table; nil cuts a model without one into
	// 25 MB equal pieces when Layers < 0.
	Table *layers.Model
	// Overlap none synchronises the whole model as one piece after the
	// whole backward pass.
	Overlap layers.Overlap
	Bucket  layers.Bucketing
}

// PlanOf cuts size bytes computing for compute (backwardFrac of it in the
// backward pass) as cut says. A table is rescaled to compute, each layer
// keeping its share (Model.WithCompute).
func PlanOf(size netsim.Bytes, compute netsim.Time, backwardFrac float64, cut Cutting) (Plan, error) {
	if cut.Overlap == layers.OverlapNone {
		return Plan{Pieces: []netsim.Bytes{size}}, nil
	}
	n := cut.Layers
	if n < 0 && cut.Table == nil {
		n = 0
	}
	if n >= 0 {
		if n == 0 {
			n = max(1, int((size+BucketBytes-1)/BucketBytes))
		}
		if n > 10000 {
			return Plan{}, fmt.Errorf("layers %d, want at most 10000", n)
		}
		if size < netsim.Bytes(n) {
			return Plan{}, fmt.Errorf("model of %d bytes cannot be cut into %d pieces", size, n)
		}
		return Plan{Pieces: Pieces(size, n)}, nil
	}
	if cut.Table.Bytes() != size {
		return Plan{}, fmt.Errorf("layer table %s has %d bytes, the model %d", cut.Table.Name, cut.Table.Bytes(), size)
	}
	t := cut.Table.WithCompute(compute, backwardFrac)
	bs, err := layers.Buckets(t, cut.Bucket)
	if err != nil {
		return Plan{}, err
	}
	p := Plan{Pieces: make([]netsim.Bytes, len(bs)), Forward: make([]netsim.Time, len(bs)), Backward: make([]netsim.Time, len(bs))}
	for i, b := range bs {
		p.Pieces[i], p.Forward[i], p.Backward[i] = b.Bytes, b.Forward, b.Backward
	}
	return p, nil
}

// DefaultBackwardFrac is the backward pass's share of the compute of a
// model cut into equal pieces: backward costs about twice the forward.
const DefaultBackwardFrac = 0.667

// apply sets jc's compute: the plan's per-piece times, or compute split
// by backwardFrac and spread evenly over equal pieces.
func (p Plan) apply(jc *JobConfig, compute netsim.Time, backwardFrac float64) {
	if p.Forward != nil {
		jc.PieceForward, jc.PieceBackward = p.Forward, p.Backward
		jc.Forward, jc.Backward = 0, 0
		for i := range p.Forward {
			jc.Forward += p.Forward[i]
			jc.Backward += p.Backward[i]
		}
		return
	}
	if backwardFrac < 0 {
		backwardFrac = DefaultBackwardFrac
	}
	bwd := netsim.Time(math.Round(backwardFrac * float64(compute)))
	jc.Forward, jc.Backward = compute-bwd, bwd
}
