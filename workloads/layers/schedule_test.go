package layers

import (
	"testing"

	"syncsim/netsim"
)

const ms = netsim.Millisecond

// twoLayers is the hand-worked case: layer 0 (input side) forward 1 ms,
// backward 2 ms, 4 MiB; layer 1 forward 2 ms, backward 4 ms, 8 MiB.
func twoLayers() Model {
	return Model{Name: "two", Layers: []Layer{
		{Name: "l0", Bytes: 4 * netsim.MiB, Forward: 1 * ms, Backward: 2 * ms},
		{Name: "l1", Bytes: 8 * netsim.MiB, Forward: 2 * ms, Backward: 4 * ms},
	}}
}

// The two-layer case by hand, one bucket per layer, bucket 0 taking 3 ms
// to synchronise and bucket 1 5 ms:
//
//	forward  l0 0-1, l1 1-3; backward l1 3-7 (bucket 1 ready at 7), l0 7-9
//	serial:      sync b1 7-12, b0 max(9,12)=12-15; the next forward of l0
//	             waits for b0: iteration = 15 ms = 3 + 4 + 5 + 3 (l0's
//	             backward hides behind b1's synchronisation)
//	concurrent:  b1 7-12, b0 9-12: 12 ms to the last synchronisation; the
//	             next iteration starts at 12, its l1 forward at 13 (b1 done
//	             at 12), so every iteration takes 12 ms
//	none:        compute 0-9, then b1 9-14, b0 14-17: 17 = 9 + 5 + 3
func TestTwoLayersByHand(t *testing.T) {
	bs, err := Buckets(twoLayers(), Bucketing{CapMB: 0})
	if err != nil || len(bs) != 2 {
		t.Fatalf("%v, %v", bs, err)
	}
	sync := []netsim.Time{3 * ms, 5 * ms}
	for _, tc := range []struct {
		name       string
		o          Overlap
		concurrent bool
		iter       netsim.Time // period of iterations
		end0       netsim.Time // first iteration's last synchronisation
		ready0     netsim.Time // bucket 0 ready
	}{
		{"serial", OverlapLayer, false, 15 * ms, 15 * ms, 9 * ms},
		{"concurrent", OverlapLayer, true, 12 * ms, 12 * ms, 9 * ms},
		{"none", OverlapNone, false, 17 * ms, 17 * ms, 9 * ms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl, err := Schedule(bs, sync, tc.o, tc.concurrent, 4)
			if err != nil {
				t.Fatal(err)
			}
			if tl[0].End != tc.end0 || tl[0].Ready[0] != tc.ready0 {
				t.Errorf("first iteration ends %v, bucket 0 ready %v; want %v, %v", tl[0].End, tl[0].Ready[0], tc.end0, tc.ready0)
			}
			for i := 1; i < len(tl); i++ {
				if p := tl[i].Start - tl[i-1].Start; p != tc.iter {
					t.Errorf("iteration %d takes %v, want %v", i-1, p, tc.iter)
				}
			}
		})
	}
	// The concurrent case's second iteration: l1's forward waited for b1.
	tl, _ := Schedule(bs, sync, OverlapLayer, true, 2)
	if tl[1].Start != 12*ms || tl[1].Ready[1] != 19*ms {
		t.Errorf("second iteration starts %v, bucket 1 ready %v; want 12ms, 19ms", tl[1].Start, tl[1].Ready[1])
	}
}

// K equal buckets: the iteration is F + max(B, C) + min(b, s), the
// compute and communication overlapping but for the tail of one bucket
// (closed form), whichever dominates; without overlap F + B + C.
func TestClosedFormEqualLayers(t *testing.T) {
	for _, K := range []int{1, 2, 7, 40} {
		for _, c := range []struct{ f, b, s netsim.Time }{
			{1 * ms, 2 * ms, 1 * ms}, // compute-bound
			{1 * ms, 2 * ms, 5 * ms}, // communication-bound
			{3 * ms, 2 * ms, 2 * ms}, // balanced
			{0, 700 * netsim.Microsecond, 300 * netsim.Microsecond},
		} {
			m := Model{Name: "eq"}
			for range K {
				m.Layers = append(m.Layers, Layer{Bytes: netsim.MiB, Forward: c.f, Backward: c.b})
			}
			bs, err := Buckets(m, Bucketing{CapMB: 0})
			if err != nil || len(bs) != K {
				t.Fatalf("%d buckets, %v", len(bs), err)
			}
			sync := make([]netsim.Time, K)
			for k := range sync {
				sync[k] = c.s
			}
			n := netsim.Time(K)
			F, B, C := n*c.f, n*c.b, n*c.s
			want := F + max(B, C) + min(c.b, c.s)
			tl, _ := Schedule(bs, sync, OverlapLayer, false, 3)
			if got := tl[2].Start - tl[1].Start; got != want || tl[0].End-tl[0].Start != want {
				t.Errorf("K=%d %+v: iteration %v (first %v), closed form %v", K, c, got, tl[0].End, want)
			}
			tl, _ = Schedule(bs, sync, OverlapNone, false, 3)
			if got := tl[2].Start - tl[1].Start; got != F+B+C {
				t.Errorf("K=%d %+v none: iteration %v, want %v", K, c, got, F+B+C)
			}
		}
	}
}

// overlap=none is compute plus the sum of the synchronisations, whatever
// the buckets.
func TestNoneIsComputePlusSyncs(t *testing.T) {
	m, _ := Builtin("resnet50")
	bs, _ := Buckets(m, DDP)
	sync := make([]netsim.Time, len(bs))
	var sum netsim.Time
	for k := range sync {
		sync[k] = netsim.Time(k+1) * 137 * netsim.Microsecond
		sum += sync[k]
	}
	tl, _ := Schedule(bs, sync, OverlapNone, false, 2)
	if got, want := tl[1].Start-tl[0].Start, m.Compute()+sum; got != want {
		t.Errorf("iteration %v, want compute %v + syncs %v", got, m.Compute(), sum)
	}
	if _, err := Schedule(bs, sync[1:], OverlapLayer, false, 1); err == nil {
		t.Error("mismatched lengths accepted")
	}
}
