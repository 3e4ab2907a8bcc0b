package syncctl

import (
	"math"
	"slices"
	"testing"

	"syncsim/netsim"
	"syncsim/workloads/layers"
	"syncsim/workloads/training"
)

// syncedGroups records the groups as they complete, and every bucket
// reduce's bytes.
type syncedGroups struct {
	groups [][]int
	at     []netsim.Time
	sim    *netsim.Sim
}

func (r *syncedGroups) Computed(int) {}
func (r *syncedGroups) Synced(g []int) {
	r.groups = append(r.groups, slices.Sorted(slices.Values(g)))
	r.at = append(r.at, r.sim.Now())
}

// bucketLog wraps Analytic and records each reduce's bytes and times. It
// checks that every member has produced the bucket when its reduce
// starts, and sums each group's bytes.
type bucketLog struct {
	t          *testing.T
	bytes      []float64
	start, end []netsim.Time
	calls      map[int]int     // reduces started per group under way, by its first worker
	sum        map[int]float64 // their bytes
	whole      []float64       // each completed group's bytes
}

func (b *bucketLog) Start(c *Cluster, g []int, bytes float64, done func()) {
	now := c.Sim().Now()
	b.bytes = append(b.bytes, bytes)
	b.start = append(b.start, now)
	if c.ov != nil && b.t != nil {
		if b.calls == nil {
			b.calls, b.sum = map[int]int{}, map[int]float64{}
		}
		k := len(c.ov.bytes) - 1 - b.calls[g[0]]
		for _, w := range g {
			if p := c.produced(w, k); p > now {
				b.t.Errorf("bucket %d reduced at %v, before worker %d produced it at %v", k, now, w, p)
			}
		}
		b.calls[g[0]]++
		b.sum[g[0]] += bytes
		if k == 0 {
			b.whole = append(b.whole, b.sum[g[0]])
			delete(b.calls, g[0])
			delete(b.sum, g[0])
		}
	}
	Analytic{}.Start(c, g, bytes, func() {
		b.end = append(b.end, c.Sim().Now())
		done()
	})
}

// ms is a duration of x milliseconds.
func ms(x float64) netsim.Time { return netsim.FromSeconds(x / 1e3) }

