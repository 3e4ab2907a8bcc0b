package layers

import (
	"fmt"
	"strings"

	"syncsim/internal/timeline"
	"syncsim/netsim"
)

// Overlap says whether synchronisation overlaps backprop.
type Overlap int

const (
	// OverlapLayer launches each bucket's synchronisation as soon as
	// backprop has produced it, and lets the next iteration's forward pass
	// of a layer start as soon as the bucket holding that layer is
	// synchronised (PyTorch DDP, Horovod, BytePS).
	OverlapLayer Overlap = iota
	// OverlapNone synchronises after the whole backward pass, and the next
	// iteration starts after the whole synchronisation: compute, then
	// communicate.
	OverlapNone
)

// OverlapNames lists the overlap modes as parameters name them.
var OverlapNames = []string{"layer", "none"}

// ParseOverlap reads an overlap mode.
func ParseOverlap(s string) (Overlap, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "layer":
		return OverlapLayer, nil
	case "none":
		return OverlapNone, nil
	}
	return 0, fmt.Errorf("unknown overlap %q (allowed: %s)", s, strings.Join(OverlapNames, ", "))
}

// String names the mode.
func (o Overlap) String() string { return OverlapNames[o] }

// Timeline is one iteration of Schedule. Per-bucket slices are indexed as
// the buckets are (input side first).
type Timeline struct {
	Start      netsim.Time   // the forward pass starts
	Forward    []netsim.Time // the bucket's forward pass starts
	ComputeEnd netsim.Time   // the backward pass ends
	Ready      []netsim.Time // the bucket's gradient is complete (with OverlapNone: the backward pass has ended)
	SyncStart  []netsim.Time // the bucket's synchronisation starts
	SyncEnd    []netsim.Time // and ends
	End        netsim.Time   // the last synchronisation ends
}

// Schedule returns iters iterations of one worker that computes buckets
// (forward first to last, backward last to first) and spends sync[k]
// synchronising bucket k, without a network: the critical path through
// compute and buckets that the simulated jobs follow. Synchronisations
// run one at a time in the order their buckets become ready (NCCL's single
// stream; DDP launches buckets in order), or, with concurrent, each as
// soon as it is ready, independently of the others. The forward pass of
// bucket k in iteration i+1 starts when the compute is free and, with
// OverlapLayer, bucket k of iteration i is synchronised; with OverlapNone,
// when every bucket of iteration i is.
//
// With serial synchronisation the bucket holding the input layers is
// synchronised last and needed first, so each iteration takes Timeline.End
// - Timeline.Start: for K equal buckets of forward f, backward b and
// synchronisation s, K f + max(K b, K s) + min(b, s) with OverlapLayer
// (the compute and the communication overlap but for one bucket's tail)
// and K (f + b + s) with OverlapNone.
func Schedule(bs []Bucket, sync []netsim.Time, o Overlap, concurrent bool, iters int) ([]Timeline, error) {
	K := len(bs)
	if K == 0 || len(sync) != K {
		return nil, fmt.Errorf("schedule: %d buckets and %d synchronisation times", K, len(sync))
	}
	for k, d := range sync {
		if d < 0 || bs[k].Forward < 0 || bs[k].Backward < 0 {
			return nil, fmt.Errorf("schedule: bucket %d has a negative time", k)
		}
	}
	if o != OverlapLayer && o != OverlapNone {
		return nil, fmt.Errorf("schedule: unknown overlap %d", o)
	}
	out := make([]Timeline, 0, max(iters, 0))
	var computeFree, syncFree netsim.Time
	for i := range iters {
		tl := Timeline{Forward: make([]netsim.Time, K), Ready: make([]netsim.Time, K), SyncStart: make([]netsim.Time, K), SyncEnd: make([]netsim.Time, K)}
		t := computeFree
		for k := range K {
			if i > 0 {
				prev := &out[i-1]
				if o == OverlapLayer {
					t = max(t, prev.SyncEnd[k])
				} else {
					t = max(t, prev.End)
				}
			}
			if k == 0 {
				tl.Start = t
			}
			tl.Forward[k] = t
			t += bs[k].Forward
		}
		for k := K - 1; k >= 0; k-- {
			t += bs[k].Backward
			tl.Ready[k] = t
		}
		tl.ComputeEnd, computeFree = t, t
		for k := K - 1; k >= 0; k-- {
			if o == OverlapNone {
				tl.Ready[k] = tl.ComputeEnd
			}
			start := tl.Ready[k]
			if !concurrent {
				start = max(start, syncFree)
			}
			tl.SyncStart[k], tl.SyncEnd[k] = start, start+sync[k]
			syncFree = max(syncFree, tl.SyncEnd[k])
			tl.End = max(tl.End, tl.SyncEnd[k])
		}
		out = append(out, tl)
	}
	return out, nil
}

// Record adds the spans of the schedule tls of buckets bs (Schedule) to
// w: each bucket's forward and backward pass on the compute, each
// bucket's synchronisation from its start to its end.
func Record(w *timeline.Worker, bs []Bucket, tls []Timeline) {
	for i, tl := range tls {
		// The backward pass runs buckets K-1..0 without a gap and ends
		// at ComputeEnd (Ready is ComputeEnd for every bucket with
		// OverlapNone).
		end := tl.ComputeEnd
		for k, b := range bs {
			w.Add(timeline.Forward, i, k, int64(tl.Forward[k]), int64(tl.Forward[k]+b.Forward))
			w.Add(timeline.Backward, i, k, int64(end-b.Backward), int64(end))
			end -= b.Backward
			w.Add(timeline.Sync, i, k, int64(tl.SyncStart[k]), int64(tl.SyncEnd[k]))
		}
	}
}
