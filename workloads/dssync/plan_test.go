package dssync

import (
	"testing"

	"syncsim/netsim"
	"syncsim/workloads/layers"
)

// A job cut by a layer table follows the layer schedule exactly: with
// each bucket's collective taking a fixed time, its iteration time equals
// layers.Schedule's critical path (serial buckets, as a group's pieces
// run), for the hand-worked two-layer table and for ResNet-50 in DDP's
// buckets.
func TestJobFollowsLayerSchedule(t *testing.T) {
	two := layers.Model{Name: "two", Layers: []layers.Layer{
		{Name: "l0", Bytes: 4 * netsim.MiB, Forward: 1 * netsim.Millisecond, Backward: 2 * netsim.Millisecond},
		{Name: "l1", Bytes: 8 * netsim.MiB, Forward: 2 * netsim.Millisecond, Backward: 4 * netsim.Millisecond},
	}}
	r50, _ := layers.Builtin("resnet50")
	for _, tc := range []struct {
		name  string
		table layers.Model
		b     layers.Bucketing
		o     layers.Overlap
	}{
		{"two layers", two, layers.Bucketing{}, layers.OverlapLayer},
		{"two layers, none", two, layers.Bucketing{}, layers.OverlapNone},
		{"resnet50 ddp", r50, layers.DDP, layers.OverlapLayer},
		{"resnet50 per layer", r50, layers.Bucketing{}, layers.OverlapLayer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := PlanOf(tc.table.Bytes(), tc.table.Compute(), -1, Cutting{Layers: -1, Table: &tc.table, Overlap: tc.o, Bucket: tc.b})
			if err != nil {
				t.Fatal(err)
			}
			// A bucket of b bytes synchronises in b/4 MiB x 3 ms.
			dur := func(b netsim.Bytes) netsim.Time {
				return netsim.Time(float64(b) / float64(4*netsim.MiB) * float64(3*netsim.Millisecond))
			}
			sim := netsim.New(1)
			fr := &fixedRun{sim: sim, per: func(_ []int, size netsim.Bytes) netsim.Time { return dur(size) }}
			jc := JobConfig{Name: "t", Hosts: []netsim.NodeID{0, 1}, Pieces: plan.Pieces, Iterations: 5, Warmup: 1}
			plan.apply(&jc, tc.table.Compute(), -1)
			j, err := NewJob(sim, jc, NewGroupSync(All(2), fr.run))
			if err != nil {
				t.Fatal(err)
			}
			j.Start(nil)
			sim.Run(netsim.Never)
			// The same iteration without a network.
			var bs []layers.Bucket
			var sync []netsim.Time
			if tc.o == layers.OverlapNone {
				bs = []layers.Bucket{{Hi: len(tc.table.Layers), Bytes: tc.table.Bytes(), Forward: tc.table.Forward(), Backward: tc.table.Backward()}}
			} else {
				bs, _ = layers.Buckets(tc.table, tc.b)
			}
			for _, b := range bs {
				sync = append(sync, dur(b.Bytes))
			}
			tl, err := layers.Schedule(bs, sync, tc.o, false, 3)
			if err != nil {
				t.Fatal(err)
			}
			want := tl[2].Start - tl[1].Start
			for w := range 2 {
				if got := j.Stats(w).Iter; got != want {
					t.Errorf("worker %d: iteration %v, schedule %v", w, got, want)
				}
			}
			// By hand: forward 3, l1's backward 4, bucket 1's 6 ms of
			// synchronisation (l0's backward hidden behind it), bucket 0's 3.
			if tc.name == "two layers" && want != 16*netsim.Millisecond {
				t.Errorf("two layers: %v, by hand 16ms", want)
			}
		})
	}
}

// Equal pieces stay the earlier model: layers=N pieces, compute spread
// evenly; overlap=none one piece.
func TestPlanEqualPieces(t *testing.T) {
	p, err := PlanOf(146*netsim.Megabyte, 210*netsim.Millisecond, 0.667, Cutting{Layers: 0})
	if err != nil || len(p.Pieces) != 6 || p.Forward != nil {
		t.Fatalf("%+v, %v", p, err)
	}
	tab, _ := layers.Builtin("wrn-28-10")
	p, err = PlanOf(tab.Bytes(), 210*netsim.Millisecond, -1, Cutting{Layers: -1, Table: &tab})
	if err != nil || len(p.Pieces) != 14 {
		t.Fatalf("%d pieces, %v", len(p.Pieces), err)
	}
	p, _ = PlanOf(tab.Bytes(), 210*netsim.Millisecond, -1, Cutting{Layers: -1, Table: &tab, Overlap: layers.OverlapNone})
	if len(p.Pieces) != 1 || p.Pieces[0] != tab.Bytes() {
		t.Errorf("overlap none: %+v", p)
	}
	if _, err := PlanOf(tab.Bytes()+1, 210*netsim.Millisecond, -1, Cutting{Layers: -1, Table: &tab}); err == nil {
		t.Error("a table of other bytes than the model was accepted")
	}
}

// The named models' sizes are their layer tables' exactly.
func TestModelsMatchTables(t *testing.T) {
	for name, m := range Models {
		tab, err := layers.Builtin(m.Table)
		if err != nil {
			t.Fatal(err)
		}
		if tab.Bytes() != m.Bytes() {
			t.Errorf("%s: %d bytes, table %d", name, m.Bytes(), tab.Bytes())
		}
	}
}