// TestOverlapTwoLayersByHand works one partial reduce through by hand.
// Two workers, p = 2, a constant 1 s of compute over two layers: the input
// side's (bucket 0) 0.1 s forward, 0.2 s backward, 0.75 of the bytes; the
// output side's (bucket 1) 0.2 s forward, 0.5 s backward, 0.25 of the
// bytes. The model is 1 byte, bandwidth 8 bit/s, alpha 0: a pair's ring
// all-reduce of v bytes takes 2 (1/2) 8 v / 8 = v seconds, so bucket 1
// takes 0.25 s and bucket 0 0.75 s.
//
// Round 1: the forward pass ends at 0.3 s, bucket 1 is produced at 0.8 s:
// both workers are ready, the group launches, bucket 1 is reduced over
// [0.8, 1.05]; bucket 0 is produced at 1.0 s and reduced over
// [1.05, 1.80]. The next round starts at 1.80: an iteration of 1.80 s,
// against 2.00 s compute then synchronise. That is the critical path
// forward + max(backward + s0, b1 + s1 + s0) = 0.3 + max(0.7 + 0.75,
// 0.5 + 0.25 + 0.75) = 1.80, what layers.Schedule gives.
func TestOverlapTwoLayersByHand(t *testing.T) {
	bs := []layers.Bucket{
		{Lo: 0, Hi: 1, Bytes: 3, Forward: ms(100), Backward: ms(200)},
		{Lo: 1, Hi: 2, Bytes: 1, Forward: ms(200), Backward: ms(500)},
	}
	run := func(buckets []layers.Bucket) (*syncedGroups, *bucketLog, *Cluster) {
		sim := netsim.New(1)
		rec, log := &syncedGroups{sim: sim}, &bucketLog{}
		c, err := NewCluster(sim, Config{BW: []float64{8, 8}, ModelBytes: 1, Compute: []training.Dist{training.Constant{T: 1}},
			MaxIters: 3, Exec: log, Recorder: rec, Buckets: buckets}, &PartialReduce{P: 2})
		if err != nil {
			t.Fatal(err)
		}
		c.Run()
		if err := c.Check(); err != nil {
			t.Fatal(err)
		}
		return rec, log, c
	}
	rec, log, _ := run(bs)
	want := []netsim.Time{ms(1800), ms(3600), ms(5400)}
	if !slices.Equal(rec.at, want) {
		t.Errorf("groups end at %v, want %v", rec.at, want)
	}
	// The first round's reduces: bucket 1 then bucket 0, by hand.
	if !slices.Equal(log.bytes[:2], []float64{0.25, 0.75}) ||
		!slices.Equal(log.start[:2], []netsim.Time{ms(800), ms(1050)}) || !slices.Equal(log.end[:2], []netsim.Time{ms(1050), ms(1800)}) {
		t.Errorf("round 1 reduces %v over %v-%v, want [0.25 0.75] over [0.8s 1.05s]-[1.05s 1.8s]", log.bytes[:2], log.start[:2], log.end[:2])
	}
	// The same critical path as the layer model's schedule.
	tl, err := layers.Schedule(bs, []netsim.Time{ms(750), ms(250)}, layers.OverlapLayer, false, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tl {
		if tl[i].End != rec.at[i] {
			t.Errorf("round %d ends at %v, layers.Schedule says %v", i, rec.at[i], tl[i].End)
		}
	}
	// Without overlap (no buckets, or one): compute, then the whole model.
	for _, b := range [][]layers.Bucket{nil, {{Lo: 0, Hi: 2, Bytes: 4, Forward: ms(300), Backward: ms(700)}}} {
		rec, log, _ := run(b)
		if want := []netsim.Time{ms(2000), ms(4000), ms(6000)}; !slices.Equal(rec.at, want) || log.bytes[0] != 1 {
			t.Errorf("%d buckets: groups end at %v reducing %v bytes, want %v and 1 byte", len(b), rec.at, log.bytes[0], want)
		}
	}
}

// TestOverlapClosedForm checks partial reduce's iteration against the
// closed form of the layer model: with K equal buckets of forward f,
// backward b and reduce s, an iteration takes K f + max(K b, K s) +
// min(b, s): compute and communication overlap but for one bucket's tail.
// Eight workers in groups of p = 4 at equal compute and bandwidth, alpha
// = 0, with communication shorter and longer than the backward pass.
func TestOverlapClosedForm(t *testing.T) {
	const K = 10
	for _, bytesPerBucket := range []float64{0.02, 0.1, 0.3} {
		bs := make([]layers.Bucket, K)
		for k := range bs {
			bs[k] = layers.Bucket{Lo: k, Hi: k + 1, Bytes: 1, Forward: ms(30), Backward: ms(70)} // f = 0.03 s, b = 0.07 s
		}
		sim := netsim.New(1)
		rec := &syncedGroups{sim: sim}
		bw := make([]float64, 8)
		for i := range bw {
			bw[i] = 16 // a group of 4 reduces v bytes in 2 (3/4) 8 v / 16 = 0.75 v s
		}
		c, err := NewCluster(sim, Config{BW: bw, ModelBytes: K * bytesPerBucket, Compute: []training.Dist{training.Constant{T: 1}},
			MaxIters: 4, Recorder: rec, Buckets: bs}, &PartialReduce{P: 4})
		if err != nil {
			t.Fatal(err)
		}
		c.Run()
		if err := c.Check(); err != nil {
			t.Fatal(err)
		}
		f, b, s := 0.03, 0.07, 0.75*bytesPerBucket
		want := K*f + math.Max(K*b, K*s) + math.Min(b, s)
		if len(rec.at) != 8 {
			t.Fatalf("%d groups, want 8 (2 per round)", len(rec.at))
		}
		for i, at := range rec.at {
			round := float64(i/2 + 1)
			if got := at.Seconds(); math.Abs(got-round*want) > 1e-6 {
				t.Errorf("s = %g: group %d ends at %.6f s, want %g rounds of %.6f s", s, i, got, round, want)
			}
			if g := rec.groups[i]; !slices.Equal(g, []int{0, 1, 2, 3}) && !slices.Equal(g, []int{4, 5, 6, 7}) {
				t.Errorf("group %d is %v", i, g)
			}
		}
		// Never slower than compute then synchronise, and never faster
		// than either alone.
		if w := want; w > 1+K*s+1e-9 || w < math.Max(1, K*s) {
			t.Errorf("s = %g: iteration %g outside [max(1, %g), 1 + %g]", s, w, K*s, K*s)
		}
	}
}

// TestOverlapSameGroups: overlap changes when workers are ready, not how
// the controller groups them. With equal compute and equal bandwidths
// every worker's round is the same length in either mode, so the ready
// queue sees the same workers in the same order and partial reduce and
// selective reduce form the same groups in the same order, only earlier
// with overlap (more of them in the same time). On skewed bandwidths the
// first round's groups, formed from the same ready set, are the same;
// later ones may differ, since a group's end moves by how much of its
// synchronisation backprop hides, which depends on its bandwidth.
func TestOverlapSameGroups(t *testing.T) {
	m, err := layers.Builtin("resnet50")
	if err != nil {
		t.Fatal(err)
	}
	buckets, err := layers.Buckets(m, layers.DDP)
	if err != nil {
		t.Fatal(err)
	}
	skewed := []float64{20e9, 4e9, 12e9, 1e9, 8e9, 16e9, 2e9, 10e9, 6e9, 18e9}
	equal := slices.Repeat([]float64{10e9}, 10)
	ctls := map[string]func() Controller{
		"partial-reduce": func() Controller { return &PartialReduce{P: 3} },
		"selective-reduce": func() Controller {
			s, err := NewSelectiveReduce(SelectiveConfig{P: 3, Eta: 0.3, Theta: 1, Dt: 0.01}, 100e6, nil)
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
	}
	for name, ctl := range ctls {
		t.Run(name, func(t *testing.T) {
			run := func(bw []float64, b []layers.Bucket) (*syncedGroups, Metrics) {
				sim := netsim.New(3)
				rec := &syncedGroups{sim: sim}
				c, err := NewCluster(sim, Config{BW: bw, ModelBytes: 100e6, Alpha: 1e-3, Compute: []training.Dist{training.Constant{T: 0.3}},
					Duration: netsim.FromSeconds(20), Recorder: rec, Buckets: b}, ctl())
				if err != nil {
					t.Fatal(err)
				}
				m := c.Run()
				if err := c.Check(); err != nil {
					t.Fatal(err)
				}
				return rec, m
			}
			off, moff := run(equal, nil)
			on, mon := run(equal, buckets)
			n := min(len(off.groups), len(on.groups))
			if n < 50 {
				t.Fatalf("only %d groups", n)
			}
			for i := range n {
				if !slices.Equal(off.groups[i], on.groups[i]) {
					t.Fatalf("equal bandwidths, group %d: %v without overlap, %v with", i, off.groups[i], on.groups[i])
				}
				if on.at[i] >= off.at[i] {
					t.Fatalf("group %d ends at %v with overlap, %v without", i, on.at[i], off.at[i])
				}
			}
			if mon.TotalIteration <= moff.TotalIteration || len(on.groups) <= len(off.groups) {
				t.Errorf("overlap: %d iterations and %d groups, without %d and %d", mon.TotalIteration, len(on.groups), moff.TotalIteration, len(off.groups))
			}
			off, _ = run(skewed, nil)
			on, _ = run(skewed, buckets)
			first := func(r *syncedGroups) [][]int { // the groups of the first round: disjoint, until a worker recurs
				seen := map[int]bool{}
				for i, g := range r.groups {
					for _, w := range g {
						if seen[w] {
							return r.groups[:i]
						}
						seen[w] = true
					}
				}
				return r.groups
			}
			a, b := first(off), first(on)
			if len(a) == 0 || !slices.EqualFunc(a, b, slices.Equal) {
				t.Errorf("skewed bandwidths, first round: %v without overlap, %v with", a, b)
			}
		})
	}
}

// TestOverlapBooks runs selective reduce with random compute and changing
// bandwidths under overlap: the books balance, every group reduces every
// bucket once, the bucket bytes add up to the model per group, and a
// group never reduces a bucket before each member has produced it.
func TestOverlapBooks(t *testing.T) {
	m, err := layers.Builtin("vgg19")
	if err != nil {
		t.Fatal(err)
	}
	bs, err := layers.Buckets(m, layers.DDP)
	if err != nil {
		t.Fatal(err)
	}
	sim := netsim.New(7)
	s, err := NewSelectiveReduce(SelectiveConfig{P: 3, Eta: 0.3, Theta: 1, Dt: 0.01}, 50e6, nil)
	if err != nil {
		t.Fatal(err)
	}
	log := &bucketLog{t: t}
	proc, err := training.NewBWProcess(sim.Rand("bw"), 12, training.BWProcessConfig{Law: training.BandwidthLaw{Lambda: 0.05}, Model: training.BWRedraw, Period: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCluster(sim, Config{Schedule: Process(proc), ModelBytes: 50e6, Alpha: 1e-3,
		Compute: []training.Dist{training.Uniform{Lo: 0.1, Hi: 0.5}}, Duration: netsim.FromSeconds(30), Exec: log, Record: true, Buckets: bs}, s)
	if err != nil {
		t.Fatal(err)
	}
	met := c.Run()
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	if met.TotalSync < 10 {
		t.Fatalf("%d syncs", met.TotalSync)
	}
	// Completed groups reduced K buckets each; launched but unfinished
	// ones fewer.
	if len(log.end) < len(bs)*met.TotalSync {
		t.Errorf("%d bucket reduces ended for %d groups of %d buckets", len(log.end), met.TotalSync, len(bs))
	}
	if len(log.whole) < met.TotalSync {
		t.Errorf("%d groups reduced every bucket, %d completed", len(log.whole), met.TotalSync)
	}
	for i, v := range log.whole {
		if math.Abs(v-50e6) > 1e-3 {
			t.Errorf("group %d's buckets hold %v bytes, want 5e7", i, v)
		}
	}
}

// TestOverlapControllerSeesTheSignal: under overlap the controller's
// distribution is the time to the first bucket (selective reduce's Eq. 4
// predicts the ready signal), and a worker's last computation is that
// time.
func TestOverlapControllerSeesTheSignal(t *testing.T) {
	bs := []layers.Bucket{
		{Lo: 0, Hi: 1, Bytes: 3, Forward: ms(100), Backward: ms(200)},
		{Lo: 1, Hi: 2, Bytes: 1, Forward: ms(200), Backward: ms(500)},
	}
	u := training.Uniform{Lo: 1, Hi: 2}
	c, err := NewCluster(netsim.New(1), Config{BW: []float64{8, 8}, ModelBytes: 1, Compute: []training.Dist{u}, MaxIters: 1, Buckets: bs}, &PartialReduce{P: 2})
	if err != nil {
		t.Fatal(err)
	}
	d := c.Dist(0)
	for _, x := range []float64{0.5, 0.8, 1.2, 1.6, 2} {
		if got, want := d.CDF(x), u.CDF(x/0.8); math.Abs(got-want) > 1e-12 {
			t.Errorf("CDF(%g) = %g, want F(%g / 0.8) = %g", x, got, x, want)
		}
	}
	if math.Abs(d.Mean()-1.2) > 1e-12 {
		t.Errorf("mean %g, want 0.8 x 1.5", d.Mean())
	}
	c.Run()
	for w := range 2 {
		if l := c.LastCompute(w); l < 0.8 || l > 1.6 {
			t.Errorf("worker %d's last computation %g s, want in [0.8, 1.6] (0.8 of U[1, 2])", w, l)
		}
	}
}

// TestOverlapRefusesBadBuckets: buckets without bytes or compute, or with
// a negative time, are refused in one error.
func TestOverlapRefusesBadBuckets(t *testing.T) {
	for name, bs := range map[string][]layers.Bucket{
		"no bytes":    {{Bytes: 0, Forward: 1, Backward: 1}, {Bytes: 0, Forward: 1, Backward: 1}},
		"no compute":  {{Bytes: 1}, {Bytes: 1}},
		"negative bw": {{Bytes: 1, Forward: 1, Backward: -1}, {Bytes: 1, Forward: 1, Backward: 1}},
	} {
		_, err := NewCluster(netsim.New(1), Config{BW: []float64{8, 8}, ModelBytes: 1, Compute: []training.Dist{training.Constant{T: 1}}, Buckets: bs}, &PartialReduce{P: 2})
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
