package layers

import (
	"testing"

	"syncsim/internal/timeline"
	"syncsim/netsim"
)

// TestExposedTwoLayersByHand: the hand-worked two-layer case
// (TestTwoLayersByHand) recorded as a timeline. Serial: b1 synchronises
// 7-12 while l0's backward runs 7-9, so 3 ms of it are exposed; b0 12-15
// with the compute idle (the next forward of l0 waits for it), 3 ms
// exposed: 6 ms an iteration, the period 15 less the compute 9.
// Concurrent: b1 7-12 (3 exposed), b0 9-12 (3 exposed, the same idle
// interval counted by both). None: the compute 0-9, then b1 9-14 and b0
// 14-17, all exposed.
func TestExposedTwoLayersByHand(t *testing.T) {
	bs, err := Buckets(twoLayers(), Bucketing{CapMB: 0})
	if err != nil {
		t.Fatal(err)
	}
	sync := []netsim.Time{3 * ms, 5 * ms}
	for _, tc := range []struct {
		name       string
		o          Overlap
		concurrent bool
		exposed    [2]netsim.Time // buckets 0 and 1, every iteration
		start      [2]netsim.Time // iteration 0's sync starts
	}{
		{"serial", OverlapLayer, false, [2]netsim.Time{3 * ms, 3 * ms}, [2]netsim.Time{12 * ms, 7 * ms}},
		{"concurrent", OverlapLayer, true, [2]netsim.Time{3 * ms, 3 * ms}, [2]netsim.Time{9 * ms, 7 * ms}},
		{"none", OverlapNone, false, [2]netsim.Time{3 * ms, 5 * ms}, [2]netsim.Time{14 * ms, 9 * ms}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tls, err := Schedule(bs, sync, tc.o, tc.concurrent, 3)
			if err != nil {
				t.Fatal(err)
			}
			w := (&timeline.Log{}).NewJob("two", 1)[0]
			Record(w, bs, tls)
			spans := w.Spans()
			var last int64
			for _, s := range spans {
				if s.Kind == timeline.Sync {
					continue
				}
				if s.Start < last {
					t.Fatalf("compute spans overlap at %d: %+v", last, s)
				}
				last = s.End
			}
			cs := timeline.Exposed(0, spans)
			if len(cs) != 6 {
				t.Fatalf("%d collectives, want 6", len(cs))
			}
			for _, c := range cs {
				if c.Exposed != int64(tc.exposed[c.Bucket]) {
					t.Errorf("iteration %d bucket %d: exposed %v, by hand %v", c.Iter, c.Bucket, netsim.Time(c.Exposed), tc.exposed[c.Bucket])
				}
				if c.Iter == 0 && c.Start != int64(tc.start[c.Bucket]) {
					t.Errorf("bucket %d starts %v, by hand %v", c.Bucket, netsim.Time(c.Start), tc.start[c.Bucket])
				}
			}
			if tc.o == OverlapLayer && !tc.concurrent {
				// Serial: the exposed time of an iteration is its period
				// less its compute.
				per := tls[2].Start - tls[1].Start - twoLayers().Compute()
				var sum int64
				for _, c := range cs {
					if c.Iter == 1 {
						sum += c.Exposed
					}
				}
				if sum != int64(per) {
					t.Errorf("iteration 1 exposes %v, period less compute %v", netsim.Time(sum), per)
				}
			}
		})
	}
}
